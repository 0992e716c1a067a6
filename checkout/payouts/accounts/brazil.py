"""Brazilian beneficiaries: PIX keys, PIX BR Codes and bank accounts (COMPE bank codes, CPF or CNPJ)."""

from __future__ import annotations

import re
import uuid

from ...brazil import brcode
from ...brazil.banks import BR_BANKS
from ...brazil.documents import brazilian_document
from ...errors import InvalidField
from ...validation import check_email, is_digits
from .common import Beneficiary, each, required

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

PIX_KEY_TYPES = ("CPF", "CNPJ", "EVP", "PHONE", "EMAIL")


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


def _pix_key_type(value) -> str:
    key_type = required(value, "account_type")
    if key_type not in PIX_KEY_TYPES:
        raise InvalidField("account_type", f"must be one of {', '.join(PIX_KEY_TYPES)}")
    return key_type


def pix(req) -> Beneficiary:
    key_type = each(_pix_key_type, req.account_type)
    key = each(required, req.account, "account")
    if key is not None and key_type is not None:
        key = each(pix_key, key, key_type)
    document, kind = each(_brazilian_document, req.document_id, req.document_type) or (None, None)
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


def _bank(code) -> str:
    code = required(code, "bank_code")
    if code not in BR_BANKS:
        raise InvalidField("bank_code", f"must be one of {', '.join(BR_BANKS)}")
    return code


def _branch(branch) -> str:
    branch = required(branch, "branch")
    if not (is_digits(branch) and len(branch) == 4):
        raise InvalidField("branch", "must be 4 digits")
    return branch


def _account(account) -> str:
    account = required(account, "account")
    if not (is_digits(account) and 4 <= len(account) <= 18):
        raise InvalidField("account", "must be 4 to 18 digits")
    return account


def _account_digit(digit: str) -> str:
    if not re.fullmatch(r"[0-9X]{1,2}", digit):
        raise InvalidField("account_digit", "must be 1 or 2 digits (or X)")
    return digit


def _account_type(account_type) -> str:
    account_type = required(account_type, "account_type")
    if account_type not in ("CHECKING", "SAVINGS"):
        raise InvalidField("account_type", "must be CHECKING or SAVINGS")
    return account_type


def bank_transfer_brazil(req) -> Beneficiary:
    bank = each(_bank, req.bank_code)
    branch = each(_branch, req.branch)
    account = each(_account, req.account)
    digit = req.account_digit
    if digit is None:
        # "Left empty if the account_digit is included in the account field": its last digit.
        if account is not None:
            account, digit = account[:-1], account[-1]
    else:
        digit = each(_account_digit, digit)
    account_type = each(_account_type, req.account_type)
    document, kind = each(_brazilian_document, req.document_id, req.document_type) or (None, None)
    ispb, name = BR_BANKS[bank] if bank is not None else (None, None)
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
