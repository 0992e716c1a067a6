"""Beneficiary checks of the payout corridors beyond Brazil and Mexico: a bad account, a bad document, an unknown
bank each answer 4001000 with the rule in data.err, and write nothing."""

from __future__ import annotations

import json

import pytest

from tests import builders
from tests.compat.payout_country_examples import EXAMPLES, filled


def body(page: str, **changes) -> dict:
    """The page's request example (masks filled), with `changes`; a value of None drops the field."""
    fields = json.loads(filled(EXAMPLES[page][0]))
    fields.update(changes)
    return {key: value for key, value in fields.items() if value is not None}


CASES = [
    # Argentina: CBU of 19 to 22 digits, CUIT of 11 digits, a bank of its list; MercadoPago: a CVU.
    ("argentina-banktransfer", {"account": "123456789012345678"}, "account: must be 19 to 22 digits"),
    ("argentina-banktransfer", {"document_id": "2012345678"}, "document_id: must be a CUIT of 11 digits"),
    ("argentina-banktransfer", {"document_type": "DNI"}, "document_type: must be CUIT"),
    ("argentina-banktransfer", {"bank_code": "999"}, "bank_code: must be a bank code from the ARG bank list"),
    ("argentina-banktransfer", {"phone": None}, "phone: is required for this method"),
    ("argentina-wallet", {"account": "0000003212345678901256"},
     "account: must be a CVU: 22 digits starting with 00000031"),
    ("argentina-wallet", {"account_type": "CBU"}, "account_type: must be CVU"),
    ("argentina-wallet", {"name": None}, "name: is required for this method"),
    # Colombia: bank transfer, Transfiya, Tpaga.
    ("colombia-banktransfer", {"account": "1234567"}, "account: must be 8 to 18 digits"),
    ("colombia-banktransfer", {"document_id": "12345"}, "document_id: must be a CC of 6 to 10 digits"),
    ("colombia-banktransfer", {"document_type": "NIT"}, "document_type: must be one of CC, CE, PEP"),
    ("colombia-banktransfer", {"bank_code": "998"}, "bank_code: must be a bank code from the COL bank list"),
    ("colombia-banktransfer", {"account_type": "VISTA"}, "account_type: must be CHECKING or SAVINGS"),
    ("colombia-transfiya", {"account": "58012345678910"},
     "account: must be the phone with Colombia's code: 12 to 14 digits starting with 57"),
    ("colombia-transfiya", {"document_id": "ABC"}, "document_id: must be a CC of 6 to 10 digits"),
    ("colombia-wallet", {"account": "+1317000412"},
     "account: must be the Tpaga phone with Colombia's code 57 (+ optional), 11 to 14 characters"),
    ("colombia-wallet", {"channel": "Nequi"}, "channel: must be one of TPAGA for WALLET"),
    # Chile's Vita wallet: an e-mail.
    ("chile-wallet", {"account": "not-an-email"}, "account: must be the Vita account's e-mail"),
    ("chile-wallet", {"account_type": "PHONE"}, "account_type: must be EMAIL"),
    # Ecuador: Banco Pichincha's accounts have 10 digits; the PAS and RUC 13 digits with 001.
    ("ecuador-banktransfer", {"bank_code": "0010"}, "account: must be 10 digits"),
    ("ecuador-banktransfer", {"document_id": "1234567890123"},
     "document_id: must be a PAS of 13 digits starting or ending with 001"),
    ("ecuador-banktransfer", {"bank_code": "9999"}, "bank_code: must be a bank code from the ECU bank list"),
    # Guatemala: 14 digits (6 at Banco de Guatemala), CUI or NIT, banks without savings accounts.
    ("guatemala-banktransfer", {"account": "123456"}, "account: must be 14 digits"),
    ("guatemala-banktransfer", {"bank_code": "030", "account_type": "SAVINGS"},
     "account_type: Citibank, N.A. Sucursal Guatemala takes no SAVINGS account"),
    ("guatemala-banktransfer", {"document_type": "CUI"}, "document_id: must be a CUI of 13 digits"),
    ("guatemala-banktransfer", {"bank_code": "002"}, "bank_code: must be a bank code from the GTM bank list"),
    # Panama.
    ("panama-banktransfer", {"account": "1234"}, "account: must be 5 to 20 digits"),
    ("panama-banktransfer", {"document_type": "DNI"}, "document_type: must be one of RUC, PASS, CE"),
    ("panama-banktransfer", {"bank_code": "0001"}, "bank_code: must be a bank code from the PAN bank list"),
    # Peru: its region is required and from the list.
    ("peru-banktransfer", {"account": "123456789"}, "account: must be 10 to 20 digits"),
    ("peru-banktransfer", {"document_type": "DNI"}, "document_id: must be a DNI of 8 digits"),
    ("peru-banktransfer", {"bank_code": "0099"}, "bank_code: must be a bank code from the PER bank list"),
    ("peru-banktransfer", {"region": "Patagonia"},
     "region: must be one of the regions of Peru, such as Lima or La Libertad"),
    ("peru-banktransfer", {"region": None}, "region: is required for this method"),
    # Russia's Qiwi wallet: 11 or 12 digits.
    ("russia-wallet", {"account": "7317000"}, "account: must be 11 to 12 digits"),
    ("russia-wallet", {"channel": "YooMoney"}, "channel: must be one of QIWI for WALLET"),
    # Turkey: an IBAN; Papara's account types; the optional NIN.
    ("turkey-banktransfer", {"account": "DE89370400440532013000"}, "account: must be a Turkish IBAN: TR and 24 digits"),
    ("turkey-banktransfer", {"document_id": "1234"}, "document_id: must be a NIN of 11 digits"),
    ("turkey-wallet", {"account": "123"}, "account: must be a national ID of 11 digits"),
    ("turkey-wallet", {"account_type": "IBAN"},
     "account_type: must be one of PHONE, EMAIL, WALLETNUMBER, DOCUMENTID"),
    # Uruguay: each bank's account length (BROU: 14 digits); CI of 8 digits.
    ("uruguay-banktransfer", {"account": "12345678"}, "account: must be 14 digits"),
    ("uruguay-banktransfer", {"document_id": "1234567"}, "document_id: must be a CI of 8 digits"),
    ("uruguay-banktransfer", {"bank_code": "1002"}, "bank_code: must be a bank code from the URY bank list"),
    # Names: 5 to 100 characters on every new page (optional on the wallets, bounded when given).
    ("peru-banktransfer", {"name": "Ana"}, "name: must be 5 to 100 characters"),
    ("russia-wallet", {"name": "Ana"}, "name: must be 5 to 100 characters"),
    ("turkey-banktransfer", {"name": "A" * 101}, "name: must be 5 to 100 characters"),
    # The Pagsmile wallet: a UUID account, and what its page lists: BRA or MEX, from USD, GBP or EUR.
    ("pagsmile-wallet", {"account": "not-a-uuid"}, "account: must be a Pagsmile wallet account: a UUID"),
    ("pagsmile-wallet", {"account_type": "EMAIL"}, "account_type: must be UUID"),
    ("pagsmile-wallet", {"source_currency": "BRL"}, "source_currency: must be one of USD, EUR or GBP"),
    ("pagsmile-wallet", {"country": "COL", "arrival_currency": "COP"}, "channel: must be one of TPAGA for WALLET"),
]  # fmt: skip


@pytest.mark.parametrize("page, changes, err", CASES)
def test_bad_beneficiaries_are_invalid_parameters(payout_api, merchant, fund, row_counts, page, changes, err):
    for currency in ("USD", "COP", "CLP", "PEN"):
        fund(merchant, currency, "100000")
    before = row_counts()
    answer = payout_api.post("/payout", body(page, **changes), expect=400)
    assert (answer["code"], answer["msg"], answer["data"]) == (4001000, "invalid parameter", {"err": err})
    assert row_counts() == before


@pytest.mark.parametrize(
    "page, changes",
    [
        ("peru-banktransfer", {"bank_code": "1"}),  # the bank list's CSV writes 0001 as 1
        ("guatemala-banktransfer", {"account_type": "CHEKCING"}),  # as the Guatemalan page spells it
        ("guatemala-banktransfer", {"country": "GTM"}),  # ISO 3166's code, besides the page's GTQ
        ("guatemala-banktransfer", {"document_type": "NIT", "document_id": "576937-K"}),
        ("panama-banktransfer", {"document_type": "CE", "document_id": "PE-1234-123456"}),
        ("turkey-wallet", {"account_type": "Phone", "account": "+905012345678"}),
        ("turkey-wallet", {"account_type": "WalletNumber", "account": "PL1234567890"}),
        ("turkey-wallet", {"account_type": "Email", "account": "papara_account@pagsmile.com"}),
        ("turkey-banktransfer", {"document_id": None, "document_type": None}),  # optional there
        ("pagsmile-wallet", {"account": "f341a1b2-c3d4-e5f6-0718-293a4b5c0844"}),
        ("pagsmile-wallet", {"country": "MEX", "arrival_currency": "MXN"}),
        ("ecuador-banktransfer", {"document_type": "CEDULA", "document_id": "0102030405"}),
    ],
)
def test_documented_variants_are_taken(payout_api, merchant, fund, page, changes):
    for currency in ("USD", "COP", "CLP", "PEN"):
        fund(merchant, currency, "100000")
    answer = payout_api.post("/payout", body(page, **changes), expect=200)
    assert answer["data"]["status"] == "IN_PROCESSING"


def test_the_detail_names_the_bank_of_the_list(payout_api, merchant, fund):
    fund(merchant, "USD", "1000")
    created = payout_api.post("/payout", body("argentina-banktransfer"), expect=200)["data"]
    detail = payout_api.post(
        "/payout/detail", {"transaction_id": created["id"], "timestamp": builders.now_unix()}, expect=200
    )["data"]
    assert (detail["bank_number"], detail["bank_name"]) == ("011", "Bando de la Nación Argentina")


@pytest.mark.parametrize("page", ["colombia-banktransfer", "colombia-transfiya", "colombia-wallet"])
def test_colombian_pages_take_whole_pesos(payout_api, merchant, fund, row_counts, page):
    # "Amount should be an integer, like 1.00 is not available."
    fund(merchant, "COP", "100000")
    before = row_counts()
    answer = payout_api.post("/payout", body(page, amount="100.00"), expect=400)
    assert (answer["code"], answer["data"]) == (
        4001000,
        {"err": "amount: must be a whole number of COP, such as 100 (not 100.00)"},
    )
    assert row_counts() == before


def test_what_arrives_in_whole_pesos_is_rounded_down_to_a_peso(payout_api, merchant, fund):
    fund(merchant, "USD", "1000")
    changes = {"source_currency": "USD", "amount": "10.00", "amount_type": "source_amount"}
    data = payout_api.post("/payout", body("colombia-wallet", **changes), expect=200)["data"]
    # 10.00 USD at 4079.500000 COP: 40795.00 COP, whole already; then the fee comes on top for the merchant.
    assert (data["arrival_amount"], data["source_amount"]) == ("40795.00", "10.45")
    data = payout_api.post("/payout", body("colombia-wallet", custom_code="c2", **{**changes, "amount": "10.01"}))
    assert data["data"]["arrival_amount"] == "40835.00"  # 40835.79 rounded down to the peso
