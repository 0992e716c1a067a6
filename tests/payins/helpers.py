"""What the payin tests share: racing threads, a hosted checkout, valid country payments."""

from __future__ import annotations

import threading

from tests import builders
from tests.conftest import Api

THREADS = 8


def race(app, credentials: dict, path: str | list[str], bodies: list[dict]) -> list[dict]:
    """Send the bodies at once, one thread each, released together by a barrier (to one path, or each
    to its own)."""
    paths = [path] * len(bodies) if isinstance(path, str) else path
    barrier = threading.Barrier(len(bodies))
    answers: list = [None] * len(bodies)

    def send(index: int) -> None:
        api = Api(app.test_client(), credentials)
        barrier.wait()
        answers[index] = api.post(paths[index], bodies[index])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def hosted(**overrides) -> dict:
    """The provider's checkout-page example (payin/checkout-page/general.md), as a merchant sends it."""
    return builders.merge(
        {
            "charset": "UTF-8",
            "out_trade_no": "202201010354002",
            "order_currency": "BRL",
            "order_amount": "12.01",
            "subject": "item name",
            "content": "item description",
            "trade_type": "WEB",
            "timeout_express": "1d",
            "notify_url": builders.NOTIFY,
            "buyer_id": "buyer_0101_0001",
            "version": "2.0",
            "customer": {
                "identify": {"type": "CPF", "number": "50284414727"},
                "name": "Test User Name",
                "email": "test@pagsmile.com",
            },
            "regions": ["BRA"],
            "address": {"zip_code": "38082365"},
        },
        overrides,
    )


# A customer of each country, as the provider's sandbox test data has them (data-for-test-sandbox.md).
MEXICAN = {"customer": {"identify": {"type": "RFC", "number": "MAMB780915969"}}}


COLOMBIAN = {"customer": {"identify": {"type": "CC", "number": "123412312"}}}


CHILEAN = {"customer": {"identify": {"type": "RUT", "number": "36987747K"}}}


PERUVIAN = {"customer": {"identify": {"type": "RUC", "number": "50284414727"}}}


# method, overrides of a valid payment, the fields it answers beside web_url ("" on /trade/pay)
VALID = {
    "SPEI": ({"order_currency": "MXN", **MEXICAN}, ["pay_url", "reference", "clabe", "bank_name"]),
    "CoDi": ({"order_currency": "MXN", **MEXICAN}, ["prepay_id", "qr_code", "reference", "pay_url", "qr_code_img"]),
    "OXXO": ({"order_currency": "MXN", **MEXICAN}, ["barcode", "pay_url"]),
    "OXXOPay": ({"order_currency": "MXN", **MEXICAN}, ["prepay_id", "barcode", "pay_url"]),
    "Cash MXN": ({"method": "Cash", "order_currency": "MXN", **MEXICAN}, ["pay_url", "reference"]),
    "PSE": ({"order_currency": "COP", "order_amount": "3000", **COLOMBIAN}, ["pay_url"]),
    "Efecty": ({"order_currency": "COP", "order_amount": "3000", **COLOMBIAN}, ["pay_url", "reference"]),
    "Bancolombia": (
        {"order_currency": "COP", "order_amount": "5000", **COLOMBIAN},
        ["pay_url", "reference", "partner_code"],
    ),
    "SuRed": (
        {"order_currency": "COP", "order_amount": "3000", **COLOMBIAN},
        ["prepay_id", "pay_url", "partner_code", "reference"],
    ),
    "Gana": (
        {"order_currency": "COP", "order_amount": "3000", **COLOMBIAN},
        ["prepay_id", "pay_url", "partner_code", "reference"],
    ),
    "WebPay": ({"order_currency": "CLP", "order_amount": "2500", **CHILEAN}, ["pay_url"]),
    "Pago46": ({"order_currency": "CLP", "order_amount": "2500", **CHILEAN}, ["pay_url"]),
    "BankTransfer CLP": (
        {"method": "BankTransfer", "order_currency": "CLP", "order_amount": "2500", **CHILEAN},
        ["pay_url"],
    ),
    "Cash CLP": (
        {"method": "Cash", "order_currency": "CLP", "order_amount": "2500", **CHILEAN},
        ["pay_url", "reference"],
    ),
    "BankTransfer PEN": ({"method": "BankTransfer", "order_currency": "PEN", **PERUVIAN}, ["pay_url", "reference"]),
    "Cash PEN": (
        {"method": "Cash", "order_currency": "PEN", "order_amount": "100", **PERUVIAN},
        ["pay_url", "reference"],
    ),
    "OpenFinance": ({"bank": "75e2b9f4-4f60-4d07-916c-fde1163d43bc"}, ["pay_url"]),
}


def payment(case: str, **more) -> dict:
    overrides, _ = VALID[case]
    overrides = {"method": case, **overrides, **more}
    return builders.direct(overrides.pop("method"), **overrides)
