"""The Andes: Colombia (bank transfer, Transfiya, the Tpaga wallet, cash-out), Ecuador and Peru bank transfers."""

from __future__ import annotations

import re

from ...errors import InvalidField
from ...validation import is_digits
from .common import BANK_ACCOUNT_TYPES, Beneficiary, bank, contact, digits, document, one_of, required
from .north import country_phone

# Ecuador's banks whose accounts the page names (Banco Pichincha: 10 digits; Banco de Guayaquil: at most 10);
# any other bank: 7 to 20 digits.
EC_ACCOUNT_DIGITS = {"0010": (10, 10), "0017": (7, 10)}
# The regions of Peru, as the page lists them.
PE_REGIONS = (
    "Amazonas",
    "Ancash",
    "Apurímac",
    "Arequipa",
    "Ayacucho",
    "Cajamarca",
    "Callao",
    "Cusco",
    "Huancavelica",
    "Huánuco",
    "Ica",
    "Junín",
    "La Libertad",
    "Lambayeque",
    "Lima",
    "Loreto",
    "Madre de Dios",
    "Moquegua",
    "Pasco",
    "Piura",
    "Puno",
    "San Martín",
    "Tacna",
    "Tumbes",
    "Ucayali",
)
# A Tpaga account: the phone with Colombia's code 57, "11 ~ 14 chars" (+ optional).
TPAGA_ACCOUNT = re.compile(r"^(?=.{11,14}$)\+?57[0-9]+$")


def cashout(req) -> Beneficiary:
    country_phone(req)
    document = required(req.document_id, "document_id")
    if not (is_digits(document) and 6 <= len(document) <= 10):
        raise InvalidField("document_id", "must be a cédula of 6 to 10 digits")
    return Beneficiary(document_id=document, document_type=req.document_type or "CC")


def bank_transfer_colombia(req) -> Beneficiary:
    contact(req)
    code, name = bank("COL", req.bank_code)
    account = digits(req.account, "account", 8, 18)
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    number, kind = document(req, "COL")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)


def transfiya(req) -> Beneficiary:
    one_of(req.account_type, "account_type", ("PHONE",))
    account = digits(req.account, "account", 12, 14)
    if not account.startswith("57"):
        raise InvalidField("account", "must be the phone with Colombia's code: 12 to 14 digits starting with 57")
    number, kind = document(req, "COL")
    return Beneficiary(account=account, account_type="PHONE", document_id=number, document_type=kind)


def tpaga(req) -> Beneficiary:
    one_of(req.account_type, "account_type", ("PHONE",))
    account = required(req.account, "account")
    if not TPAGA_ACCOUNT.match(account):
        raise InvalidField(
            "account", "must be the Tpaga phone with Colombia's code 57 (+ optional), 11 to 14 characters"
        )
    return Beneficiary(
        account=account, account_type="PHONE", document_id=req.document_id, document_type=req.document_type
    )


def bank_transfer_ecuador(req) -> Beneficiary:
    code, name = bank("ECU", req.bank_code)
    account = digits(req.account, "account", *EC_ACCOUNT_DIGITS.get(code, (7, 20)))
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    number, kind = document(req, "ECU")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)


def bank_transfer_peru(req) -> Beneficiary:
    # The bank list's CSV writes the codes without their leading zeros ("1" for "0001").
    code, name = bank("PER", req.bank_code, width=4)
    account = digits(req.account, "account", 10, 20)
    account_type = one_of(req.account_type, "account_type", BANK_ACCOUNT_TYPES)
    number, kind = document(req, "PER")
    region = required(req.region, "region")
    if region not in PE_REGIONS:
        raise InvalidField("region", "must be one of the regions of Peru, such as Lima or La Libertad")
    return Beneficiary(account, account_type, number, kind, code, bank_number=code, bank_name=name)
