"""The provider's direct-payment pages of Mexico, Colombia, Chile, Peru and Brazil's OpenFinance
(payin/submit-a-payin/<country>/<method>.md): each page's /trade/pay request example sent as it prints it,
and our answer held field by field to the page's response example (types, and the values that never vary).

As in test_payin_direct_payment: only the curl wrapper and the "*" marks of required fields are taken out
and the app id placed. Beyond that, each change is the page's own text that is not JSON, or the interface:

- `//` notes after a value (Khipu's "Only this bank works in test env", Todito's "for test environment")
  are the page's comments, not JSON: left out, as the payout examples' are (conftest).
- Some examples are not JSON even so: a comma before a closing brace (OXXOPay, Khipu, Pago46) or the outer
  object never closed (the Mexico, Chile and Peru wallet pages). Each is sent byte for byte first, and
  answers the documented `invalid-json` error; then repaired (comma dropped, brace added) and sent again.
- The interface requires `customer.phone` and `address.zip_code`, `.state`, `.city`, `.street`,
  `.street_number` for every direct payment; where an example leaves them out they are added, with the
  provider's sandbox test values of the country (payin/data/data-for-test-sandbox.md).
- Two examples send `"order_amount": "12.01"` in CLP (Khipu, the Chile wallet's Mach), which their pages'
  own rule refuses ("Only Integer"; CLP has no minor unit): the exact error is asserted, then 2500 is sent.
"""

import base64
import json
import re

import pytest

from checkout.mexico import clabe

from .helpers import INVALID_JSON, WALLET_EXAMPLE, unmarked, with_required

# --- the pages' request examples -------------------------------------------------------------------

# mexico/spei.md
SPEI_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "SPEI",
    * "order_amount": "12.01",
    * "order_currency": "MXN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# mexico/codi.md
CODI_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "CoDi",
    * "order_amount": "12.01",
    * "order_currency": "MXN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# mexico/oxxo.md
OXXO_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "OXXO",
    * "order_amount": "12.01",
    * "order_currency": "MXN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
    * "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# mexico/OXXOPay.md
OXXOPAY_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "OXXOPay",
    * "order_amount": "12.01",
    * "order_currency": "MXN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "523135759140"
      },
      "address" : {
          "zip_code": "37900",
      }
      }"""

# mexico/cash.md
MEXICO_CASH_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "Cash",
    * "order_amount": "12.01",
    * "order_currency": "MXN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "523135759140"
      },
      "address" : {
        "zip_code": "37900"
      }
      }"""

# mexico/wallet.md
TODITO_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "Wallet",
    * "channel": "Todito",
    * "order_amount": "12.01",
    * "order_currency": "MXN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
    * "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "account_number": "2660893978", //for test environment
    * "account_verification_code":"1322", //for test environment
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }"""

# colombia/pse.md
PSE_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354005",
    * "method": "PSE",
    * "order_amount": "3000",
    * "order_currency": "COP",
    * "subject": "trade pay test",
      "content": "trade pay test content",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer": {
    *     "identify": {
    *         "type": "NIT",
    *         "number": "1234123121"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# colombia/efecty.md
EFECTY_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "Efecty",
    * "order_amount": "3000",
    * "order_currency": "COP",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "NIT",
    *         "number": "1234123121"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# colombia/bancolombia.md
BANCOLOMBIA_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "Bancolombia",
    * "order_amount": "5000",
    * "order_currency": "COP",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "NIT",
    *         "number": "1234123121"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# colombia/SuRed.md
SURED_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "SuRed",
    * "order_amount": "3000",
    * "order_currency": "COP",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "NIT",
    *         "number": "1234123121"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# colombia/Gana.md
GANA_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "Gana",
    * "order_amount": "3000",
    * "order_currency": "COP",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "NIT",
    *         "number": "1234123121"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# colombia/wallet.md
TPAGA_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354004",
    * "method": "Wallet",
    * "channel": "TPaga",
    * "order_amount": "12",
    * "order_currency": "COP",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "NIT",
    *         "number": "1234123121"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "3020481705"
      }
      }"""

# chile/webpay.md
WEBPAY_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "WebPay",
    * "order_amount": "2500",
    * "order_currency": "CLP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer": {
    *     "identify": {
    *         "type": "RUT",
    *         "number": "220604497"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "56233145118"
      }
      }"""

# chile/khipu.md
KHIPU_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "Khipu",
    * "order_amount": "12.01",
    * "order_currency": "CLP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "bank" : "Bawdf", //Only this bank works in test env.
    * "customer" : {
    *     "identify": {
    *         "type": "RUT",
    *         "number": "220604497"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "56985995523"
      },
      "address" : {
          "zip_code": "3007601",
      }
      }"""

# chile/Pago46.md
PAGO46_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "Pago46",
    * "order_amount": "2500",
    * "order_currency": "CLP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RUT/RUN",
    *         "number": "220604497"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "56233145118"
      },
      "address" : {
          "zip_code": "3007601",
      }
      }"""

# chile/banktransfer.md
CHILE_BANK_TRANSFER_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "BankTransfer",
    * "order_amount": "20",
    * "order_currency": "CLP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RUT",
    *         "number": "220604497"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "56233145118"
      }
      }"""

# chile/cash.md
CHILE_CASH_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "Cash",
    * "order_amount": "2500",
    * "order_currency": "CLP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RUT/RUN",
    *         "number": "220604497"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "56233145118"
      }
      }"""

# chile/wallet.md
MACH_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "Wallet",
    * "channel": "Mach",
    * "order_amount": "12.01",
    * "order_currency": "CLP",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RUT",
    *         "number": "220604497"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }"""

# peru/banktransfer.md
PERU_BANK_TRANSFER_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354007",
    * "method": "BankTransfer",
    * "order_amount": "12.01",
    * "order_currency": "PEN",
    * "subject": "trade pay test",
      "content": "trade pay test content",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer": {
    *     "identify": {
    *         "type": "RUC",
    *         "number": "50284414727"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# peru/cash.md
PERU_CASH_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354007",
    * "method": "Cash",
    * "order_amount": "12.01",
    * "order_currency": "PEN",
    * "subject": "trade pay test",
      "content": "trade pay test content",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer": {
    *     "identify": {
    *         "type": "RUC",
    *         "number": "50284414727"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# peru/wallet.md
TUPAY_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354006",
    * "method": "Wallet",
    * "channel": "Tupay",
    * "order_amount": "12.01",
    * "order_currency": "PEN",
    * "subject": "trade pay test",
      "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "RUC",
    *         "number": "20538995364"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }"""

# brazil/openfinance.md
OPEN_FINANCE_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "OpenFinance",
    * "bank": "75e2b9f4-4f60-4d07-916c-fde1163d43bc",
    * "order_amount": "12.01",
    * "order_currency": "BRL",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "CPF",
    *         "number": "11032341882"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# --- the pages' response examples (200), one per tab where a page has tabs -----------------------

ANSWERS = {
    "SPEI": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "pay_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=UGlRNFB4WHRQRXJPZERhcFhHNlJPRzREZ2tTaDl1RktST1JjbCtPK2V2az0=-31B82307",
        "trade_status": "PROCESSING",
        "reference": "0000000",
        "clabe": "000000000000000001",
        "bank_name": "BBVA Bancomer",
    },
    "CoDi": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QUVQM3ZrVHZhdGJU****VpK02mcHY1a1d23MVRDaz0=-D7a1a5B0",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "trade_status": "PROCESSING",
        "qr_code": '{"TYP":20,"v":{"DEV":"00000161803500000000/0"},"ic":{"IDC":"2cee29d4ed","SER":7254764,"ENC":"d6XHjV42clxs162KdoN+Md4yJlnoh3Rpj9L+/gM4QnqFt2I+qJrGIAIbi4oX743+xK7apETvIpn+IDQ2tbjTN8Zo4WiPwPaDBIndqrvEoZbixTFPvoqIU+Cb0YVrwR/BeZ2AcikYvNZjvU8SGT/4X4MmbOT/aubVvVse8//CNTCc****L0wG7E5cMSY2zXARRWLfkFSjwCt7xqjklPwxsV2Z0N25m0epbvXyhCr48w5rKTmmTIiSkJoBrQRHIJX45*****180BWsYs4nwNfQT65c//v2IfQxbb03NSwF*****hwpHkCszGzEO8xXHXNCQ/FjbNrcyT6bkSS0EK8L//AyX99oR4808V****FU+3lpL7xW6YBL+0Q30ogdFw=="},"CRY":"bPi7ICAIYZ+7klXLtfDvHdDSNa0dO0wazXtC9l8OaYM="}',
        "reference": "0000000",
    },
    "OXXO": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "barcode": "88644659044520042000028006",
        "pay_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=R3FmamNKOTI2bXRnNW41aHZBNUI2U0JFMitSeWlDdTVUMWN3TE5EWGF6Zz0=-8B62e5F4",
        "trade_status": "PROCESSING",
    },
    "OXXOPay": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "Q3hnR2hieXRxS3BrbnpmZWRPUXV2Znp3MG1xRHhxejB3VWZ6M2xLaDI5RT0=-76553c77",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "barcode": "88644659044520042000028006",
        "pay_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=R3FmamNKOTI2bXRnNW41aHZBNUI2U0JFMitSeWlDdTVUMWN3TE5EWGF6Zz0=-8B62e5F4",
        "trade_status": "PROCESSING",
    },
    "Cash MXN": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "pay_url": "",
        "reference": "BANWIRE20220228013320",
        "trade_status": "PROCESSING",
    },
    "Wallet MXN Todito": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "trade_status": "PROCESSING",
    },
    "PSE": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "pay_url": "https://secure.payty.com/t/",
        "trade_status": "PROCESSING",
    },
    "Efecty": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "pay_url": "https://secure.payty.com/t/",
        "trade_status": "PROCESSING",
    },
    "Bancolombia": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "pay_url": "https://checkoutv2.pagsmile.com/checkout?prepay_id=",
        "trade_status": "PROCESSING",
        "reference": "90974588243",
        "partner_code": "54245",
    },
    "SuRed": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "eG1HTm5PQm10TnBiWk5nd2MycjdNZXlZS282OWN0OEpmNXBXN2V1aTFzOD0=-48aB24cB",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "pay_url": "https://checkoutv2.pagsmile.com/checkout?prepay_id=eG1HTm5PQm10TnBiWk5nd2MycjdNZXlZS282OWN0OEpmNXBXN2V1aTFzOD0=-48aB24cB",
        "trade_status": "PROCESSING",
        "partner_code": "PAYVALIDA",
        "reference": "35972550",
    },
    "Gana": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "eG1HTm5PQm10TnBiWk5nd2MycjdNZXlZS282OWN0OEpmNXBXN2V1aTFzOD0=-48aB24cB",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354004",
        "web_url": "",
        "pay_url": "https://checkoutv2.pagsmile.com/checkout?prepay_id=eG1HTm5PQm10TnBiWk5nd2MycjdNZXlZS282OWN0OEpmNXBXN2V1aTFzOD0=-48aB24cB",
        "trade_status": "PROCESSING",
        "partner_code": "260",
        "reference": "35972550",
    },
    "Wallet COP TPaga": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://w.tpaga.co/eyJtIjp7Im8iOiJQUiJ9LCJkIjp7InMiOiJQYWdzbWlsZSIsInBydCI6InByLTJlZmYyMzI4NjgxNDNkNjA5OGVlZGJjNGY1YWQ3NjNmMzMxNjdkZmJiYWNkYTc3ZDUxZTgyMzY4ODg4NWRlZTM0ZDViYzM0NyJ9fQ==",
    },
    "Wallet COP ClaroPay": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "pay_url": "https://secure-checkout.payvalida.com?token=",
    },
    "Wallet COP Dale": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://registro.pse.com.co/PSENF/index.html?enc=",
    },
    "Wallet COP Daviplata": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://registro.pse.com.co/PSENF/index.html?enc=",
    },
    "Wallet COP Movii": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://registro.pse.com.co/PSENF/index.html?enc=",
    },
    "Wallet COP Nequi": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://registro.pse.com.co/PSENF/index.html?enc=",
    },
    "Wallet COP Rappipay": {
        "code": "10000",
        "msg": "Success",
        "prepay_id": "QVUvcG00ZDl6MFVsWkZsTk1IwRDlTZEdnVThOUGxyeHVnZkROND0=-D161Bae8",
        "trade_no": "22022010110293900083",
        "out_trade_no": "202201010354005",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://registro.pse.com.co/PSENF/index.html?enc=",
    },
    "WebPay": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "pay_url": "https://app.payku.cl/gateway/",
        "trade_status": "PROCESSING",
    },
    "Khipu": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "pay_url": "https://khipu.com/payment/info/rkrcge5jq30j",
        "trade_status": "PROCESSING",
    },
    "Pago46": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "pay_url": "https://app.payku.cl/gateway/",
        "trade_status": "PROCESSING",
    },
    "BankTransfer CLP": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "pay_url": "https://pagos.pasarela.multicaja.cl/order/",
        "trade_status": "PROCESSING",
    },
    "Cash CLP": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "pay_url": "https://checkout/payment",
        "trade_status": "PROCESSING",
        "reference": "841234567",
    },
    "Wallet CLP Mach": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "trade_status": "PROCESSING",
        "app_link_url": "machapp://pay-biz/payment/3e51efda-d80d-41c9-8fb1-2454a7cbc7e6",
    },
    "Wallet CLP Chek": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "web_url": "",
        "trade_status": "PROCESSING",
        "pay_url": "https://app.payku.cl/gateway/cobro?id=trx12cfab0b34da56b0f&valid=78aecf9012",
    },
    "BankTransfer PEN": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010106532400030",
        "out_trade_no": "202201010354007",
        "web_url": "",
        "pay_url": "https://gateway.kashio.net/e/index.html?token=",
        "trade_status": "PROCESSING",
        "reference": "732987",
    },
    "Cash PEN": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010106532400030",
        "out_trade_no": "202201010354007",
        "web_url": "",
        "pay_url": "https://gateway.kashio.net/e/index.html?token=",
        "trade_status": "PROCESSING",
        "reference": "732987",
    },
    "Wallet PEN Tupay": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354006",
        "due_date": "2023-11-11 06:24:51",
        "web_url": "",
        "trade_status": "PROCESSING",
        "pay_url": "https://checkout-test.pagsmile.com/result?prepay_id=",
        "qr_code_img": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAVysoBwY/BYc7e4YbBStJqdA3dvlzY+bAA***kJgggdLKGiQCzj5AeXUUysoBwY/BYc7e4YbBStJqdA3dvlzY+b==",
        "reference": "56915623",
    },
    "OpenFinance": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022021810560500094",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "pay_url": "https://nuapp.nubank.com.br/open-banking/authorize?client_id=",
        "trade_status": "PROCESSING",
    },
    "Wallet BRL AME": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://api.hml.amedigital.com/api/qrcode?qrcode=eyJ0eXBlIjoiUEFZTUVOVCIsIm9yZGVyX2lkIjoiZTI0OTMyNTYtZDIyOC00ODhlLWFjZDctOWU5OWU4NjJhNGE2In0=",
        "app_link_url": "amedigital://payment?qrcode=eyJ0eXBlIjoiUEFZTUVOVCIsIm9yZGVyX2lkIjoiZTI0OTMyNTYtZDIyOC00ODhlLWFjZDctOWU5OWU4NjJhNGE2In0=",
    },
    "Wallet BRL Astropay": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://onetouch.astropay.com/deposit/",
    },
    "Wallet BRL Mercadopago": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354002",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://www.mercadopago.com.br/checkout/v1/redirect?pref_id=",
    },
    "Wallet BRL PicPay": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354002",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://app.picpay.com/checkout/NjIxOGE4ZDc3MzY5MDQ0MGU2MDRiNGM5",
    },
}

# --- what is sent ------------------------------------------------------------------------------------

# The provider's sandbox test customer of each country (data-for-test-sandbox.md): phone and zip code;
# the address's other parts, which the interface requires, are a real address of each country.
COUNTRY = {
    "MXN": ("523135759140", "37900", ("Guanajuato", "León", "Boulevard Adolfo López Mateos", "100")),
    "COP": ("573020481705", "300760", ("Bogotá D.C.", "Bogotá", "Carrera 7", "71-21")),
    "CLP": ("56233145118", "3007601", ("Región Metropolitana", "Santiago", "Avenida Libertador", "1449")),
    "PEN": ("51980302848", "01130", ("Lima", "Lima", "Avenida Javier Prado Este", "4200")),
}


def uncommented(example: str) -> str:
    """The example without its "*" marks and `// notes` (after whitespace: `http://` stays)."""
    return re.sub(r"(?m)[ \t]+//.*$", "", unmarked(example))


def repaired(example: str) -> str:
    """The JSON the example means: a comma before a closing brace dropped, the outer object closed."""
    text = re.sub(r",(\s*})", r"\1", example)
    depth = text.count("{") - text.count("}")
    return text + "\n}" * depth


def completed(example: str, currency: str) -> str:
    """The example with what the interface requires and the page leaves out, added (and only that)."""
    phone, zip_code, (state, city, street, number) = COUNTRY[currency]
    sent = json.loads(example.replace("{app_id}", "x"))
    if "phone" not in sent["customer"]:
        anchor = '"email": "test@pagsmile.com"'
        example = example.replace(anchor, f'{anchor},\n          "phone": "{phone}"', 1)
    if "address" not in sent:
        end = example.rindex("}")
        example = (
            f'{example[:end]},\n      "address" : {{\n          "zip_code": "{zip_code}"\n      }}\n{example[end:]}'
        )
    parts = f'"state": "{state}", "city": "{city}", "street": "{street}", "street_number": "{number}"'
    example = re.sub(r'("zip_code": "[0-9]+")', rf"\1,\n          {parts}", example, count=1)
    done = json.loads(example.replace("{app_id}", "x"))
    assert set(done["address"]) == {"zip_code", "state", "city", "street", "street_number"}
    assert "phone" in done["customer"]
    return example


def prepared(send_example, example: str, currency: str) -> str:
    """The example as a merchant copying it would end up sending it, checking on the way that what is not
    JSON in it answers the documented invalid-json error."""
    text = uncommented(example)
    try:
        json.loads(text.replace("{app_id}", "x"))
    except ValueError:
        assert send_example("/trade/pay", text) == (400, INVALID_JSON)
        text = repaired(text)
    return completed(text, currency)


# --- what is answered ----------------------------------------------------------------------------------

FIXED = ("code", "msg", "trade_status", "partner_code")
OUR_PAGE = re.compile(r"^http://checkout\.test/pages/pay\?token=[\w.-]+$")


def documented_fields(body: dict, documented: dict) -> None:
    """Every field of the page's answer is ours too, of its type, and the same where it never varies."""
    missing = set(documented) - set(body)
    assert not missing, f"lacks {sorted(missing)}"
    for name, value in documented.items():
        assert type(body[name]) is type(value), name
    fixed = [k for k in FIXED if k in documented]
    assert {k: body[k] for k in fixed} == {k: documented[k] for k in fixed}
    assert body["web_url"] == ""  # every one of these pages answers it empty
    if "pay_url" in documented:
        assert OUR_PAGE.match(body["pay_url"])


# example, its page's answer, currency, and what else to check of our answer
CASES = {
    "SPEI": (SPEI_EXAMPLE, "SPEI", "MXN"),
    "CoDi": (CODI_EXAMPLE, "CoDi", "MXN"),
    "OXXO": (OXXO_EXAMPLE, "OXXO", "MXN"),
    "OXXOPay": (OXXOPAY_EXAMPLE, "OXXOPay", "MXN"),
    "Cash MXN": (MEXICO_CASH_EXAMPLE, "Cash MXN", "MXN"),
    "Wallet Todito": (TODITO_EXAMPLE, "Wallet MXN Todito", "MXN"),
    "PSE": (PSE_EXAMPLE, "PSE", "COP"),
    "Efecty": (EFECTY_EXAMPLE, "Efecty", "COP"),
    "Bancolombia": (BANCOLOMBIA_EXAMPLE, "Bancolombia", "COP"),
    "SuRed": (SURED_EXAMPLE, "SuRed", "COP"),
    "Gana": (GANA_EXAMPLE, "Gana", "COP"),
    "Wallet TPaga": (TPAGA_EXAMPLE, "Wallet COP TPaga", "COP"),
    "WebPay": (WEBPAY_EXAMPLE, "WebPay", "CLP"),
    "Pago46": (PAGO46_EXAMPLE, "Pago46", "CLP"),
    "BankTransfer CLP": (CHILE_BANK_TRANSFER_EXAMPLE, "BankTransfer CLP", "CLP"),
    "Cash CLP": (CHILE_CASH_EXAMPLE, "Cash CLP", "CLP"),
    "BankTransfer PEN": (PERU_BANK_TRANSFER_EXAMPLE, "BankTransfer PEN", "PEN"),
    "Cash PEN": (PERU_CASH_EXAMPLE, "Cash PEN", "PEN"),
    "Wallet Tupay": (TUPAY_EXAMPLE, "Wallet PEN Tupay", "PEN"),
}

# Examples whose amount their own page refuses (12.01 CLP): the error, then an amount it takes.
WHOLE_CLP = {
    "Khipu": (KHIPU_EXAMPLE, "Khipu", "order_amount: at most 0 decimal places for CLP"),
    "Wallet Mach": (MACH_EXAMPLE, "Wallet CLP Mach", "order_amount: must be a whole number of CLP for Mach"),
}


def _send(send_example, text: str) -> dict:
    status, body = send_example("/trade/pay", text)
    assert status == 200, body
    return body


@pytest.mark.parametrize("case", list(CASES))
def test_each_country_pages_example_is_answered_as_its_page_documents(send_example, case):
    example, answer, currency = CASES[case]
    body = _send(send_example, prepared(send_example, example, currency))
    documented_fields(body, ANSWERS[answer])
    assert body["out_trade_no"] == ANSWERS[answer]["out_trade_no"] or case.startswith("Wallet")
    assert body["trade_status"] == "PROCESSING"


@pytest.mark.parametrize("case", list(WHOLE_CLP))
def test_chilean_examples_with_cents_get_the_pages_own_error_then_pay_in_whole_pesos(send_example, row_counts, case):
    example, answer, error = WHOLE_CLP[case]
    text = prepared(send_example, example, "CLP")
    before = row_counts()
    status, body = send_example("/trade/pay", text)
    assert (status, body) == (
        400,
        {"code": "40002", "msg": "Business Failed", "sub_code": "invalid-parameter", "sub_msg": error},
    )
    assert row_counts() == before
    body = _send(send_example, text.replace('"order_amount": "12.01"', '"order_amount": "2500"'))
    documented_fields(body, ANSWERS[answer])


def test_spei_answers_a_valid_clabe_of_its_own_and_the_clabes_bank(send_example):
    first = _send(send_example, prepared(send_example, SPEI_EXAMPLE, "MXN"))
    second = _send(send_example, prepared(send_example, SPEI_EXAMPLE.replace("354004", "354104"), "MXN"))
    for body in (first, second):
        assert re.fullmatch(r"[0-9]{18}", body["clabe"])
        assert clabe.validate(body["clabe"]) == body["bank_name"] == "STP"
        assert re.fullmatch(r"[0-9]{7}", body["reference"])  # the page's reference: 7 digits
    assert first["clabe"] != second["clabe"]  # "Clabe will be unique for each order"


def test_codi_answers_its_qr_message_as_json_text(send_example):
    body = _send(send_example, prepared(send_example, CODI_EXAMPLE, "MXN"))
    message, documented = json.loads(body["qr_code"]), json.loads(ANSWERS["CoDi"]["qr_code"])
    assert set(message) == set(documented) and message["TYP"] == documented["TYP"] == 20
    assert body["prepay_id"].startswith("pp_")


@pytest.mark.parametrize("case", ["OXXO", "OXXOPay"])
def test_oxxo_barcodes_have_the_pages_26_digits(send_example, case):
    example, answer, currency = CASES[case]
    body = _send(send_example, prepared(send_example, example, currency))
    assert re.fullmatch(r"[0-9]{26}", body["barcode"]) and len(ANSWERS[answer]["barcode"]) == 26
    assert body["barcode"].endswith("000001201")  # MX$12.01


def test_tupay_answers_its_due_date_qr_image_and_reference(send_example):
    body = _send(send_example, prepared(send_example, TUPAY_EXAMPLE, "PEN"))
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", body["due_date"])
    assert base64.b64decode(body["qr_code_img"].removeprefix("data:image/png;base64,"))[:4] == b"\x89PNG"
    assert re.fullmatch(r"[0-9]{8}", body["reference"]) and re.fullmatch(
        r"[0-9]{8}", ANSWERS["Wallet PEN Tupay"]["reference"]
    )


def test_the_openfinance_example_pays_at_the_bank_it_names(api, send_example):
    body = _send(send_example, with_required(unmarked(OPEN_FINANCE_EXAMPLE)))
    documented_fields(body, ANSWERS["OpenFinance"])
    listed = api.post("/trade/bank-list", {"method": "OpenFinance"}, expect=200)["data"]
    assert "75e2b9f4-4f60-4d07-916c-fde1163d43bc" in [bank["bank_id"] for bank in listed]


# The wallet pages answer per channel (tabs) from one example: its channel (and where the channel's
# limits need it, its amount) changed, each tab's answer.
TABS = {
    "Wallet BRL AME": ("Brazil", "AME", None),
    "Wallet BRL Astropay": ("Brazil", "Astropay", None),
    "Wallet BRL Mercadopago": ("Brazil", "Mercadopago", None),
    "Wallet COP ClaroPay": ("Colombia", "ClaroPay", "3000"),
    "Wallet COP Dale": ("Colombia", "Dale", "3000"),
    "Wallet COP Daviplata": ("Colombia", "Daviplata", "3000"),
    "Wallet COP Movii": ("Colombia", "Movii", "3000"),
    "Wallet COP Nequi": ("Colombia", "Nequi", "3000"),
    "Wallet COP Rappipay": ("Colombia", "Rappipay", "3000"),
    "Wallet CLP Chek": ("Chile", "Chek", "2500"),
}


@pytest.mark.parametrize("tab", list(TABS))
def test_each_wallet_tab_answers_as_documented(send_example, tab):
    country, channel, amount = TABS[tab]
    if country == "Brazil":
        text = with_required(unmarked(WALLET_EXAMPLE)).replace('"channel": "PicPay"', f'"channel": "{channel}"')
    else:
        example, first = (TPAGA_EXAMPLE, "TPaga") if country == "Colombia" else (MACH_EXAMPLE, "Mach")
        currency = "COP" if country == "Colombia" else "CLP"
        text = prepared(send_example, example, currency).replace(f'"channel": "{first}"', f'"channel": "{channel}"')
        text = re.sub(r'"order_amount": "[0-9.]+"', f'"order_amount": "{amount}"', text)
    body = _send(send_example, text)
    documented_fields(body, ANSWERS[tab])
    query = '{"app_id": "{app_id}", "timestamp": "{timestamp}", "trade_no": "{trade_no}"}'
    _, query = send_example("/trade/query", query, trade_no=body["trade_no"])
    assert query["channel"] == channel.replace("Mercadopago", "MercadoPago")


@pytest.mark.parametrize("case", ["SPEI", "PSE", "Cash CLP", "Wallet TPaga"])
def test_a_repeat_answers_the_pages_duplicate(send_example, case):
    example, _, currency = CASES[case]
    text = prepared(send_example, example, currency)
    _send(send_example, text)
    assert send_example("/trade/pay", text) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "duplicate-out_trade_no",
            "sub_msg": "out_trade_no is duplicate",
        },
    )


def test_an_example_without_what_the_interface_requires_answers_its_exact_error(send_example, row_counts):
    """The SPEI page marks customer.phone optional and its example has none; the interface requires it
    (and the address) for every direct payment, and that rule wins (docs/decisions.md)."""
    before = row_counts()
    assert send_example("/trade/pay", uncommented(SPEI_EXAMPLE)) == (
        400,
        {
            "code": "40001",
            "msg": "Missing Required Arguments",
            "sub_code": "missing-arguments",
            "sub_msg": "missing required arguments: customer.phone, address",
        },
    )
    assert row_counts() == before
