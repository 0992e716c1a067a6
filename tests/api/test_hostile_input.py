"""Every field of every payin operation, replaced by hostile values: never a 5xx, never HTML."""

from checkout import clock
from tests import builders

from .helpers import HOSTILE, leaves, replaced


def bodies(api) -> dict[str, dict]:
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    paid = api.post("/trade/pay", builders.direct("PIX", out_trade_no="paid"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{paid}/pay", expect=200)
    return {
        "/card/token": builders.card(),
        "/trade/pre-authorization": builders.pre_authorization(token),
        "/vault/create": builders.pix_vault(clock.brazil_today()),
        "/vault/void": {"version": "2.0", "type": "Card", "vault_token": vault},
        "/trade/pay": builders.vault_pay(vault),
        "/trade/create": builders.direct("DepositExpress", bank="itau"),
        "/trade/refund": builders.refund(paid, "1.00", out_request_no="r1", user_info={"name": "A"}),
        "/trade/query": {"trade_no": paid},
        "/trade/bank-list": {"method": "Cash"},
    }


def test_no_hostile_value_causes_a_server_error(api):
    checked = 0
    for path, body in bodies(api).items():
        for field in [("app_id",), ("timestamp",), *leaves(body)]:
            for value in HOSTILE:
                response = api.client.post(
                    path,
                    json={"app_id": api.app_id, "timestamp": builders.TIMESTAMP, **replaced(body, field, value)},
                    headers=api.auth,
                )
                assert response.status_code < 500, (path, field, value, response.get_json())
                assert response.is_json and response.get_json()["code"] in {"10000", "40001", "40002"}
                checked += 1
    assert checked >= 1400
