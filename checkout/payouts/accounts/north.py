"""Mexico and Central America: SPEI (CLABE, debit card, phone), cash, and bank transfers in Guatemala and Panama."""

from __future__ import annotations

from ...errors import InvalidField
from ...validation import is_digits
from .. import clabe
from .common import BANK_ACCOUNT_TYPES, Beneficiary, bank, contact, digits, document, one_of, required

# SPEI account types (the SPEI page: "one of [debit | phone | clabe]") and their lengths in digits.
SPEI_ACCOUNTS = {"CLABE": 18, "DEBIT": 16, "PHONE": 10}
COUNTRY_PHONES = {"MEX": "52", "COL": "57"}


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
            name = clabe.validate(account)
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
        name = clabe.BANKS[prefix]
    return Beneficiary(
        account=account,
        account_type=account_type,
        bank_code=prefix,
        bank_number=prefix,
        bank_name=name,
        document_id=req.document_id,
        document_type=req.document_type,
    )


def country_phone(req) -> str:
    """The beneficiary's phone with the country's calling code (MEX cash, COL cash-out)."""
    phone = required(req.phone, "phone")
    code = COUNTRY_PHONES[req.country]
    if not phone.removeprefix("+").isdigit() or not phone.removeprefix("+").startswith(code):
        raise InvalidField("phone", f"must be a number with its country code {code} (+ optional)")
    if not 8 <= len(phone.removeprefix("+")) <= 15:
        raise InvalidField("phone", f"must be a number with its country code {code} (+ optional)")
    return phone


def cash(req) -> Beneficiary:
    country_phone(req)
    return Beneficiary(document_id=req.document_id, document_type=req.document_type)


# Guatemala's banks by the account they take (the page's account table): 6 digits at Banco de Guatemala,
# 14 elsewhere; these banks take no savings account, and Banco de Antigua no checking account.
GT_NO_SAVINGS = {"001", "030", "047"}
GT_NO_CHECKING = {"041"}


def bank_transfer_guatemala(req) -> Beneficiary:
    contact(req)
    code, name = bank("GTM", req.bank_code)
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    if code in (GT_NO_SAVINGS if account_type == "SAVINGS" else GT_NO_CHECKING):
        raise InvalidField("account_type", f"{name} takes no {account_type} account")
    account = digits(req.account, "account", 6 if code == "001" else 14)
    number, kind = document(req, "GTM")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)


def bank_transfer_panama(req) -> Beneficiary:
    contact(req)
    code, name = bank("PAN", req.bank_code)
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    account = digits(req.account, "account", 5, 20)  # the page's account table: 5 to 20 digits, either type
    number, kind = document(req, "PAN")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)
