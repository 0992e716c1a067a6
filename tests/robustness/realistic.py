"""What a real merchant sends: seeded objects and valid request bodies that steer schemathesis past first checks."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import timedelta

from hypothesis import strategies as st
from stdnum.cl import rut

from checkout import clock
from checkout.brazil import brcode

from .. import builders
from ..conftest import Api, PayoutApi

CARDS = [
    builders.APPROVED_CARD,
    builders.DECLINED_CARD,
    builders.INSUFFICIENT_FUNDS_CARD,
    "5555555555554444",
    "378282246310005",
]
CHILE_RUT = rut.format("12345678" + rut.calc_check_digit("12345678"))
BR_CODE = brcode.build(key=builders.EVP, amount=None, merchant_name="Ana Souza", merchant_city="Sao Paulo", txid="st1")


@dataclass
class Seeds:
    """Objects that exist before fuzzing, so that ids in generated requests can name real ones."""

    card_tokens: list[str] = field(default_factory=list)
    active_vaults: dict[str, str] = field(default_factory=dict)  # vault token -> vault_pay method
    pending_vaults: list[str] = field(default_factory=list)
    trades: list[tuple[str, str]] = field(default_factory=list)  # (trade_no, out_trade_no)
    payouts: list[tuple[str, str]] = field(default_factory=list)  # (transaction_id, custom_code)
    deliveries: list[str] = field(default_factory=list)


def seed(api: Api, payout_api: PayoutApi, copies: int = 6) -> Seeds:
    """Some of everything a merchant's first day in the sandbox leaves, `copies` of each: fuzzing uses them up
    (a paid trade is refunded, a pending vault decided), and what is used up no longer reaches deep code."""
    seeds = Seeds()
    for number in CARDS:
        cvv = "1234" if number.startswith("3") else "123"
        seeds.card_tokens.append(api.post("/card/token", builders.card(number, card={"cvv": cvv}), expect=200)["token"])
    for index in range(2 * copies):
        token = seeds.card_tokens[index % 2]
        card = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
        pix = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
        if index % 2:
            seeds.pending_vaults += [card, pix]
            continue
        for vault, method in ((card, "CreditCard"), (pix, "PIXAutomatic")):
            api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
            seeds.active_vaults[vault] = method
    for index in range(3 * copies):
        method = "Boleto" if index % 3 == 2 else "PIX"
        trade = api.post("/trade/create", builders.direct(method, out_trade_no=f"seed-{index}"), expect=200)
        seeds.trades.append((trade["trade_no"], trade["out_trade_no"]))
        if index % 3 == 0:
            api.post(f"/sandbox/trades/{trade['trade_no']}/pay", expect=200)
    for index in range(copies):
        sent = payout_api.post("/payout", builders.payout(f"seed-po-{index}"), expect=200)["data"]
        seeds.payouts.append((sent["transaction_id"], sent["custom_code"]))
    # The sandbox bank pays them, so that refunds of PAID payouts can be played.
    api.post("/sandbox/clock", {"advance_seconds": 400}, expect=200)
    seeds.deliveries = [d["id"] for d in api.get("/sandbox/deliveries")["deliveries"]][:copies]
    return seeds


# --- field values ----------------------------------------------------------------------------------


def fresh_unix(window: int = 300) -> st.SearchStrategy[int]:
    """Unix seconds near the wall clock, now and then just outside the freshness window."""
    offsets = st.sampled_from([0, 0, 0, -1, 1, -window, window, -window - 30, window + 30, -3600])
    return offsets.map(lambda offset: int(time.time()) + offset)


def timestamp(path: str) -> st.SearchStrategy:
    """A valid `timestamp` for the operation at `path`: payin text, or payout unix seconds near now."""
    if path.startswith("/api/"):
        return fresh_unix(15 if path == "/api/payout/detail" else 300)
    return TIMESTAMPS


TIMESTAMPS = st.sampled_from([builders.TIMESTAMP, "2026-01-01 00:00:00", "2025-02-28 23:59:59"])
AMOUNTS = st.sampled_from(["100.00", "0.01", "10.5", "99999999.99", "1", "250.75", "0.10"])
_serial = itertools.count()


def _numbers(prefix: str) -> st.SearchStrategy[str]:
    """Fresh per draw, so that most requests create something; one in twenty repeats on purpose."""
    return st.integers(0, 19).map(lambda n: f"{prefix}-repeated" if n == 0 else f"{prefix}-{next(_serial)}")


ORDER_NUMBERS = _numbers("st")


def _pick(pool: list) -> st.SearchStrategy:
    return st.sampled_from(pool) if pool else st.just("unknown")


def _payin(body_strategy: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:
    return st.builds(lambda body, timestamp: {"timestamp": timestamp, **body}, body_strategy, TIMESTAMPS)


def _direct(seeds: Seeds) -> st.SearchStrategy[dict]:
    card = st.builds(
        lambda token, no: builders.direct(
            "CreditCard", no, token=token, fingerprint="fp-1", issuer="visa", user_ip="203.0.113.7"
        ),
        _pick(seeds.card_tokens),
        ORDER_NUMBERS,
    )
    local = st.sampled_from(
        [
            ("PIX", {}),
            ("Boleto", {}),
            ("Lottery", {}),
            ("DepositExpress", {"bank": "itau"}),
            ("Wallet", {"channel": "PicPay"}),
            ("Wallet", {"channel": "Yape", "order_currency": "PEN"}),
            ("Cash", {"bank": "oxxo", "order_currency": "MXN"}),
            ("BankTransfer", {"bank": "spei", "order_currency": "MXN"}),
            ("Khipu", {"bank": "banco_de_chile", "order_currency": "CLP", "order_amount": "1500"}),
            ("PIX", {"timeout_express": "1c"}),
            ("Boleto", {"timeout_express": "15d"}),
        ]
    )
    simple = st.builds(
        lambda choice, no, amount: builders.direct(choice[0], no, **{"order_amount": amount, **choice[1]}),
        local,
        ORDER_NUMBERS,
        AMOUNTS,
    )
    return _payin(st.one_of(simple, card))


def _vault_pay(seeds: Seeds) -> st.SearchStrategy[dict]:
    def body(vault: str, no: str, days: int) -> dict:
        method = seeds.active_vaults.get(vault, "CreditCard")
        extra = {}
        if method == "PIXAutomatic":
            extra["scheduled_date"] = (clock.brazil_today() + timedelta(days=days)).isoformat()
        return builders.vault_pay(vault, method, no, **extra)

    return _payin(
        st.builds(
            body,
            _pick(list(seeds.active_vaults) + seeds.pending_vaults),
            ORDER_NUMBERS,
            st.sampled_from([0, 2, 5, 10, 11]),
        )
    )


def _refund(seeds: Seeds) -> st.SearchStrategy[dict]:
    user_info = {
        "user_info": {
            "identify": {"number": builders.CPF, "type": "CPF"},
            "name": "Ana Souza",
            "email": "ana@example.com",
        }
    }
    return _payin(
        st.builds(
            lambda trade, amount, request_no, extra: builders.refund(
                trade[0], amount, out_request_no=request_no, **extra
            ),
            _pick(seeds.trades),
            st.sampled_from(["100.50", "10.00", "0.01", "200.00"]),
            st.sampled_from([None, "r-1", "r-2"]),
            st.sampled_from([{}, user_info]),
        )
    )


def _vault_create(seeds: Seeds) -> st.SearchStrategy[dict]:
    card = st.builds(builders.card_vault, _pick(seeds.card_tokens))
    pix = st.builds(lambda: builders.pix_vault(clock.brazil_today()))
    return _payin(st.one_of(card, pix))


def _payout(seeds: Seeds) -> st.SearchStrategy[dict]:
    variants = st.sampled_from(
        [
            {},
            {"account": builders.EVP, "account_type": "EVP"},
            {"account": "ana@example.com", "account_type": "EMAIL"},
            {"account": "+5511987654321", "account_type": "PHONE"},
            {"email": "rejected@sandbox.test"},
            {
                "method": "BANKTRANSFER",
                "bank_code": "341",
                "branch": "1234",
                "account": "123456",
                "account_digit": "7",
                "account_type": "CHECKING",
            },
            {"method": "QRCODE", "account": BR_CODE, "account_type": ...},
            {
                "country": "MEX",
                "method": "SPEI",
                "arrival_currency": "MXN",
                "account": builders.CLABE,
                "account_type": ...,
                "document_id": ...,
                "document_type": ...,
                "phone": "+5215512345678",
            },
            {"country": "MEX", "method": "CASH", "arrival_currency": "MXN", "phone": "+5215512345678"},
            {
                "country": "COL",
                "method": "CASHOUT",
                "arrival_currency": "COP",
                "phone": "+573001234567",
                "document_id": "1234567890",
                "document_type": "CC",
            },
            {
                "country": "CHL",
                "method": "BANKTRANSFER",
                "arrival_currency": "CLP",
                "bank_code": "012",
                "account": "12345678",
                "account_type": "VISTA",
                "document_id": CHILE_RUT,
                "document_type": "RUT",
            },
            {
                "country": "GLOBAL",
                "method": "WALLET",
                "channel": "PAYPAL",
                "arrival_currency": "USD",
                "account": "ana@example.com",
            },
            {"source_currency": "BRL", "amount_type": "arrival"},
            {"fee_bear": "beneficiary"},
        ]
    )
    return st.builds(
        lambda variant, code, amount, timestamp: builders.payout(
            code, **{"amount": amount, "timestamp": timestamp, **variant}
        ),
        variants,
        _numbers("st-po"),
        AMOUNTS,
        fresh_unix(),
    )


def _dry_run() -> st.SearchStrategy[dict]:
    variants = st.sampled_from(
        [
            {},
            {"arrival_currency": "MXN", "method": "SPEI", "country": "MEX"},
            {"arrival_currency": "COP", "method": "CASHOUT", "country": "COL"},
            {"arrival_currency": "USD", "method": "WALLET", "country": "GLOBAL", "channel": "PAYPAL"},
            {"amount_type": "arrival", "fee_bear": "beneficiary", "source_currency": "EUR"},
        ]
    )
    return st.builds(
        lambda variant, amount, timestamp: builders.dry_run(**{"amount": amount, "timestamp": timestamp, **variant}),
        variants,
        AMOUNTS,
        fresh_unix(),
    )


def _checkout() -> st.SearchStrategy[dict]:
    variants = st.sampled_from(
        [
            {},
            {"country": ..., "method": ...},
            {"payout_currency": "MXN", "country": "MEX", "method": "SPEI"},
            {"timeout": 60},
            {"method": "external wallet", "payout_currency": "USD", "country": "GLOBAL"},
        ]
    )
    return st.builds(
        lambda variant, code, timestamp: builders.checkout_session(code, **{"timestamp": timestamp, **variant}),
        variants,
        _numbers("st-co"),
        fresh_unix(),
    )


def _balance_history() -> st.SearchStrategy[dict]:
    def body(start: int, length: int, timestamp: int) -> dict:
        first = clock.now().date() - timedelta(days=start)
        return {
            "start_date": first.isoformat(),
            "end_date": (first + timedelta(days=length)).isoformat(),
            "timestamp": timestamp,
        }

    return st.builds(body, st.integers(-2, 400), st.integers(-1, 370), fresh_unix())


def _payout_list() -> st.SearchStrategy[dict]:
    def body(start_hours: int, length_hours: int, page_num: int, page_size: int, timestamp: int) -> dict:
        first = clock.now() - timedelta(hours=start_hours)
        return {
            "start_time": first.strftime("%Y-%m-%d %H:%M:%S"),
            "end_time": (first + timedelta(hours=length_hours)).strftime("%Y-%m-%d %H:%M:%S"),
            "page_num": page_num,
            "page_size": page_size,
            "timestamp": timestamp,
        }

    return st.builds(
        body,
        st.integers(-2, 800),
        st.integers(-1, 750),
        st.sampled_from([1, 1, 2, 3, 1000]),
        st.sampled_from([1, 5, 10, 1000, 1001]),
        fresh_unix(),
    )


def valid_bodies(seeds: Seeds) -> dict[tuple[str, str], st.SearchStrategy[dict]]:
    """(method, path) -> bodies a merchant would send; app_id is filled in by the caller."""
    payouts, trades = seeds.payouts or [("unknown", "unknown")], seeds.trades or [("unknown", "unknown")]
    return {
        ("POST", "/card/token"): _payin(
            st.builds(
                lambda number, year, month: builders.card(
                    number,
                    card={
                        "cvv": "1234" if number.startswith("3") else "123",
                        "valid_thru_year": year,
                        "valid_thru_month": month,
                    },
                ),
                st.sampled_from(CARDS),
                st.sampled_from(["2031", "31", 2031, "2020"]),
                st.sampled_from(["12", 1, "13"]),
            )
        ),
        ("POST", "/card/session"): _payin(
            st.fixed_dictionaries({}, optional={"country": st.sampled_from(["BRA", "MEX", "USA"])})
        ),
        ("POST", "/trade/pre-authorization"): _payin(
            st.builds(
                lambda token, no, code: builders.pre_authorization(token, no, threeds={"status_code": code}),
                _pick(seeds.card_tokens),
                ORDER_NUMBERS,
                st.sampled_from("YANRUCDI"),
            )
        ),
        ("POST", "/trade/pay"): st.one_of(_direct(seeds), _vault_pay(seeds)),
        ("POST", "/trade/create"): _direct(seeds),
        ("POST", "/trade/refund"): _refund(seeds),
        ("POST", "/trade/query"): _payin(
            st.one_of(
                st.sampled_from(trades).map(lambda t: {"trade_no": t[0]}),
                st.sampled_from(trades).map(lambda t: {"out_trade_no": t[1]}),
            )
        ),
        ("POST", "/trade/bank-list"): _payin(
            st.fixed_dictionaries({"method": st.sampled_from(["DepositExpress", "Cash", "BankTransfer", "Khipu"])})
        ),
        ("POST", "/vault/create"): _vault_create(seeds),
        ("POST", "/vault/void"): _payin(
            st.builds(
                lambda token: {"version": "2.0", "type": "Card", "vault_token": token},
                _pick(list(seeds.active_vaults) + seeds.pending_vaults),
            )
        ),
        ("POST", "/api/payout/dry-run"): _dry_run(),
        ("POST", "/api/payout"): _payout(seeds),
        ("POST", "/api/payout/status"): st.one_of(
            st.sampled_from(payouts).map(lambda p: {"payout_id": p[0]}),
            st.sampled_from(payouts).map(lambda p: {"custom_code": p[1]}),
        ),
        ("POST", "/api/payout/detail"): st.builds(
            lambda p, timestamp: {"transaction_id": p[0], "timestamp": timestamp},
            st.sampled_from(payouts),
            fresh_unix(window=15),
        ),
        ("POST", "/api/checkout"): _checkout(),
        ("POST", "/api/balance/history"): _balance_history(),
        ("POST", "/api/payout/list"): _payout_list(),
        ("POST", "/api/balance"): fresh_unix().map(lambda timestamp: {"timestamp": timestamp}),
        ("POST", "/sandbox/clock"): st.fixed_dictionaries({"advance_seconds": st.sampled_from([0, 1, 60, 86400])}),
        ("POST", "/sandbox/payouts/{transaction_id}/refund"): st.fixed_dictionaries(
            {}, optional={"amount": st.sampled_from(["1.00", "10", "537.30", "100000.00"])}
        ),
    }


def path_values(seeds: Seeds) -> dict[str, dict[str, st.SearchStrategy[str]]]:
    """Path -> parameter name -> ids of seeded objects (approve and reject get separate pending vaults)."""
    half = len(seeds.pending_vaults) // 2
    vaults = seeds.pending_vaults + list(seeds.active_vaults)
    return {
        "/sandbox/trades/{trade_no}/pay": {"trade_no": _pick([t[0] for t in seeds.trades])},
        "/sandbox/vaults/{vault_token}/approve": {"vault_token": _pick(vaults[:half] + vaults[-2:])},
        "/sandbox/vaults/{vault_token}/reject": {"vault_token": _pick(vaults[half:])},
        "/sandbox/payouts/{transaction_id}/refund": {"transaction_id": _pick([p[0] for p in seeds.payouts])},
        "/sandbox/deliveries/{delivery_id}/resend": {"delivery_id": _pick(seeds.deliveries)},
    }
