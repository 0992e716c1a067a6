# One task runner for the checks CI runs (scripts/test runs them all, in this order, plus e2e).
PYTHON ?= python3
POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test

CATALOGUES = checkout/translations

.PHONY: install lock upgrade deps translations fresh lint format types contracts unit unit-pg robustness e2e bench docs check

# From the lock (hashes checked), then the project itself on top, without resolving anything again.
install:
	$(PYTHON) -m pip install --require-hashes -r requirements/test.txt
	$(PYTHON) -m pip install --no-deps -e .

# uv.lock and requirements/*.txt after a change to pyproject.toml (`make upgrade`: every pin to the newest allowed).
lock:
	scripts/lock

upgrade:
	scripts/lock --upgrade

# Every imported distribution declared in pyproject.toml, none declared unused; the lock matches pyproject.toml.
deps:
	deptry .
	scripts/lock --check

# The catalogues from the code: messages.pot extracted, each locale's .po brought in step (new texts empty,
# changed ones fuzzy, gone ones dropped), then compiled. Translators edit the .po files only.
translations:
	pybabel extract -F babel.cfg -o $(CATALOGUES)/messages.pot -w 120 --project=checkout \
	  --copyright-holder="checkout contributors" --msgid-bugs-address="" \
	  --header-comment="# The texts of checkout's pages and dashboard, extracted from the code by make translations: never edited by hand." .
	pybabel update -i $(CATALOGUES)/messages.pot -d $(CATALOGUES) -w 120 --ignore-obsolete --previous
	pybabel compile -d $(CATALOGUES) --statistics

# The newest releases the ranges allow, in a throwaway environment, against the unit suite (docs/testing.md).
fresh:
	scripts/fresh

lint:
	ruff check .
	ruff format --check .

format:
	ruff check --fix .
	ruff format .

types:
	$(PYTHON) -m mypy

contracts:
	lint-imports

unit:
	env -u CHECKOUT_DATABASE_URL $(PYTHON) -m pytest tests -q -p no:cacheprovider -n 2 --cov --cov-report=term

unit-pg:
	CHECKOUT_DATABASE_URL="$(POSTGRES_URL)" $(PYTHON) -m pytest tests -q -p no:cacheprovider -n 2

robustness:
	env -u CHECKOUT_DATABASE_URL $(PYTHON) -m pytest tests/robustness/test_schemathesis.py -q -p no:cacheprovider -m robustness -n 2
	CHECKOUT_DATABASE_URL="$(POSTGRES_URL)" $(PYTHON) -m pytest tests/robustness/test_soak.py -q -p no:cacheprovider -m robustness

e2e:
	env -u CHECKOUT_DATABASE_URL $(PYTHON) -m pytest e2e -q -p no:cacheprovider -n 2

bench:
	$(PYTHON) -m tests.bench

docs:
	$(PYTHON) -m checkout docs --out docs/reference

check: lint types contracts deps unit
