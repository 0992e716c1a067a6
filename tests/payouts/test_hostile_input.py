"""Every field of every payout operation, replaced by hostile values: never a 5xx, never HTML."""

import itertools
import json

from sqlalchemy import func, select

from checkout import clock
from checkout.db import db
from checkout.payouts.models import Payout
from tests import builders
from tests.api.helpers import HOSTILE, leaves, replaced
from tests.compat.payout_country_examples import EXAMPLES, filled


def test_no_hostile_value_causes_a_server_error(payout_api, merchant, fund):
    fund(merchant, "USD", "100000.00")
    created = payout_api.post("/payout", builders.payout("seed"), expect=200)["data"]
    today = clock.now().date().isoformat()
    bodies = {
        "/payout/dry-run": builders.dry_run(),
        "/payout": builders.payout("hostile"),
        "/payout/status": {"payout_id": created["transaction_id"], "custom_code": "seed"},
        "/payout/detail": {"transaction_id": created["transaction_id"], "timestamp": builders.now_unix()},
        "/checkout": builders.checkout_session(),
        "/balance/history": {"start_date": today, "end_date": today, "timestamp": builders.now_unix()},
    }
    checked = 0
    for path, body in bodies.items():
        for field in leaves(body):
            for value in [*HOSTILE, "x" * 600]:
                answer = payout_api.client.post(
                    f"/api{path}",
                    json=replaced(body, field, value),
                    headers=payout_api.headers(replaced(body, field, value)),
                )
                assert answer.status_code < 500, (path, field, value, answer.get_json())
                # `hint` beside them where a stale timestamp says what to send instead.
                assert answer.is_json and set(answer.get_json()) - {"hint"} == {"code", "msg", "time", "data"}
                checked += 1
    assert checked >= 600


def test_hostile_beneficiaries_of_every_new_corridor_never_fault_nor_write(payout_api, merchant, fund, app):
    for currency in ("USD", "COP", "CLP", "PEN", "ARS", "TRY"):
        fund(merchant, currency, "10000000")
    fields = ("account", "account_type", "document_id", "document_type", "bank_code", "region", "channel", "amount")
    accepted, counter = 0, itertools.count()
    for page, (example, _) in EXAMPLES.items():
        body = json.loads(filled(example))
        for field, value in itertools.product(fields, [*HOSTILE, "x" * 600]):
            hostile = replaced(body, (field,), value) | {"custom_code": f"h{next(counter)}"}
            answer = payout_api.client.post("/api/payout", json=hostile, headers=payout_api.headers(hostile))
            assert answer.status_code < 500, (page, field, value, answer.get_json())
            assert answer.is_json and set(answer.get_json()) == {"code", "msg", "time", "data"}
            accepted += answer.status_code == 200
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Payout)) == accepted  # refusals wrote nothing
