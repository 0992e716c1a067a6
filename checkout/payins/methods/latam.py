"""Local methods of Mexico, Colombia, Chile, Peru (and Brazil's OpenFinance) as the provider's pages document them."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass
from decimal import Decimal

from ... import clock
from ...brazil import qrimage
from ...brazil.documents import brazilian_document
from ...errors import InvalidField
from ...links import Links
from ...mexico import clabe
from ..commands import DirectPayment
from ..models import Trade

# The identity documents each country's pages name, and the form each takes ("only send alphanumeric
# values": a RUT's check digit may be K). Brazil's are checked by their own check digits.
DOCUMENTS: dict[str, re.Pattern[str]] = {
    "RFC": re.compile(r"[A-Za-z0-9&]{13}"),  # "RFC: 13 chars"
    "CURP": re.compile(r"[A-Za-z0-9]{18}"),  # "CURP: 18 chars"
    "NIT": re.compile(r"[0-9]{10}"),  # "NIT: 10 digits"
    "CC": re.compile(r"[0-9]{6,10}"),  # "CC: 6~10 digits"
    "RUT": re.compile(r"[0-9]{7,8}[0-9Kk]"),  # "9 digits", K allowed
    "RUN": re.compile(r"[0-9]{7,8}[0-9Kk]"),
    "RUT/RUN": re.compile(r"[0-9]{7,8}[0-9Kk]"),  # the type the Pago46 and Cash examples send
    "DNI": re.compile(r"[0-9]{8}"),  # "DNI: 8 digits"
    "RUC": re.compile(r"[0-9]{11}"),  # "RUC: 11 digits"
}
MEXICO, COLOMBIA, CHILE, PERU, BRAZIL = (
    ("RFC", "CURP"),
    ("NIT", "CC"),
    ("RUT", "RUN", "RUT/RUN"),
    ("DNI", "RUC"),
    ("CPF", "CNPJ"),
)

# The sandbox's SPEI collection account: STP (646), plaza 180; each trade gets its own CLABE.
SPEI_BANK, SPEI_PLAZA = "646", "180"


@dataclass(frozen=True)
class Variant:
    """One method in one currency, from its provider page: limits, documents, and what it answers
    (besides code, msg, trade_no, out_trade_no, web_url and trade_status), in the page's order."""

    method: str
    currency: str
    country: str
    minimum: str
    maximum: str
    documents: tuple[str, ...]
    answer: tuple[str, ...]
    integer: bool = False  # "Only Integer"
    reference_digits: int = 8
    partner_code: str = ""
    bank: bool = False  # a bank_id from the bank list is required (Khipu, OpenFinance)


VARIANTS: tuple[Variant, ...] = (
    Variant("OpenFinance", "BRL", "BRA", "0.1", "20000", BRAZIL, ("pay_url",), bank=True),
    # Mexico
    Variant("SPEI", "MXN", "MEX", "8", "400000", MEXICO, ("pay_url", "reference", "clabe", "bank_name"), reference_digits=7),
    Variant("CoDi", "MXN", "MEX", "0.1", "8000", MEXICO, ("prepay_id", "qr_code", "reference", "pay_url"), reference_digits=7),
    Variant("OXXOPay", "MXN", "MEX", "10", "9999", MEXICO, ("prepay_id", "barcode", "pay_url")),
    Variant("OXXO", "MXN", "MEX", "8", "9999", MEXICO, ("barcode", "pay_url")),
    Variant("Cash", "MXN", "MEX", "8", "10000", MEXICO, ("pay_url", "reference"), reference_digits=14),
    # Colombia
    Variant("PSE", "COP", "COL", "1000", "3000000", COLOMBIA, ("pay_url",), integer=True),
    Variant("Efecty", "COP", "COL", "1", "3000000", COLOMBIA, ("pay_url", "reference"), integer=True),
    Variant("Bancolombia", "COP", "COL", "5000", "3000000", COLOMBIA, ("pay_url", "reference", "partner_code"), integer=True, reference_digits=11, partner_code="54245"),
    Variant("SuRed", "COP", "COL", "1000", "3000000", COLOMBIA, ("prepay_id", "pay_url", "partner_code", "reference"), integer=True, partner_code="PAYVALIDA"),
    Variant("Gana", "COP", "COL", "1000", "3000000", COLOMBIA, ("prepay_id", "pay_url", "partner_code", "reference"), integer=True, partner_code="260"),
    # Chile (CLP has no minor unit: every amount is whole)
    Variant("WebPay", "CLP", "CHL", "1", "1000000", CHILE, ("pay_url",), integer=True),
    # Khipu's documents are not checked: Khipu was served before, with any customer document.
    Variant("Khipu", "CLP", "CHL", "1", "250000", (), ("pay_url",), integer=True, bank=True),
    Variant("Pago46", "CLP", "CHL", "1500", "999999", CHILE, ("pay_url",), integer=True),
    Variant("BankTransfer", "CLP", "CHL", "1", "250000", CHILE, ("pay_url",), integer=True),
    Variant("Cash", "CLP", "CHL", "500", "999999", CHILE, ("pay_url", "reference"), integer=True, reference_digits=9),
    # Peru
    Variant("BankTransfer", "PEN", "PER", "5", "50000", PERU, ("pay_url", "reference"), reference_digits=6),
    Variant("Cash", "PEN", "PER", "5", "1000", PERU, ("pay_url", "reference"), reference_digits=6),
)  # fmt: skip

# Other spellings of a method's name in the provider's pages (the WebPay example; the summary's "Webpay").
ALIASES = {"webpay": "WebPay"}


def variant(method: str, currency: str) -> Variant | None:
    return next((v for v in VARIANTS if v.method == method and v.currency == currency), None)


def variants(method: str) -> list[Variant]:
    return [v for v in VARIANTS if v.method == method]


def check_amount(amount: Decimal, currency: str, what: str, minimum: str | None, maximum: str | None, integer: bool):
    """The page's amount rules: whole numbers where it says "Only Integer", within its limits."""
    if integer and amount != amount.to_integral_value():
        raise InvalidField("order_amount", f"must be a whole number of {currency} for {what}")
    if minimum is not None and maximum is not None and not Decimal(minimum) <= amount <= Decimal(maximum):
        raise InvalidField("order_amount", f"must be {minimum} to {maximum} {currency} for {what}")


def check_document(req: DirectPayment, v: Variant) -> None:
    if not v.documents:
        return
    identify = req.customer.identify
    kind = identify.type.upper()
    if kind not in v.documents:
        raise InvalidField(
            "customer.identify.type", f"must be {' or '.join(v.documents)} for {v.method} ({v.currency})"
        )
    if kind in ("CPF", "CNPJ"):
        valid = brazilian_document(kind, identify.number)
    else:
        valid = identify.number.isascii() and DOCUMENTS[kind].fullmatch(identify.number) is not None
    if not valid:
        raise InvalidField("customer.identify.number", f"must be a valid {kind}")


def check(req: DirectPayment, v: Variant) -> None:
    """Everything the variant's page asks of a request, after its currency (which chose it)."""
    check_document(req, v)
    check_amount(req.order_amount, v.currency, v.method, v.minimum, v.maximum, v.integer)


# --- what each answers -----------------------------------------------------------------------------


def _digits(trade: Trade, n: int) -> str:
    """n digits of the trade's number (its last ten are random), left-padded from its timestamp."""
    return trade.trade_no[-n:]


def _codi_code(trade: Trade) -> str:
    """A CoDi message as the provider's example shapes it (JSON text): type 20, device, payment id, data."""
    data = base64.b64encode(f"{trade.trade_no}|{trade.amount_minor}|{trade.currency}".encode()).decode()
    return json.dumps(
        {
            "TYP": 20,
            "v": {"DEV": f"{_digits(trade, 20)}/0"},
            "ic": {"IDC": _digits(trade, 10), "SER": int(_digits(trade, 7)), "ENC": data},
            "CRY": base64.b64encode(hashlib.sha256(data.encode()).digest()).decode(),
        },
        separators=(",", ":"),
    )


def field(name: str, trade: Trade, links: Links, v: Variant | None = None) -> str:
    """One answer field of a local method or wallet, made from the trade (nothing outside is reached)."""
    if name == "pay_url":
        return links.pay_page(trade.trade_no)
    if name == "prepay_id":
        return trade.prepay_id or ""
    if name == "reference":
        return _digits(trade, v.reference_digits if v else 8)
    if name == "clabe":
        return clabe.build(SPEI_BANK, SPEI_PLAZA, _digits(trade, 11))
    if name == "bank_name":
        return clabe.BANKS[SPEI_BANK]
    if name == "partner_code":
        return v.partner_code if v else ""
    if name == "barcode":  # OXXO's 26 digits: issuer prefix, the trade, the amount in cents
        return f"8864465{_digits(trade, 10)}{trade.amount_minor % 10**9:09d}"
    if name == "qr_code":
        return _codi_code(trade)
    if name == "qr_code_img":
        return qrimage.data_uri(links.pay_page(trade.trade_no))
    if name == "due_date":
        return clock.format_utc(trade.expires_at) if trade.expires_at else ""
    raise ValueError(f"no answer field {name}")


def present(trade: Trade, links: Links, v: Variant) -> dict:
    return {name: field(name, trade, links, v) for name in v.answer}
