"""Request bodies a merchant would send, with valid defaults that each test overrides."""

from __future__ import annotations

import copy
import time
from datetime import date

TIMESTAMP = "2026-11-21 10:00:00"
CPF = "39053344705"
CNPJ = "16727230000197"
APPROVED_CARD = "4111111111111111"
DECLINED_CARD = "4000000000000119"
INSUFFICIENT_FUNDS_CARD = "4000000000009995"
NOTIFY = "http://127.0.0.1:9/notify"  # nothing listens: deliveries fail fast, no DNS


def merge(base: dict, overrides: dict) -> dict:
    """Deep-merge overrides into a copy of base; a value of ... removes the key."""
    result = copy.deepcopy(base)
    for key, value in overrides.items():
        if value is ...:
            result.pop(key, None)
        elif isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merge(result[key], value)
        else:
            result[key] = value
    return result


def card(card_no: str = APPROVED_CARD, **overrides) -> dict:
    return merge(
        {
            "card": {
                "card_no": card_no,
                "cvv": "123",
                "valid_thru_year": "2031",
                "valid_thru_month": "12",
                "holder": {"name": "Ana Souza"},
            }
        },
        overrides,
    )


def threeds(**overrides) -> dict:
    return merge(
        {
            "sli": "05",
            "status": "Authenticated",
            "liability_shift": "Y",
            "status_reason_code": "01",
            "status_code": "Y",
            "eci": "05",
            "cavv": "AAABBEg0VhI0VniQEjRWAAAAAAA=",
            "version": "2.2.0",
            "acs_trans_id": "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
            "ds_trans_id": "2a29b9d1-f8c3-4b13-8a8b-7a3cbbdb1f4b",
        },
        overrides,
    )


def pre_authorization(token: str, out_trade_no: str = "pre-1", **overrides) -> dict:
    return merge(
        {
            "buyer_id": "buyer-1",
            "format": "JSON",
            "notify_url": NOTIFY,
            "order_amount": "150.00",
            "order_currency": "BRL",
            "out_trade_no": out_trade_no,
            "subject": "Hotel booking",
            "version": "2.0",
            "token": token,
            "method": "CreditCard",
            "trade_type": "API",
            "issuer": "visa",
            "threeds": threeds(),
        },
        overrides,
    )


def customer(**overrides) -> dict:
    return merge(
        {
            "customer": {
                "name": "Ana Souza",
                "email": "ana@example.com",
                "phone": "+5511987654321",
                "identify": {"number": CPF, "type": "CPF"},
            },
            "address": {
                "zip_code": "01310100",
                "state": "SP",
                "city": "São Paulo",
                "street_number": "1000",
                "street": "Avenida Paulista",
                "neighborhood": "Bela Vista",
            },
        },
        overrides,
    )


def direct(method: str | None = "PIX", out_trade_no: str = "order-1", **overrides) -> dict:
    body = {
        "out_trade_no": out_trade_no,
        "order_currency": "BRL",
        "order_amount": "100.50",
        "subject": "Order 1",
        "notify_url": NOTIFY,
        "buyer_id": "buyer-1",
        **customer(),
    }
    if method is not None:
        body["method"] = method
    return merge(body, overrides)


def card_vault(token: str, **overrides) -> dict:
    return merge(
        {
            "version": "2.0",
            "type": "Card",
            "card_token": {
                "region": "BRA",
                "method": "CreditCard",
                "uid": "user-1",
                "token": token,
                "notify_url": NOTIFY,
            },
        },
        overrides,
    )


def pix_vault(start: date, end: date | None = None, **overrides) -> dict:
    end = end or date(start.year + 1, start.month, min(start.day, 28))
    return merge(
        {
            "version": "2.0",
            "type": "pix",
            "notify_url": NOTIFY,
            "pix": {
                "region": "BRA",
                "method": "PIXAutomatic",
                "uid": "user-1",
                "plan": {
                    "internal": "1M",
                    "start_date": start.isoformat(),
                    "end_date": end.isoformat(),
                    "minimum_amount": "10.00",
                    "maximum_amount": "200.00",
                },
                "customer": {"identification": {"type": "CPF", "number": CPF}, "name": "Ana Souza"},
            },
        },
        overrides,
    )


def vault_pay(vault_token: str, method: str = "CreditCard", out_trade_no: str = "vault-order-1", **overrides) -> dict:
    return merge(
        {
            "out_trade_no": out_trade_no,
            "method": method,
            "notify_url": NOTIFY,
            "subject": "Monthly plan",
            "order_amount": "49.90",
            "order_currency": "BRL",
            "buyer_id": "buyer-1",
            "vault_token": vault_token,
        },
        overrides,
    )


def refund(trade_no: str, amount: str, **overrides) -> dict:
    return merge({"trade_no": trade_no, "refund_currency": "BRL", "refund_amount": amount}, overrides)


# --- payouts -----------------------------------------------------------------------------------------

CLABE = "002010077777777771"  # Banamex's published example
EVP = "123e4567-e12b-12d1-a456-426655440000"


def now_unix() -> int:

    return int(time.time())


def dry_run(**overrides) -> dict:
    return merge(
        {
            "source_currency": "USD",
            "arrival_currency": "BRL",
            "amount": "100.00",
            "amount_type": "source_amount",
            "fee_bear": "merchant",
            "method": "PIX",
            "country": "BRA",
            "timestamp": now_unix(),
        },
        overrides,
    )


def payout(custom_code: str = "po-1", **overrides) -> dict:
    return merge(
        {
            "name": "Ana Souza",
            "phone": "+5511987654321",
            "email": "ana@example.com",
            "account": CPF,
            "account_type": "CPF",
            "document_id": CPF,
            "document_type": "CPF",
            "method": "PIX",
            "custom_code": custom_code,
            "fee_bear": "merchant",
            "amount": "100.00",
            "amount_type": "source_amount",
            "source_currency": "USD",
            "arrival_currency": "BRL",
            "notify_url": NOTIFY,
            "country": "BRA",
            "additional_remark": "salary",
        },
        overrides,
    )


def spei_payout(custom_code: str = "po-mx", **overrides) -> dict:
    return payout(
        custom_code,
        **merge(
            {
                "country": "MEX",
                "method": "SPEI",
                "arrival_currency": "MXN",
                "account": CLABE,
                "account_type": ...,
                "document_id": ...,
                "document_type": ...,
                "phone": "+5215512345678",
            },
            overrides,
        ),
    )


def checkout_session(custom_code: str = "co-1", **overrides) -> dict:
    return merge(
        {
            "user_id": "user-1",
            "custom_code": custom_code,
            "fee_bear": "merchant",
            "source_currency": "USD",
            "payout_currency": "BRL",
            "payout_amount": "500.00",
            "notify_url": NOTIFY,
            "return_url": "https://shop.example/back",
            "additional_remark": "withdrawal",
            "country": "BRA",
            "method": "PIX",
        },
        overrides,
    )
