# One task runner for the checks CI runs (scripts/test runs them all, in this order, plus e2e).
PYTHON ?= python3
POSTGRES_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test

.PHONY: install lint format types contracts unit unit-pg robustness e2e bench docs check

install:
	$(PYTHON) -m pip install -e ".[test,dev]"

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
	CHECKOUT_DATABASE_URL="$(POSTGRES_URL)" $(PYTHON) -m pytest tests -q -p no:cacheprovider

robustness:
	env -u CHECKOUT_DATABASE_URL $(PYTHON) -m pytest tests/robustness/test_schemathesis.py -q -p no:cacheprovider -m robustness -n 2
	CHECKOUT_DATABASE_URL="$(POSTGRES_URL)" $(PYTHON) -m pytest tests/robustness/test_soak.py -q -p no:cacheprovider -m robustness

e2e:
	env -u CHECKOUT_DATABASE_URL $(PYTHON) -m pytest e2e -q -p no:cacheprovider

bench:
	$(PYTHON) -m tests.bench

docs:
	$(PYTHON) -m checkout docs --out docs/reference

check: lint types contracts unit
