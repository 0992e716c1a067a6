"""The Southern Cone: bank transfers and wallets in Argentina (CBU, MercadoPago CVU), Chile (RUT, Vita) and Uruguay."""

from __future__ import annotations

from stdnum.cl import rut

from ...errors import InvalidField
from ...validation import is_digits
from .common import BANK_ACCOUNT_TYPES, Beneficiary, bank, contact, digits, document, email, one_of, required

# The Chilean bank transfer page's example document, "just for test in sandbox": not a valid RUT.
CL_SANDBOX_DOCUMENT = "123456789"
# Uruguay's banks by the digits their account has (the page's account table): (fewest, most).
UY_ACCOUNT_DIGITS = {
    "1001": (14, 14),
    "1091": (10, 10),
    "1110": (9, 9),
    "1113": (7, 7),
    "1128": (10, 10),
    "1137": (12, 12),
    "1153": (2, 9),
    "1157": (10, 10),
    "1162": (9, 9),
    "1205": (10, 10),
    "1246": (12, 12),
    "1361": (7, 7),
    "7905": (8, 8),
}
# A MercadoPago CVU: "Always start with 00000031, should be 22 digits".
CVU_PREFIX = "00000031"


def bank_transfer_argentina(req) -> Beneficiary:
    contact(req)
    code, name = bank("ARG", req.bank_code)
    account = digits(req.account, "account", 19, 22)
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    number, kind = document(req, "ARG")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)


def mercadopago(req) -> Beneficiary:
    required(req.name, "name")  # the Argentine wallet page, unlike the others, requires the name
    one_of(req.account_type, "account_type", ("CVU",))
    account = digits(req.account, "account", 22)
    if not account.startswith(CVU_PREFIX):
        raise InvalidField("account", f"must be a CVU: 22 digits starting with {CVU_PREFIX}")
    number, kind = document(req, "ARG")
    return Beneficiary(account=account, account_type="CVU", document_id=number, document_type=kind)


def bank_transfer_chile(req) -> Beneficiary:
    code, name = bank("CHL", req.bank_code)
    account = required(req.account, "account")
    if not (is_digits(account) and 4 <= len(account) <= 20):
        raise InvalidField("account", "must be 4 to 20 digits")
    account_type = one_of(req.account_type, "account_type", (*BANK_ACCOUNT_TYPES, "VISTA"))
    document = required(req.document_id, "document_id")
    if not rut.is_valid(document) and document != CL_SANDBOX_DOCUMENT:
        raise InvalidField("document_id", "must be a valid RUT")
    return Beneficiary(
        account=account,
        account_type=account_type,
        document_id=rut.compact(document),
        document_type="RUT",
        bank_code=code,
        bank_number=code,
        bank_name=name,
    )


def vita(req) -> Beneficiary:
    """The Vita wallet: its account is the beneficiary's e-mail; the document is optional (RUT or RUN)."""
    one_of(req.account_type, "account_type", ("EMAIL",))
    account = email(req.account, "account", "the Vita account's e-mail")
    if len(account) > 64:
        raise InvalidField("account", "a Vita account has at most 64 characters")
    return Beneficiary(
        account=account, account_type="EMAIL", document_id=req.document_id, document_type=req.document_type
    )


def bank_transfer_uruguay(req) -> Beneficiary:
    contact(req)
    code, name = bank("URY", req.bank_code)
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    account = digits(req.account, "account", *UY_ACCOUNT_DIGITS.get(code, (2, 14)))
    number, kind = document(req, "URY")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)
