"""The provider's payout examples, one a country page, and a request filled from one."""

# Longer than the house's ~300 lines on purpose: the examples are the provider's pages' text, copied whole.

from __future__ import annotations

MASKS = {
    "d4": "0000",
    "d6": "111111",
    "d7": "1234567",
    "d9": "123456789",
    "d10": "1234567890",
    "d12": "123456789012",
    "d18": "123456789012345678",
    "letters": "uilher",
    "hex24": "a1b2c3d4e5f60718293a4b5c",
}


# Each page: its request example, and its documented `data` (the 200 response).
EXAMPLES = {
    # payout/submit-a-payout/argentina/banktransfer.md
    "argentina-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
     "phone": "12{d6}9",
     "email": "payout@pagsmile.com",
     "bank_code": "011",
     "account_type": "CHECKING",
     "account": "6{d18}8",
     "document_id": "12{d7}91",
     "document_type": "CUIT",
     "source_currency": "USD",
     "arrival_currency": "ARS",
     "fee_bear": "merchant",
     "method": "BANKTRANSFER",
     "amount": "1.80",
     "notify_url": "https://notify.url",
     "custom_code" : "custom_code9982674851738108",
     "additional_remark": "pagsmile payout test remark",
     "country": "ARG"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "0.51", "arrival_currency": "ARS", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/argentina/wallet.md
    "argentina-wallet": (
        """{
     "name" : "GUILHERME ****** SOUZA",
      "phone": "12{d6}9",
      "email": "payout@pagsmile.com",
     "account_type": "CVU",
     "account": "00000031{d12}56",
     "document_id": "12{d7}91",
     "document_type": "CUIT",
     "source_currency": "USD",
     "arrival_currency": "ARS",
     "fee_bear": "merchant",
     "method": "WALLET",
     "channel": "MercadoPago",
     "amount": "1.80",
     "notify_url": "https://notify.url",
     "custom_code" : "merchant_payout_order_id",
     "additional_remark": "pagsmile payout test remark",
     "country": "ARG"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "0.51", "arrival_currency": "ARS", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/colombia/banktransfer.md
    "colombia-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
     "phone" : "468{d4}068",
     "email" : "g{letters}me@gmail.com",
     "bank_code": "007",
     "account" : "002194002546406543",
     "account_type" : "CHECKING",
     "document_id" : "123456789",
     "document_type" : "CC",
     "method" : "BankTransfer",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "COP",
     "arrival_currency" : "COP",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "COL"
}""",
        {"id": "TS202108100734054iRiUZFPXfQBC", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "COL", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/colombia/transfiya.md
    "colombia-transfiya": (
        """{
     "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "account" : "57012345678910",
     "account_type" : "PHONE",
     "document_id" : "123456789",
     "document_type" : "CC",
     "method" : "Transfiya",
     "custom_code" : "your_order_id",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "COP",
     "arrival_currency" : "COP",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "COL"
}""",
        {"id": "TS202108100734054iRiUZFPXfQBC", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "COL", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/colombia/wallet.md
    "colombia-wallet": (
        """{
      "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "account" : "+57317{d4}412",
     "account_type" : "PHONE",
      "document_id" : "************",
      "document_type" : "***",
     "method" : "WALLET",
     "channel" : "Tpaga",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "COP",
     "arrival_currency" : "COP",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "COL"
}""",
        {"id": "TS202108100734054iRiUZFPXfQWC", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "COP", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/chile/wallet.md
    "chile-wallet": (
        """{
      "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "account" : "g{letters}me@gmail.com",
     "account_type" : "EMAIL",
      "document_id" : "************",
      "document_type" : "***",
     "method" : "WALLET",
     "channel" : "Vita",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "CLP",
     "arrival_currency" : "CLP",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "CHL"
}""",
        {"id": "TS202108100734054iRiUZFPXfQWCL", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "CLP", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/ecuador/banktransfer.md
    "ecuador-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "bank_code": "0001",
     "account" : "00219400254640654321",
     "account_type" : "CHECKING",
     "document_id" : "1234567890001",
     "document_type" : "PAS",
     "method" : "BankTransfer",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "USD",
     "arrival_currency" : "USD",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "ECU"
}""",
        {"id": "TS202108100734054iRiUZFPXfQBEC", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "PEN", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/guatemala/banktransfer.md
    "guatemala-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
     "phone": "12{d6}9",
     "email": "payout@pagsmile.com",
     "bank_code": "015",
     "account_type": "CHECKING",
     "account": "00{d10}95",
     "document_id": "1{d7}0",
     "document_type": "NIT",
     "source_currency": "USD",
     "arrival_currency": "GTQ",
     "fee_bear": "merchant",
     "method": "BANKTRANSFER",
     "amount": "1.01",
     "notify_url": "https://notify.url",
     "custom_code" : "custom_code9982674851738108",
     "additional_remark": "pagsmile payout test remark",
     "country": "GTQ"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "7.09", "arrival_currency": "GTQ", "source_amount": "1.01", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/panama/banktransfer.md
    "panama-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
     "phone": "12{d6}9",
     "email": "payout@pagsmile.com",
     "bank_code": "1067",
     "account_type": "CHECKING",
     "account": "1{d6}49",
     "document_id": "15{d9}01",
     "document_type": "RUC",
     "source_currency": "USD",
     "arrival_currency": "USD",
     "fee_bear": "merchant",
     "method": "BANKTRANSFER",
     "amount": "1.01",
     "notify_url": "https://notify.url",
     "custom_code" : "custom_code9982674851738108",
     "additional_remark": "pagsmile payout test remark",
     "country": "PAN"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "1.01", "arrival_currency": "USD", "source_amount": "1.01", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/peru/banktransfer.md
    "peru-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
      "phone" : "468{d4}068",
      "email" : "g{letters}me@gmail.com",
     "bank_code": "0001",
     "account" : "00219400254640654321",
     "account_type" : "CHECKING",
     "document_id" : "123456789",
     "document_type" : "PAS",
     "method" : "BankTransfer",
     "custom_code" : "custom_code9982674851738108",
     "fee_bear" : "merchant",
     "amount" : "100",
     "source_currency" : "PEN",
     "arrival_currency" : "PEN",
     "notify_url" : "https://notify.url",
     "additional_remark" : "pagsmile payout test",
     "country": "PER",
     "region": "Amazonas"
}""",
        {"id": "TS202108100734054iRiUZFPXfQBPE", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "PEN", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/russia/wallet.md
    "russia-wallet": (
        """{
      "name": "GUILHERME ****** SOUZA",
      "phone": "468{d4}068",
      "email": "g{letters}me@gmail.com",
     "account": "7317{d4}412",
     "account_type": "PHONE",
     "method": "WALLET",
     "channel": "Qiwi",
     "custom_code": "custom_code9982674851738108",
     "fee_bear": "merchant",
     "amount": "100",
     "source_currency": "USD",
     "arrival_currency": "RUB",
     "notify_url": "https://notify.url",
     "additional_remark": "pagsmile payout test",
     "country": "RUS"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "0.51", "arrival_currency": "RUB", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/turkey/banktransfer.md (its comma after "country" left out)
    "turkey-banktransfer": (
        """{
     "name": "GUILHERME ****** SOUZA",
      "phone": "",
      "email": "payout@pagsmile.com",
     "amount": "10.01",
     "arrival_currency": "TRY",
     "custom_code" : "custom_code_your_order_id",
      "document_id": "22{d7}99",
      "document_type": "NIN",
     "fee_bear": "merchant",
     "method": "BankTransfer",
     "notify_url": "https://notify.url",
     "account": "TR112233445566778899001122",
     "account_type": "IBAN",
     "source_currency": "USD",
     "additional_remark": "pagsmile payout test remark",
     "country": "TUR"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "0.51", "arrival_currency": "BRL", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/turkey/wallet.md (its comma after "country" left out)
    "turkey-wallet": (
        """{
      "name": "GUILHERME ****** SOUZA",
      "phone": "",
      "email": "payout@pagsmile.com",
     "amount": "10.01",
     "arrival_currency": "TRY",
     "custom_code" : "custom_code_your_order_id",
      "document_id": "22{d7}99",
      "document_type": "NIN",
     "fee_bear": "merchant",
     "method": "Wallet",
     "channel": "Papara",
     "notify_url": "https://notify.url",
     "account": "22{d7}99",
     "account_type": "DocumentID",
     "source_currency": "USD",
     "additional_remark": "pagsmile payout test remark",
     "country": "TUR"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "0.51", "arrival_currency": "BRL", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/uruguay/banktransfer.md
    "uruguay-banktransfer": (
        """{
     "name" : "GUILHERME ****** SOUZA",
     "phone": "12{d6}9",
     "email": "payout@pagsmile.com",
     "bank_code": "1001",
     "account_type": "CHECKING",
     "account": "6{d12}8",
     "document_id": "12{d4}91",
     "document_type": "CI",
     "source_currency": "USD",
     "arrival_currency": "UYU",
     "fee_bear": "merchant",
     "method": "BANKTRANSFER",
     "amount": "1.80",
     "notify_url": "https://notify.url",
     "custom_code" : "custom_code9982674851738108",
     "additional_remark": "pagsmile payout test remark",
     "country": "URY"
}""",
        {"id": "TS202108100734054iRiUZFPXfQM", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "0.51", "arrival_currency": "UYU", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
    # payout/submit-a-payout/pagsmile-wallet/README.md
    "pagsmile-wallet": (
        """{
      "name": "Alan **** **** Santana",
      "email": "pagsmile_wallet_demo@pagsmile.com",
     "account": "f341{hex24}0844",
     "account_type": "UUID",
     "amount": "10.00",
     "source_currency": "USD",
     "arrival_currency": "BRL",
     "custom_code": "custom_code_pwallet_10010",
     "fee_bear": "merchant",
     "method": "WALLET",
     "channel": "Pagsmile",
     "notify_url": "https://sandbox.transfersmile.com/api/notify/demo",
     "additional_remark": "Pagsmaile wallet test",
     "country": "BRA"
}""",
        {"id": "TS202108100734054iRiUZFPXfQWB", "custom_code": "custom_code9982674851738108",
         "arrival_amount": "100", "arrival_currency": "BRL", "source_amount": "0.07", "source_currency": "USD",
         "status": "IN_PROCESSING"},
    ),
}  # fmt: skip


def filled(example: str) -> str:
    for placeholder, value in MASKS.items():
        example = example.replace("{" + placeholder + "}", value)
    return example
