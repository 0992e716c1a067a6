"""Every operation's real answer matches the response model /openapi.json documents, and nothing more."""

from __future__ import annotations

import types
import typing
from datetime import timedelta
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, RootModel, create_model

from checkout import clock
from checkout.api import openapi
from tests.payins.helpers import hosted

from .. import builders
from ..conftest import Api, PayoutApi
from ..virtualspei.builders import account as spei_account

FORBID = ConfigDict(extra="forbid")


def _forbidding_type(annotation: Any, done: dict) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return forbidding(annotation, done)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is None or origin is Literal or not args:
        return annotation
    converted = tuple(_forbidding_type(arg, done) for arg in args)
    if origin in (Union, types.UnionType):
        return Union[converted]  # noqa: UP007 - built from a tuple of types
    return origin[converted]


def forbidding(model: type[BaseModel], done: dict | None = None) -> type[BaseModel]:
    """A copy of `model` (and of the models it nests) that refuses undocumented fields."""
    done = {} if done is None else done
    if model not in done:
        if issubclass(model, RootModel):
            root = _forbidding_type(model.model_fields["root"].annotation, done)
            done[model] = type(model.__name__, (RootModel[root],), {})
        else:
            fields = {
                name: (_forbidding_type(field.annotation, done), field) for name, field in model.model_fields.items()
            }
            done[model] = create_model(model.__name__, __config__=FORBID, **fields)
    return done[model]


def _listing_today() -> dict:
    start = clock.now() - timedelta(hours=1)
    end = clock.now() + timedelta(hours=1)
    return {
        "start_time": start.strftime("%Y-%m-%d %H:%M:%S"),
        "end_time": end.strftime("%Y-%m-%d %H:%M:%S"),
        "page_num": 1,
        "page_size": 10,
        "timestamp": builders.now_unix(),
    }


def _virtual_spei(payin) -> None:
    """A virtual SPEI account's operations, and the sandbox transfer to its CLABE."""
    spei = payin("/virtual-account/spei/create", spei_account())
    payin("/virtual-account/spei/query", {"account_id": spei["account_id"]})
    clabe_rule = "/sandbox/clabes/{clabe}/transfer"
    payin(f"/sandbox/clabes/{spei['account_number']}/transfer", {"amount": "12.34"}, rule=clabe_rule)
    payin("/virtual-account/spei/usage", {})
    payin("/virtual-account/spei/usage", {"account_id": spei["account_id"]})
    payin("/virtual-account/spei/cancel", {"account_id": spei["account_id"]})


def _answers(client, merchant, fund) -> dict[tuple[str, str], list]:
    """(method, path) -> the answers of representative calls: the payin fields or the payout `data`."""
    fund(merchant, "USD", "100000.00")
    api, payouts = Api(client, merchant), PayoutApi(client, merchant)
    got: dict[tuple[str, str], list] = {}

    def payin(path: str, body: dict | None = None, *, rule: str | None = None, method: str = "POST") -> dict:
        answer = api.get(path) if method == "GET" else api.post(path, body, expect=200)
        assert answer["code"] == "10000", answer
        got.setdefault((method.lower(), rule or path), []).append(
            {k: v for k, v in answer.items() if k not in ("code", "msg")}
        )
        return answer

    def payout(path: str, body: dict) -> Any:
        answer = payouts.post(path, body, expect=200)
        got.setdefault(("post", f"/api{path}"), []).append(answer["data"])
        return answer["data"]

    token = payin("/card/token", builders.card())["token"]
    payin("/card/session", {"country": "BRA"})
    for path, body in (
        ("/trade/pre-authorization", builders.pre_authorization(token)),
        ("/trade/pre-authorization", builders.pre_authorization(token, out_trade_no="r-pre-2")),
        ("/trade/capture", {"version": "2.0", "amount": "100.00", "currency": "BRL", "out_trade_no": "pre-1"}),
        ("/trade/void", {"version": "2.0", "out_trade_no": "r-pre-2"}),
        ("/trade/create", hosted(out_trade_no="r-hosted")),
    ):
        payin(path, body)
    pix = payin("/trade/create", builders.direct("PIX", out_trade_no="r-pix"))
    payin("/trade/create", builders.direct("Boleto", out_trade_no="r-boleto"))
    payin("/trade/create", builders.direct("DepositExpress", out_trade_no="r-deposit", bank="itau"))
    payin("/trade/create", builders.direct("Wallet", out_trade_no="r-wallet", channel="PicPay"))
    payin("/trade/pay", builders.direct("Cash", out_trade_no="r-cash", bank="oxxo", order_currency="MXN"))
    for method, extra in (("PIX", {}), ("Boleto", {}), ("Lottery", {}), ("DepositExpress", {"bank": "itau"})):
        payin("/trade/pay", builders.direct(method, out_trade_no=f"r-pay-{method}", **extra))
    payin(
        "/trade/pay",
        builders.direct(
            "CreditCard",
            out_trade_no="r-card",
            token=token,
            fingerprint="fp-1",
            issuer="visa",
            user_ip="203.0.113.7",
        ),
    )
    card_vault = payin("/vault/create", builders.card_vault(token))["token"]
    pix_vault = payin("/vault/create", builders.pix_vault(clock.brazil_today()))["token"]
    payin(f"/sandbox/vaults/{card_vault}/approve", rule="/sandbox/vaults/{vault_token}/approve")
    payin(f"/sandbox/vaults/{pix_vault}/reject", rule="/sandbox/vaults/{vault_token}/reject")
    payin("/trade/pay", builders.vault_pay(card_vault))
    payin("/vault/void", {"version": "2.0", "type": "Card", "vault_token": card_vault})
    payin(f"/sandbox/trades/{pix['trade_no']}/pay", rule="/sandbox/trades/{trade_no}/pay")
    payin("/trade/refund", builders.refund(pix["trade_no"], "10.00", out_request_no="rq-1"))
    payin("/trade/refund", builders.refund(pix["trade_no"], "90.50", out_request_no="rq-2"))
    for path, body in (
        ("/trade/query", {"trade_no": pix["trade_no"]}),
        ("/trade/query", {"out_trade_no": "r-boleto"}),
        ("/trade/query", {"out_trade_no": "r-card"}),
        ("/trade/bank-list", {"method": "Cash"}),
        ("/trade/bank-list", {"method": "Khipu"}),
    ):
        payin(path, body)
    _virtual_spei(payin)

    payout("/payout/dry-run", builders.dry_run())
    sent = payout("/payout", builders.payout("r-po-1"))
    payout("/payout", builders.spei_payout("r-po-2", method="CASH"))
    payout("/payout/status", {"custom_code": "r-po-1"})
    payout("/payout/detail", {"transaction_id": sent["transaction_id"], "timestamp": builders.now_unix()})
    payout("/checkout", builders.checkout_session())
    today = clock.brazil_today().isoformat()
    payout("/balance/history", {"start_date": today, "end_date": today, "timestamp": builders.now_unix()})
    payout("/balance", {"timestamp": builders.now_unix()})

    payin("/sandbox/clock", rule="/sandbox/clock", method="GET")
    payin("/sandbox/clock", {"advance_seconds": 400})  # the sandbox bank pays the payouts
    payin(
        f"/sandbox/payouts/{sent['transaction_id']}/refund",
        {"amount": "10.00"},
        rule="/sandbox/payouts/{transaction_id}/refund",
    )
    payout("/payout/detail", {"transaction_id": sent["transaction_id"], "timestamp": builders.now_unix()})
    payout("/payout/list", _listing_today())
    deliveries = payin("/sandbox/deliveries", rule="/sandbox/deliveries", method="GET")["deliveries"]
    payin(f"/sandbox/deliveries/{deliveries[0]['id']}/resend", rule="/sandbox/deliveries/{delivery_id}/resend")
    _listened(payin)
    clock.reset()
    return got


def _listened(payin) -> None:
    """`checkout listen`'s calls: the stream from its start, and one forward's answer reported."""
    streamed = payin("/sandbox/notifications/stream?after=0&wait=0", rule="/sandbox/notifications/stream", method="GET")
    assert streamed["messages"], "the stream from the start shows the merchant's notifications"
    payin(
        f"/sandbox/notifications/stream/{streamed['messages'][0]['id']}/result",
        {"status_code": 200, "response": "success", "duration_ms": 5},
        rule="/sandbox/notifications/stream/{delivery_id}/result",
    )


def test_every_answer_matches_its_response_model(app, client, merchant, fund):
    answers = _answers(client, merchant, fund)
    documented = {(method, path): op for path, method, op in openapi._served(app)}
    assert set(documented) == set(answers), "every operation is called"
    for key, op in documented.items():
        assert op["response"] is not None, f"{key} documents no response model"
        strict = forbidding(op["response"])
        for answer in answers[key]:
            strict.model_validate(answer, strict=True)


def test_a_field_a_view_adds_without_documenting_it_fails():
    class Inner(BaseModel):
        a: int

    class Outer(BaseModel):
        inner: list[Inner]
        maybe: Inner | None = None

    strict = forbidding(Outer)
    strict.model_validate({"inner": [{"a": 1}], "maybe": {"a": 2}}, strict=True)
    for extra in ({"inner": [], "b": 1}, {"inner": [{"a": 1, "b": 1}]}, {"inner": [], "maybe": {"a": 1, "b": 2}}):
        try:
            strict.model_validate(extra, strict=True)
        except ValueError:
            continue
        raise AssertionError(f"{extra} was accepted")
