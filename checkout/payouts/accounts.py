"""Beneficiary account checks per payout method (PIX keys, CLABE, bank accounts, wallets, cash); see corridors."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from stdnum.cl import rut

from ..brazil import brcode
from ..brazil.banks import BR_BANKS
from ..brazil.documents import brazilian_document
from ..errors import InvalidField
from ..validation import check_email, is_digits
from . import clabe

# The submit pages' phone: "0 ~ 15 digits"; the + of the international form is optional.
PHONE = re.compile(r"^\+?[0-9]{1,15}$")
# Brazilian area codes (DDD); a mobile number has 9 digits starting with 9, a landline 8 starting with 2 to 5.
BR_AREA_CODES = {
    11,
    12,
    13,
    14,
    15,
    16,
    17,
    18,
    19,
    21,
    22,
    24,
    27,
    28,
    31,
    32,
    33,
    34,
    35,
    37,
    38,
    41,
    42,
    43,
    44,
    45,
    46,
    47,
    48,
    49,
    51,
    53,
    54,
    55,
    61,
    62,
    63,
    64,
    65,
    66,
    67,
    68,
    69,
    71,
    73,
    74,
    75,
    77,
    79,
    81,
    82,
    83,
    84,
    85,
    86,
    87,
    88,
    89,
    91,
    92,
    93,
    94,
    95,
    96,
    97,
    98,
    99,
}
# A PIX phone key: "+5511987654321 or 11987654321, country code (+55) is optional" (the PIX page).
BR_PHONE = re.compile(r"^(?:\+?55)?([1-9][0-9])(9[0-9]{8}|[2-5][0-9]{7})$")
COUNTRY_PHONES = {"MEX": "52", "COL": "57"}

# Chilean banks by their code: name.
CL_BANKS = {"001": "Banco de Chile", "012": "BancoEstado", "037": "Banco Santander Chile", "016": "BCI"}

# The Chilean bank transfer page's example document, "just for test in sandbox": not a valid RUT.
CL_SANDBOX_DOCUMENT = "123456789"

PIX_KEY_TYPES = ("CPF", "CNPJ", "EVP", "PHONE", "EMAIL")


@dataclass
class Beneficiary:
    """What the service keeps about where the money goes, normalised."""

    account: str | None = None
    account_type: str | None = None
    document_id: str | None = None
    document_type: str | None = None
    bank_code: str | None = None
    branch: str | None = None
    account_digit: str | None = None
    bank_number: str | None = None  # ISPB or bank code, when known
    bank_name: str | None = None


def required(value, field: str) -> str:
    if value in (None, ""):
        raise InvalidField(field, "is required for this method")
    return value


def _brazilian_document(number: str | None, kind: str | None) -> tuple[str, str]:
    number = required(number, "document_id")
    kind = kind or ("CPF" if len(number) == 11 else "CNPJ")
    if kind not in ("CPF", "CNPJ"):
        raise InvalidField("document_type", "must be CPF or CNPJ")
    if not brazilian_document(kind, number):
        raise InvalidField("document_id", f"must be a valid {kind} (digits only)")
    return number, kind


def pix_key(key: str, key_type: str) -> str:
    """A valid PIX key of the given type, normalised (EVP lower-case)."""
    if key_type == "CPF" and not brazilian_document("CPF", key):
        raise InvalidField("account", "must be a valid CPF key (11 digits)")
    if key_type == "CNPJ" and not brazilian_document("CNPJ", key):
        raise InvalidField("account", "must be a valid CNPJ key (14 digits)")
    if key_type == "EVP":
        try:
            parsed = uuid.UUID(key)
        except ValueError:
            raise InvalidField("account", "must be a random key (UUID)") from None
        if str(parsed) != key.lower():
            raise InvalidField("account", "must be a random key (UUID)")
        return key.lower()
    if key_type == "PHONE":
        match = BR_PHONE.match(key)
        if not match or int(match.group(1)) not in BR_AREA_CODES:
            raise InvalidField("account", "must be a Brazilian phone key: +55 (optional), an area code and the number")
        return "+55" + match.group(1) + match.group(2)  # the key as the central bank's directory writes it
    if key_type == "EMAIL":
        try:
            check_email(key)
        except ValueError:
            raise InvalidField("account", "must be an e-mail key") from None
        if len(key) > 77:
            raise InvalidField("account", "an e-mail key has at most 77 characters")
    return key


def named(req) -> None:
    """Every method but WALLET needs the beneficiary's name (the wallet pages mark it optional)."""
    required(req.name, "name")


def pix(req) -> Beneficiary:
    key_type = required(req.account_type, "account_type")
    if key_type not in PIX_KEY_TYPES:
        raise InvalidField("account_type", f"must be one of {', '.join(PIX_KEY_TYPES)}")
    key = pix_key(required(req.account, "account"), key_type)
    document, kind = _brazilian_document(req.document_id, req.document_type)
    return Beneficiary(account=key, account_type=key_type, document_id=document, document_type=kind)


def qrcode(req) -> Beneficiary:
    code = required(req.account, "account")
    try:
        fields = brcode.parse(code)
    except brcode.BRCodeError as exc:
        raise InvalidField("account", f"must be a PIX BR Code ({exc})") from None
    if not isinstance(fields.get("26"), dict) or fields["26"].get("00") != brcode.GUI:
        raise InvalidField("account", "must be a PIX BR Code (field 26 with br.gov.bcb.pix)")
    document, kind = _brazilian_document(req.document_id, req.document_type)
    return Beneficiary(account=code, account_type="BRCODE", document_id=document, document_type=kind)


def bank_transfer_brazil(req) -> Beneficiary:
    bank = required(req.bank_code, "bank_code")
    if bank not in BR_BANKS:
        raise InvalidField("bank_code", f"must be one of {', '.join(BR_BANKS)}")
    branch = required(req.branch, "branch")
    if not (is_digits(branch) and len(branch) == 4):
        raise InvalidField("branch", "must be 4 digits")
    account = required(req.account, "account")
    if not (is_digits(account) and 4 <= len(account) <= 18):
        raise InvalidField("account", "must be 4 to 18 digits")
    digit = req.account_digit
    if digit is None:
        # "Left empty if the account_digit is included in the account field": its last digit.
        account, digit = account[:-1], account[-1]
    elif not re.fullmatch(r"[0-9X]{1,2}", digit):
        raise InvalidField("account_digit", "must be 1 or 2 digits (or X)")
    account_type = required(req.account_type, "account_type")
    if account_type not in ("CHECKING", "SAVINGS"):
        raise InvalidField("account_type", "must be CHECKING or SAVINGS")
    document, kind = _brazilian_document(req.document_id, req.document_type)
    ispb, name = BR_BANKS[bank]
    return Beneficiary(
        account=account,
        account_type=account_type,
        document_id=document,
        document_type=kind,
        bank_code=bank,
        branch=branch,
        account_digit=digit,
        bank_number=ispb,
        bank_name=name,
    )


def bank_transfer_chile(req) -> Beneficiary:
    bank = required(req.bank_code, "bank_code")
    if bank not in CL_BANKS:
        raise InvalidField("bank_code", f"must be one of {', '.join(CL_BANKS)}")
    account = required(req.account, "account")
    if not (is_digits(account) and 4 <= len(account) <= 20):
        raise InvalidField("account", "must be 4 to 20 digits")
    account_type = required(req.account_type, "account_type")
    if account_type not in ("CHECKING", "SAVINGS", "VISTA"):
        raise InvalidField("account_type", "must be CHECKING, SAVINGS or VISTA")
    document = required(req.document_id, "document_id")
    if not rut.is_valid(document) and document != CL_SANDBOX_DOCUMENT:
        raise InvalidField("document_id", "must be a valid RUT")
    return Beneficiary(
        account=account,
        account_type=account_type,
        document_id=rut.compact(document),
        document_type="RUT",
        bank_code=bank,
        bank_number=bank,
        bank_name=CL_BANKS[bank],
    )


# SPEI account types (the SPEI page: "one of [debit | phone | clabe]") and their lengths in digits.
SPEI_ACCOUNTS = {"CLABE": 18, "DEBIT": 16, "PHONE": 10}


def spei(req) -> Beneficiary:
    account = required(req.account, "account")
    account_type = req.account_type or "CLABE"
    if account_type not in SPEI_ACCOUNTS:
        raise InvalidField("account_type", "must be one of clabe, debit, phone")
    bank_code = req.bank_code
    if bank_code is not None and not (is_digits(bank_code) and clabe.BANKS.get(bank_code[-3:].rjust(3, "0"))):
        raise InvalidField("bank_code", "must be a SPEI bank code from the bank list")
    if account_type == "CLABE":
        try:
            bank = clabe.validate(account)
        except ValueError as exc:
            raise InvalidField("account", str(exc)) from None
        # "The first three digits of the bank account should be the last three digits of the bank code."
        if bank_code is not None and bank_code[-3:] != account[:3]:
            raise InvalidField("bank_code", f"must end with the CLABE's bank prefix {account[:3]}")
        prefix = account[:3]
    else:
        if not (is_digits(account) and len(account) == SPEI_ACCOUNTS[account_type]):
            raise InvalidField("account", f"must be {SPEI_ACCOUNTS[account_type]} digits for {account_type.lower()}")
        prefix = required(bank_code, "bank_code")[-3:].rjust(3, "0")
        bank = clabe.BANKS[prefix]
    return Beneficiary(
        account=account,
        account_type=account_type,
        bank_code=prefix,
        bank_number=prefix,
        bank_name=bank,
        document_id=req.document_id,
        document_type=req.document_type,
    )


def _phone(req) -> str:
    phone = required(req.phone, "phone")
    code = COUNTRY_PHONES[req.country]
    if not PHONE.match(phone) or not phone.removeprefix("+").startswith(code) or len(phone.removeprefix("+")) < 8:
        raise InvalidField("phone", f"must be a number with its country code {code} (+ optional)")
    return phone


def cash(req) -> Beneficiary:
    _phone(req)
    return Beneficiary(document_id=req.document_id, document_type=req.document_type)


def cashout(req) -> Beneficiary:
    _phone(req)
    document = required(req.document_id, "document_id")
    if not (is_digits(document) and 6 <= len(document) <= 10):
        raise InvalidField("document_id", "must be a cédula of 6 to 10 digits")
    return Beneficiary(document_id=document, document_type=req.document_type or "CC")


def wallet(req) -> Beneficiary:
    """The wallet's channel is checked against the corridors (corridors.beneficiary) before this runs."""
    account = required(req.account, "account")
    if req.channel == "PAYPAL":
        # The PayPal page: account_type "Fixed: EMAIL", the PayPal account's e-mail.
        if req.account_type not in (None, "EMAIL"):
            raise InvalidField("account_type", "must be EMAIL for PayPal")
        try:
            check_email(account)
        except ValueError:
            raise InvalidField("account", "must be the PayPal account's e-mail") from None
    return Beneficiary(account=account, account_type="WALLET")
