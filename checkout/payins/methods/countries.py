"""The provider's country pages of /trade/pay (beyond Brazil's PIX, Boleto, Lottery and DepositExpress, and the
wallets): one row per page and currency, with the rules each page states for a request."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from ...brazil.documents import brazilian_document
from ...errors import InvalidField, MissingField
from ..schemas import DirectPayment

# The identity documents each country's pages name, and the form each takes ("only send alphanumeric values":
# a RUT's check digit may be K). Where two pages of a country disagree, both forms are taken (Guatemala's DPI:
# 9 digits on the bank transfer page, 13 on the cash page). Brazil's are checked by their own check digits.
_RUT = r"[0-9]{7,8}[0-9Kk]"
_CUIT = r"[0-9]{11}"
COUNTRY_DOCUMENTS: dict[str, dict[str, str]] = {
    "MEX": {"RFC": r"[A-Za-z0-9&]{13}", "CURP": r"[A-Za-z0-9]{18}"},
    "COL": {"NIT": r"[0-9]{10}", "CC": r"[0-9]{6,10}"},
    "CHL": {"RUT": _RUT, "RUN": _RUT, "RUT/RUN": _RUT},  # RUT/RUN: the type the Pago46 and Cash examples send
    "PER": {"DNI": r"[0-9]{8}", "RUC": r"[0-9]{11}"},
    "BRA": {"CPF": "", "CNPJ": ""},
    "ARG": {"DNI": r"[0-9]{8}", "CUIT": _CUIT, "CUIL": _CUIT, "CDI": _CUIT, "CD": _CUIT},  # "8 digits or 11 digits", "CUIT/CUIL/CD(I)"
    "BOL": {"CI": r"[0-9]{7,10}|[0-9]{7} ?[A-Za-z]{2}|[A-Za-z]{2} ?[0-9]{7}", "CE": r"[0-9]{8}", "NIT": r"[0-9]{9,12}"},
    "CRI": {"ID": r"[0-9]{9}", "CDI": r"[0-9]{9}"},
    "ECU": {"CI": r"[0-9]{8,10}"},
    "SLV": {"DUI": r"[0-9]{9}"},
    "GTM": {"DPI": r"[0-9]{9}|[0-9]{13}", "CUI": r"[0-9]{13}", "NIT": r"[0-9]{7,11}"},
    "PAN": {"CIP": r"[0-9]{6}", "RUC": r"[0-9A-Za-z-]{5,20}", "PASS": r"[0-9A-Za-z]{5,20}", "CE": r"[0-9A-Za-z-]{5,20}"},
    "PRY": {"CI": r"[0-9]{7}", "RUC": r"[0-9]{8,9}|[0-9]{7,8}-[0-9]"},
    "URY": {"CI": r"[0-9]{8}", "RUT": r"[0-9]{12}"},
}  # fmt: skip
MEXICO, COLOMBIA, CHILE, PERU, BRAZIL = (
    ("RFC", "CURP"),
    ("NIT", "CC"),
    ("RUT", "RUN", "RUT/RUN"),
    ("DNI", "RUC"),
    ("CPF", "CNPJ"),
)
ARGENTINA = ("DNI", "CUIT", "CUIL", "CDI", "CD")


@dataclass(frozen=True)
class Account:
    """The payer's own bank account, where a page asks for it (`account_number`, `account_type`)."""

    number: str  # the form of account_number
    types: tuple[str, ...] = ()  # the account_type values taken (any case); () = not asked
    required: bool = True  # account_number
    type_required: bool = False
    bank_prefix: bool = False  # Argentina: "the first three digits of the account number must be the bank code"


@dataclass(frozen=True)
class Variant:
    """One method in one currency (and country), from its provider page: limits, documents, and what it answers
    (besides code, msg, trade_no, out_trade_no, web_url and trade_status), in the page's order."""

    method: str
    currency: str
    country: str
    minimum: str | None
    maximum: str | None
    documents: tuple[str, ...]
    answer: tuple[str, ...]
    integer: bool = False  # "Only Integer"
    reference_digits: int = 8
    partner_code: str = ""
    bank: bool = False  # a bank_id from the bank list is required
    language_code: bool = False  # and the bank's language_code
    account: Account | None = None
    barcode: tuple[str, int] = ("", 0)  # the voucher's bar code: its issuer prefix and length
    formats: tuple[tuple[str, str], ...] = ()  # a page's own form of a document, over its country's
    # How long an unpaid voucher stays payable without timeout_express: the payment-method summary's "Expire
    # Time" ("Users need to pay within 5 days"); "" where it states none (timeout_express's 90m).
    validity: str = ""

    def document_form(self, kind: str) -> str:
        return dict(self.formats).get(kind) or COUNTRY_DOCUMENTS[self.country][kind]


_OXXO = ("8864465", 26)
_ARG_VOUCHER = ("3335008", 25)
_ARG_ACCOUNT = Account(r"[0-9]{3,22}", ("C", "S"), type_required=True, bank_prefix=True)  # "Max 22 digits"
_CHECKING_SAVINGS = ("CHECKING", "SAVINGS", "C", "S")
_ONE_OF = ("CHECKING", "SAVINGS")  # "One of: SAVINGS, CHECKING", required (Bolivia, Paraguay, Uruguay)

VARIANTS: tuple[Variant, ...] = (
    Variant("OpenFinance", "BRL", "BRA", "0.1", "20000", BRAZIL, ("pay_url",), bank=True),
    # Mexico
    Variant("SPEI", "MXN", "MEX", "8", "400000", MEXICO, ("pay_url", "reference", "clabe", "bank_name"), reference_digits=7),
    Variant("CoDi", "MXN", "MEX", "0.1", "8000", MEXICO, ("prepay_id", "qr_code", "reference", "pay_url"), reference_digits=7),
    Variant("OXXOPay", "MXN", "MEX", "10", "9999", MEXICO, ("prepay_id", "barcode", "pay_url"), barcode=_OXXO, validity="5d"),
    Variant("OXXO", "MXN", "MEX", "8", "9999", MEXICO, ("barcode", "pay_url"), barcode=_OXXO, validity="5d"),
    Variant("Cash", "MXN", "MEX", "8", "10000", MEXICO, ("pay_url", "reference"), reference_digits=14, validity="1d"),
    # Colombia
    Variant("PSE", "COP", "COL", "1000", "3000000", COLOMBIA, ("pay_url",), integer=True),
    Variant("Efecty", "COP", "COL", "1", "3000000", COLOMBIA, ("pay_url", "reference"), integer=True, validity="1d"),
    Variant("Bancolombia", "COP", "COL", "5000", "3000000", COLOMBIA, ("pay_url", "reference", "partner_code"), integer=True, reference_digits=11, partner_code="54245", validity="7d"),
    Variant("SuRed", "COP", "COL", "1000", "3000000", COLOMBIA, ("prepay_id", "pay_url", "partner_code", "reference"), integer=True, partner_code="PAYVALIDA", validity="7d"),
    Variant("Gana", "COP", "COL", "1000", "3000000", COLOMBIA, ("prepay_id", "pay_url", "partner_code", "reference"), integer=True, partner_code="260", validity="7d"),
    Variant("Baloto", "COP", "COL", "5000", "1000000", COLOMBIA, ("prepay_id", "pay_url", "reference"), integer=True, formats=(("NIT", r"[0-9]{9,10}"),)),  # "9 digits"
    # Chile (CLP has no minor unit: every amount is whole)
    Variant("WebPay", "CLP", "CHL", "1", "1000000", CHILE, ("pay_url",), integer=True),
    # Khipu's documents are not checked: Khipu was served before, with any customer document.
    Variant("Khipu", "CLP", "CHL", "1", "250000", (), ("pay_url",), integer=True, bank=True),
    Variant("Pago46", "CLP", "CHL", "1500", "999999", CHILE, ("pay_url",), integer=True),
    Variant("BankTransfer", "CLP", "CHL", "1", "250000", CHILE, ("pay_url",), integer=True),
    Variant("Cash", "CLP", "CHL", "500", "999999", CHILE, ("pay_url", "reference"), integer=True, reference_digits=9, validity="2d"),
    # Peru
    Variant("BankTransfer", "PEN", "PER", "5", "50000", PERU, ("pay_url", "reference"), reference_digits=6),
    Variant("Cash", "PEN", "PER", "5", "1000", PERU, ("pay_url", "reference"), reference_digits=6, validity="4d"),
    # "DNI or RUC - 13 digits -", and its example's RUC has 13
    Variant("PagoEfectivo", "PEN", "PER", "1", "5500", PERU, ("prepay_id", "pay_url", "reference"), reference_digits=7, formats=(("DNI", r"[0-9]{8}|[0-9]{13}"), ("RUC", r"[0-9]{11}|[0-9]{13}"))),
    # Argentina
    Variant("Khipu", "ARS", "ARG", "50", "1257000", ARGENTINA, ("prepay_id", "pay_url"), bank=True),
    Variant("BankTransfer", "ARS", "ARG", "1", "1000000", ("CUIT", "CUIL", "CDI"), ("prepay_id", "pay_url", "reference", "instruction"), reference_digits=10, bank=True, account=_ARG_ACCOUNT),
    Variant("PagoFacil", "ARS", "ARG", "50", "200000", ARGENTINA, ("reference", "barcode", "prepay_id"), reference_digits=10, barcode=_ARG_VOUCHER),
    Variant("Rapipago", "ARS", "ARG", "50", "200000", ARGENTINA, ("reference", "barcode", "prepay_id"), reference_digits=10, barcode=_ARG_VOUCHER),
    # Bolivia, Paraguay, Uruguay: a transfer from the payer's account, to the bank details of `instruction`
    Variant("BankTransfer", "BOB", "BOL", "1", "1000000", ("CI", "CE", "NIT"), ("pay_url", "reference", "instruction"), reference_digits=10, bank=True, account=Account(r"[0-9]{7,14}", _ONE_OF, type_required=True)),
    Variant("BankTransfer", "PYG", "PRY", "1", "5000000", ("CI", "RUC"), ("pay_url", "reference", "instruction"), integer=True, reference_digits=10, bank=True, account=Account(r"[0-9]{1,20}", _ONE_OF, type_required=True)),
    Variant("BankTransfer", "UYU", "URY", "1", "5000000", ("CI", "RUT"), ("pay_url", "reference", "instruction"), reference_digits=10, bank=True, account=Account(r"[0-9]{1,20}", _ONE_OF, type_required=True)),
    # Costa Rica
    Variant("BankTransfer", "CRC", "CRI", "500", "1700000", ("ID",), ("reference",), reference_digits=6, bank=True, language_code=True),
    Variant("BNCR", "CRC", "CRI", "1000", "600000", ("CDI",), ("pay_url", "reference", "partner_code"), integer=True, reference_digits=11, partner_code="BNCR", validity="7d"),
    Variant("Cash", "CRC", "CRI", "600", "1700000", ("CDI",), ("pay_url", "reference"), reference_digits=6, validity="1d"),
    # Ecuador, Panama and El Salvador pay in USD: the customer's document picks the page
    Variant("BankTransfer", "USD", "ECU", "2", "10000", ("CI",), ("pay_url",)),
    Variant("Cash", "USD", "ECU", "1", "500", ("CI",), ("pay_url",), validity="1d"),
    Variant("BankTransfer", "USD", "PAN", "1", "100000", ("RUC", "PASS", "CE"), ("pay_url", "reference", "instruction", "due_date"), reference_digits=10, bank=True, account=Account(r"[0-9]{5,20}", _CHECKING_SAVINGS, required=False)),
    Variant("Cash", "USD", "PAN", "1", "200", ("CIP",), ("pay_url", "reference"), reference_digits=16, validity="1d"),
    Variant("Cash", "USD", "SLV", "1", "500", ("DUI",), ("reference",), reference_digits=6, bank=True, language_code=True),
    # Guatemala
    Variant("BankTransfer", "GTQ", "GTM", "1", "8000", ("DPI",), ("reference",), reference_digits=6, bank=True, language_code=True),
    Variant("Cash", "GTQ", "GTM", "8", "7500", ("DPI", "CUI", "NIT"), ("pay_url", "reference"), reference_digits=14, validity="1d"),  # 420167***92743
    # Egypt: the page names no document form
    Variant("Cash", "EGP", "EGY", "10", "100000", (), ("reference",), reference_digits=8),
    # Asia
    Variant("BankTransfer", "IDR", "IDN", "10000", "50000000", (), ("pay_url", "reference"), integer=True, reference_digits=16, bank=True),
    Variant("BankTransfer", "TWD", "TWN", "1", "20000", (), ("pay_url",), bank=True),
    Variant("OTC", "TWD", "TWN", "30", "20000", (), ("pay_url",), bank=True),
    Variant("QRPH", "PHP", "PHL", "20", None, (), ("prepay_id", "qr_code")),
)  # fmt: skip

# Other spellings of a method's name in the provider's pages (the WebPay example; the summary's "Webpay").
ALIASES = {"webpay": "WebPay"}


def variants(method: str, currency: str | None = None) -> list[Variant]:
    return [v for v in VARIANTS if v.method == method and (currency is None or v.currency == currency)]


def variant(method: str, currency: str, document: str | None = None) -> Variant | None:
    """The page of `method` in `currency`; where several countries pay in it (USD), the one whose documents
    include `document` (none: the first)."""
    found = variants(method, currency)
    if len(found) > 1 and document:
        wanted = document.upper()
        return next((v for v in found if wanted in v.documents), None)
    return found[0] if found else None


def ambiguous(method: str, currency: str) -> bool:
    """Whether more than one country's page takes this method in this currency (its document decides)."""
    return len(variants(method, currency)) > 1


def choose(req: DirectPayment) -> Variant | None:
    """The page a request follows: its method and currency, and where the currency is several countries' the
    customer's document type (CI: Ecuador, CIP: Panama, DUI: El Salvador)."""
    assert req.method is not None  # lookup() refuses a request without one
    found = variants(req.method, req.order_currency)
    if len(found) <= 1:
        return found[0] if found else None
    chosen = variant(req.method, req.order_currency, req.customer.identify.type)
    if chosen is None:
        kinds = " or ".join(f"{kind} ({v.country})" for v in found for kind in v.documents)
        raise InvalidField("customer.identify.type", f"must be {kinds} for {req.method} ({req.order_currency})")
    return chosen


def within(amount: Decimal, minimum: str | None, maximum: str | None, integer: bool = False) -> bool:
    """Whether a page's amount rules take `amount` (either limit may be open)."""
    if integer and amount != amount.to_integral_value():
        return False
    return (minimum is None or amount >= Decimal(minimum)) and (maximum is None or amount <= Decimal(maximum))


def check_amount(amount: Decimal, currency: str, what: str, minimum: str | None, maximum: str | None, integer: bool):
    """The page's amount rules: whole numbers where it says "Only Integer", within its limits (either may be open)."""
    if integer and amount != amount.to_integral_value():
        raise InvalidField("order_amount", f"must be a whole number of {currency} for {what}")
    low = Decimal(minimum) if minimum is not None else None
    high = Decimal(maximum) if maximum is not None else None
    if (low is not None and amount < low) or (high is not None and amount > high):
        if low is not None and high is not None:
            raise InvalidField("order_amount", f"must be {minimum} to {maximum} {currency} for {what}")
        if low is not None:
            raise InvalidField("order_amount", f"must be at least {minimum} {currency} for {what}")
        raise InvalidField("order_amount", f"must be at most {maximum} {currency} for {what}")


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
        valid = identify.number.isascii() and re.fullmatch(v.document_form(kind), identify.number) is not None
    if not valid:
        raise InvalidField("customer.identify.number", f"must be a valid {kind}")


def check_account(req: DirectPayment, v: Variant, bank_id: str | None) -> dict:
    """The payer's account where the page asks for one: its number's form, its type; kept only as its type."""
    rule = v.account
    if rule is None:
        return {}
    number, kind = req.account_number, req.account_type
    if not number:
        if rule.required:
            raise MissingField("account_number")
    elif not (number.isascii() and re.fullmatch(rule.number, number)):
        raise InvalidField("account_number", "must be digits only, as the bank writes the account")
    elif rule.bank_prefix and bank_id and not number.startswith(bank_id[:3]):
        raise InvalidField("account_number", f"must start with the bank code {bank_id[:3]}")
    if rule.types:
        if not kind:
            if rule.type_required:
                raise MissingField("account_type")
            return {}
        if kind.upper() not in rule.types:
            raise InvalidField("account_type", f"must be one of {', '.join(rule.types)}")
        return {"account_type": kind.upper()}
    return {}


def check(req: DirectPayment, v: Variant) -> None:
    """Everything the variant's page asks of a request besides its bank: its document and amount."""
    check_document(req, v)
    check_amount(req.order_amount, v.currency, v.method, v.minimum, v.maximum, v.integer)
