"""Schemathesis over /openapi.json: every operation fuzzed in-process as a signing merchant; no 5xx (but the
provider's documented 5001102 answer), no schema break."""

from __future__ import annotations

import base64
import json
import os
import re
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from checkout import clock
from checkout.jsonbody import JsonNumber
from checkout.notifications import stream
from checkout.providers import sandbox
from checkout.sandbox import listen
from checkout.signing import payout_signature
from tests.conftest import Api, PayoutApi
from tests.robustness import realistic

# Hypothesis draws the literals of the code under test into any text it generates, so the sandbox's published test
# card numbers turn up as a city or a subject, stored as sent. There they are not card data; the suite never
# tokenizes them (realistic.CARDS), so a card number the service itself kept is still found.
NOT_CARD_DATA = (frozenset(sandbox.PUBLISHED_CARDS) | frozenset(sandbox.TEST_CARDS)) - set(realistic.CARDS)

# Fuzzed requests per operation (positive and negative cases together); the coverage phase adds its own.
EXAMPLES = int(os.environ.get("CHECKOUT_SCHEMATHESIS_EXAMPLES", "1000"))
# Every run draws the same cases (derandomized); a seed, which takes precedence, explores others.
SEED = os.environ.get("CHECKOUT_SCHEMATHESIS_SEED")
# The one HTTP 500 the provider documents as an answer, not a fault: a payout above the balance.
BALANCE_INSUFFICIENT = ("POST", "/api/payout", 5001102)


@schemathesis.check
def not_a_server_error_but_balance_insufficient(ctx, response, case):
    """not_a_server_error, except for exactly the documented 5001102 answer of the submit operation."""
    if response.status_code == 500 and (case.method.upper(), case.path) == BALANCE_INSUFFICIENT[:2]:
        try:
            body = json.loads(response.content)
        except ValueError:
            body = None
        if isinstance(body, dict) and body.get("code") == BALANCE_INSUFFICIENT[2]:
            return None
    return not_a_server_error(ctx, response, case)


# Beyond the contract's four: schema-invalid input must be refused, and an undeclared verb answered properly.
CHECKS = [
    not_a_server_error_but_balance_insufficient,
    response_schema_conformance,
    content_type_conformance,
    status_code_conformance,
    negative_data_rejection,
    unsupported_method,
]
FUNDS = {"USD": "1000000.00", "EUR": "1000000.00", "GBP": "1000000.00", "BRL": "1000000.00", "MXN": "1000000.00"}

# Ids of cases that keep the credentials schemathesis generated, to fuzz the auth headers themselves.
_generated_auth: set[str] = set()


def _steer(merchant: dict, bodies: dict, path_values: dict):
    """flatmap_case hook: most cases get the merchant's credentials, many a valid body or a seeded id.

    Roll 0-29: a valid body into which up to two generated fields are put back, seeded path ids; 30-59: the
    generated body with a valid timestamp, seeded path ids; 60-89: the generated case with the merchant's
    credentials and app_id; 90-99: as generated, credentials too. Hypothesis leans to small rolls.
    """

    def flatmap_case(context, case):
        return st.integers(0, 99).flatmap(lambda roll: _steered(case, roll, merchant, bodies, path_values))

    return flatmap_case


def _steered(case, roll: int, merchant: dict, bodies: dict, path_values: dict) -> st.SearchStrategy:
    # Only what the roll needs is drawn: generation is most of the suite's time.
    if roll >= 90:
        _generated_auth.add(case.id)
        return st.just(case)
    ids = st.fixed_dictionaries(path_values.get(case.path, {}))
    generated = case.body if isinstance(case.body, dict) else None
    if roll >= 60 or generated is None:
        return ids.map(lambda drawn: _apply(case, merchant, drawn if roll < 60 else {}, None))
    if roll >= 30:
        timestamp = realistic.timestamp(case.path) if "timestamp" in generated else None
        if timestamp is None:
            return ids.map(lambda drawn: _apply(case, merchant, drawn, None))
        return st.tuples(ids, timestamp).map(
            lambda drawn: _apply(case, merchant, drawn[0], {**generated, "timestamp": drawn[1]})
        )
    valid = bodies.get((case.method.upper(), case.path))
    if valid is None:
        return ids.map(lambda drawn: _apply(case, merchant, drawn, None))
    kept = st.sets(st.sampled_from(sorted(generated)), max_size=2) if generated else st.just(set())
    return st.tuples(ids, valid, kept).map(
        lambda drawn: _apply(case, merchant, drawn[0], {**drawn[1], **{key: generated[key] for key in drawn[2]}})
    )


def _apply(case, merchant: dict, ids: dict, body: dict | None):
    # Credentials put back into the case itself, so that a negative case that dropped them sends them.
    case.headers = {**case.headers, **_credentials(case, merchant)}
    if ids:
        case.path_parameters = {**case.path_parameters, **ids}
    if isinstance(case.body, dict):
        body = dict(case.body if body is None else body)
        if not _payout(case):
            body["app_id"] = merchant["app_id"]
        case.body = body
    return case


def _payout(case) -> bool:
    return case.path.startswith("/api/")


def _credentials(case, merchant: dict, signature: str = "signed when sent") -> dict:
    if _payout(case):
        return {"AppId": merchant["app_id"], "Authorization": signature}
    raw = f"{merchant['app_id']}:{merchant['security_key']}".encode()
    return {"Authorization": "Basic " + base64.b64encode(raw).decode()}


def _send_arguments(case, merchant: dict) -> dict:
    """Credentials as the merchant sends them; a payout signature covers exactly the bytes that are sent."""
    if case.id in _generated_auth:
        _generated_auth.discard(case.id)
        return {}
    if not _payout(case):
        return {"headers": _credentials(case, merchant)}
    arguments: dict = {"headers": _credentials(case, merchant, "unsigned")}
    if "json" in (case.media_type or "") and isinstance(case.body, (dict, list, str, int, float, bool)):
        data = json.dumps(case.body).encode()
        arguments["data"] = data
        parsed = json.loads(data, parse_float=JsonNumber)
        if isinstance(parsed, dict):
            arguments["headers"] = _credentials(case, merchant, payout_signature(parsed, merchant["app_key"]))
    return arguments


@pytest.fixture
def answers():
    """(operation, HTTP status) -> count: what the fuzzing reached, and the per-operation request tally."""
    return Counter()


@pytest.fixture
def api_schema(request, app, client, merchant, fund, answers, capsys, monkeypatch):
    monkeypatch.setattr(listen, "HOLD", 0)  # a notification stream's poll answers at once, not in 25 s
    # nor waits for the outbox ids that the fuzzing's refused writes leave unused to settle (2 s each poll)
    monkeypatch.setattr(stream, "SETTLE", 0)
    for currency, amount in FUNDS.items():
        fund(merchant, currency, amount)
    seeds = realistic.seed(Api(client, merchant), PayoutApi(client, merchant))
    clock.reset()  # seeding moved the sandbox clock to pay its payouts; fuzzing starts at real time
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    schema.hook("flatmap_case")(_steer(merchant, realistic.valid_bodies(seeds), realistic.path_values(seeds)))
    covered = re.compile(request.function.covers)
    documented = sorted(
        f"{method.upper()} {path}"
        for path, item in schema.raw_schema["paths"].items()
        for method in item
        if covered.search(path)
    )
    yield schema
    sent = {label: sum(n for (op, _), n in answers.items() if op == label) for label in documented}
    with capsys.disabled():
        print(
            f"\nschemathesis ({request.function.covers}): {len(documented)} operations, "
            f"{sum(sent.values())} requests, fewest {min(sent.values())} per operation"
        )
        if os.environ.get("CHECKOUT_SCHEMATHESIS_VERBOSE"):
            for label in documented:
                statuses = ", ".join(f"{status}: {n}" for (op, status), n in sorted(answers.items()) if op == label)
                print(f"  {label}: {statuses}")
    short = {label: n for label, n in sent.items() if n < EXAMPLES}
    assert not short, f"operations that got fewer than {EXAMPLES} requests: {short}"


schema = schemathesis.pytest.from_fixture("api_schema")
# The operations in two halves of about equal generation cost, one test each, so that two processes
# (pytest -n 2) share the suite.
PAYIN, OTHERS = r"^/(trade|card|vault)/", r"^/(?!(trade|card|vault)/)"


def _fuzzing(covers: str):
    """A test that fuzzes the operations whose path matches `covers`."""
    lazy = schema.include(path_regex=covers)

    @pytest.mark.robustness
    @lazy.parametrize()
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
    )
    @(seed(int(SEED)) if SEED else lambda test: test)
    def test(case, merchant, answers):
        response = case.call_and_validate(checks=CHECKS, **_send_arguments(case, merchant))
        answers[(f"{case.method.upper()} {case.path}", response.status_code)] += 1
        if (case.method.upper(), case.path) == ("POST", "/sandbox/clock"):
            clock.reset()  # each advance starts from real time, so later operations never run decades ahead

    test.covers = covers
    return test


test_payin_operations_keep_their_contract = _fuzzing(PAYIN)
test_payout_and_sandbox_operations_keep_their_contract = _fuzzing(OTHERS)
