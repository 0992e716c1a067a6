"""Russia and Turkey: the Qiwi wallet, bank transfers to a Turkish IBAN and the Papara wallet."""

from __future__ import annotations

import re

from ...errors import InvalidField
from .common import Beneficiary, digits, document, email, one_of, required

TR_IBAN = re.compile(r"^TR[0-9]{24}$")
# Papara's account types as its page writes them (matched in upper case), and the shape of each.
PAPARA_ACCOUNTS = {
    "PHONE": (re.compile(r"^(?:\+?90)?[0-9]{10}$"), "a Turkish phone, country code (+90) optional"),
    "WALLETNUMBER": (re.compile(r"^(?:PL)?[0-9]{10}$"), "a Papara number: 10 digits, PL optional"),
    "DOCUMENTID": (re.compile(r"^[0-9]{11}$"), "a national ID of 11 digits"),
}


def qiwi(req) -> Beneficiary:
    one_of(req.account_type, "account_type", ("PHONE",))
    account = digits(req.account, "account", 11, 12)
    return Beneficiary(account=account, account_type="PHONE")


def bank_transfer_turkey(req) -> Beneficiary:
    one_of(req.account_type, "account_type", ("IBAN",))
    account = required(req.account, "account").replace(" ", "").upper()
    if not TR_IBAN.match(account):
        raise InvalidField("account", "must be a Turkish IBAN: TR and 24 digits")
    number, kind = document(req, "TUR", optional=True)
    return Beneficiary(account=account, account_type="IBAN", document_id=number, document_type=kind)


def papara(req) -> Beneficiary:
    account_type = one_of(req.account_type, "account_type", ("PHONE", "EMAIL", "WALLETNUMBER", "DOCUMENTID"))
    account = required(req.account, "account")
    if account_type == "EMAIL":
        email(account, "account", "the Papara account's e-mail")
    else:
        pattern, rule = PAPARA_ACCOUNTS[account_type]
        if not pattern.match(account):
            raise InvalidField("account", f"must be {rule}")
    if len(account) > 64:
        raise InvalidField("account", "a Papara account has at most 64 characters")
    number, kind = document(req, "TUR", optional=True)
    return Beneficiary(account=account, account_type=account_type, document_id=number, document_type=kind)
