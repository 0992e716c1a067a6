"""The provider's direct-payment pages of Asia, Russia, Türkiye, Egypt and the Gulf (payin/submit-a-payin/
<country>/<method>.md): the wallets of Malaysia, the Philippines, Thailand, China, Hong Kong, Indonesia,
Korea, Taiwan, Russia, Türkiye and Egypt, the Philippines' QRPH and AlipayPlus, Indonesia's and Taiwan's bank
transfers, Taiwan's OTC, Egypt's cash, and the card pages of Bahrain, Kuwait, Oman, Qatar, Saudi Arabia and
the United Arab Emirates. Each page's /trade/pay request example is sent as it prints it and our answer held
to its response example, tab by tab; then its rules, its currency's minor unit, payment in the sandbox with
its callback, and refunds.

As printed means byte for byte, but for the provider's masked sandbox app id ("162************38"), where
the merchant's own goes (the `{app_id}` placeholder). A wallet page prints one request, for its first tab's
channel: each other tab is that request with its `channel` changed. The six card pages print one request
but for `order_currency` (CARD below is Bahrain's; the others differ in that line only).

These examples are not JSON as printed. Each is sent so first and answers `40002 invalid-json` with nothing
written; then it is repaired, and only as follows (REPAIRS, each checked to change the text):
- korea/wallet.md: the `//` note after `customer.email` dropped; the outer object, never closed, closed.
- russia/wallet.md: the comma before the `}` of `address` dropped; the outer object closed.
- turkiye/wallet.md: the "*" marks of required fields dropped.
- egypt/cash.md, egypt/wallet.md: the "*" marks dropped; the comma before the `}` of `customer` dropped.
- the six card pages: the comma before the `}` of `address` dropped; the outer object closed. Their
  `${token}` (the page's placeholder for a token of the provider's JavaScript library) is then sent as it is
  and answers `invalid-card-token`, nothing written; a token of ours from /card/token takes its place.
  `${fingerprint}` stays: any text is a fingerprint to the sandbox.
The other pages' examples are JSON as printed and are sent unchanged but for what the interface requires.

The interface requires customer.name, .email, .phone, .identify.type, .identify.number and
address.zip_code, .state, .city, .street, .street_number on every direct payment. Whatever an example leaves
out or sends as "" is added, and nothing else is changed: the provider's sandbox test user's name ("Test User
Name") and e-mail (test@pagsmile.com), and per country (PEOPLE) a phone, an identity document and an address
of that country (the Philippine phone is the provider's sandbox one). The examples of Malaysia, the
Philippines' wallet and AlipayPlus, Thailand, China, Hong Kong, Indonesia and Taiwan have no customer or
address: both are added whole. QRPH's, Egypt's and the card pages' customers have a name, e-mail and phone:
`identify` is added. Korea's and Türkiye's have an e-mail only: `identify`, name and phone are added.
Russia's sends identify.type, identify.number and address.zip_code as "": they become IRP, 9 digits and 5
digits, the forms its page gives. The card examples' address has its zip_code only: state, city, street and
street number are added (its Brazilian zip code and phone are the page's and stay).

The Indonesian bank transfer example sends 300 IDR, below its own page's 10,000: that exact error is
asserted (nothing written), then 15000 is sent.
"""

import base64
import json
import re
from dataclasses import dataclass
from decimal import Decimal

import pytest
from sqlalchemy import select

from checkout.db import db
from checkout.payins.models import Trade
from tests import builders

# --- the pages' request examples (trailing spaces written \x20, as the pages print them) ---------------

# Malaysia/wallet.md
MALAYSIA_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "BOOST",
    "order_amount": "300",
    "order_currency": "MYR",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# Philippines/alipayplus.md
ALIPAYPLUS = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "AlipayPlus",
    "channel": "AlipayPlus",
    "order_amount": "300",
    "order_currency": "PHP",
    "subject": "trade pay test",
    "content": "trade pay test content",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express": "300m"
    }"""

# Philippines/qrph.md
QRPH = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "QRPH",
    "order_amount": "300",
    "order_currency": "PHP",
    "subject": "trade pay test",
    "content": "trade pay test content",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express": "300m",
    "customer": {
        "name": "test user name",
        "email": "gtest1@gmail.com",
        "phone": "639959567234"
    }
}"""

# Philippines/wallet.md
PHILIPPINES_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "BPI",
    "order_amount": "300",
    "order_currency": "PHP",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# Thailand/wallet.md
THAILAND_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "RabbitLinePay",
    "order_amount": "300",
    "order_currency": "THB",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# china/wallet.md
CHINA_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "AlipayCN",
    "order_amount": "300",
    "order_currency": "CNY",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# hongkong/wallet.md
HONGKONG_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "AlipayHK",
    "order_amount": "300",
    "order_currency": "HKD",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# indonesia/banktransfer.md
INDONESIA_BANK_TRANSFER = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "BankTransfer",
    "bank":"BANK MANDIRI",
    "order_amount": "300",
    "order_currency": "IDR",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# indonesia/wallet.md
INDONESIA_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "DANA",
    "order_amount": "300",
    "order_currency": "IDR",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# korea/wallet.md
KOREA_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "KakaoPay",
    "order_amount": "300",
    "order_currency": "KRW",
    "subject": "trade pay test",
    "content": "trade pay test content",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express": "300m",
    "customer": {
        "email": "gtest1@gmail.com" //Required for SamsungPay, Payco, TOSS; Optional for KakaoPay, NaverPay\x20
    }"""

# taiwan/banktransfer.md
TAIWAN_BANK_TRANSFER = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "BankTransfer",
    "bank": "PD-STORE-FAMI",
    "order_amount": "300",
    "order_currency": "TWD",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# taiwan/otc.md
TAIWAN_OTC = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "OTC",
    "bank": "PD-ATM-CTCB",
    "order_amount": "300",
    "order_currency": "TWD",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# taiwan/wallet.md
TAIWAN_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "LINEPay",
    "bank":"PD-EPOINT-LINEPAY",
    "order_amount": "300",
    "order_currency": "TWD",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"300m"
    }"""

# russia/wallet.md
RUSSIA_WALLET = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354006",
    "method": "Wallet",
    "channel": "QIWI",
    "order_amount": "12.01",
    "order_currency": "RUB",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"1c",
    "customer" : {
        "identify": {
            "type": "",
            "number": ""
        },
        "name": "Test User Name",
        "email": "test@pagsmile.com",
        "phone": "79355556771"
    },
    "address" : {
        "zip_code": "",
    }"""

# turkiye/wallet.md
TURKIYE_WALLET = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "Wallet",
    * "channel": "Papara",
    * "order_amount": "2",
    * "order_currency": "TRY",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
    * "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
    * "customer": {
    *     "email": "test@pagsmile.com"
      }\x20\x20\x20\x20
}"""

# egypt/cash.md
EGYPT_CASH = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "Cash",
    * "order_amount": "20",
    * "order_currency": "EGP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
    * "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
    * "customer": {
    *     "name": "test Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "201177613643",
      }\x20\x20\x20\x20
}"""

# egypt/wallet.md
EGYPT_WALLET = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "Wallet",
    * "channel": "FawryPay",
    * "order_amount": "20",
    * "order_currency": "EGP",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
    * "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "timestamp": "2022-01-01 03:54:01",
    * "customer": {
    *     "name": "test Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "201177613643",
      }\x20\x20\x20\x20
}"""

# bahrain/creditcard.md
CARD = """{
    "app_id": "{app_id}",
    "out_trade_no": "202201010354003",
    "method": "CreditCard",
    "order_amount": "100.00",
    "order_currency": "BHD",
    "subject": "trade pay test",
    "content": "trade pay test conent",
    "notify_url": "http://merchant/callback/success",
    "return_url": "https://www.merchant.com",
    "buyer_id": "buyer_0101_0001",
    "user_ip":"127.0.0.1",
    "token":"${token}",
    "fingerprint":"${fingerprint}",
    "issuer":"visa",
    "timestamp": "2022-01-01 03:54:01",
    "timeout_express":"1c",
    "customer" : {
        "name": "Test User Name",
        "email": "test@pagsmile.com",
        "phone": "75991435892"
    },
    "address" : {
        "zip_code": "38082365",
    }"""


# --- the pages' response examples (200), one per tab (HTML entities of the pages read as their characters)

ALIPAY_CASHIER = "https://open-sea.alipayplus.com/api/open/v1/ac/cashier/self/codevalue/checkout.htm?codeValue="
TAIWAN_REDIRECT = "https://checkoutv2.pagsmile.com/public/redirect/post-redirect.html?post_data="
PAYLETTER = "https://pg1.payletter.com/pgsvc/hub.asp?location=online&token=1709**************"
SUCCESS = {"code": "10000", "msg": "Success"}
TRADE_006 = {"trade_no": "2022010110293900083", "out_trade_no": "202201010354006", "web_url": ""}
TRADE_003 = {"trade_no": "2022010110293900084", "out_trade_no": "202201010354003", "web_url": ""}
PROCESSING = {"trade_status": "PROCESSING"}


def tab(**fields: str) -> dict:
    """A page's answer of the common shape: the envelope, PROCESSING, then the method's fields."""
    return {**SUCCESS, **TRADE_006, **PROCESSING, **fields}


ANSWERS = {
    "Wallet MYR BOOST": tab(
        wallet_url="https://msp.boost-my.com/onlinepayment/authorise?source=alipay-connect&codeValue="
    ),
    "Wallet MYR TNG": tab(wallet_url="https://m.dana.id/m/ac/init?ACCodeValue="),
    "AlipayPlus": tab(wallet_url=ALIPAY_CASHIER),
    "QRPH": tab(prepay_id="MkZBZ***c171F5F", qr_code="00020101021***M1XXX63049110"),
    "Wallet PHP BPI": tab(wallet_url="https://oauth.bpi.com.ph/bpi/api/oauth2/authorize?response_type=code&client_id="),
    "Wallet PHP GCash": tab(qr_code="201234560095AqMJ49j126IxlU8YM5y8Z1ip", wallet_url=ALIPAY_CASHIER),
    "Wallet THB RabbitLinePay": tab(qr_code="201111000096IxMd1kpii7QGDz7RLov2sOg2", wallet_url=ALIPAY_CASHIER),
    "Wallet THB TrueMoney": tab(qr_code="20111100009zUaZt2rqOf2tlsB8ZkK6v4qqy", wallet_url=ALIPAY_CASHIER),
    "Wallet CNY AlipayCN": tab(qr_code="28166604009zTUJZ0bKPDzUJay6G19rv3THA", wallet_url=ALIPAY_CASHIER),
    # its tab is titled "AlipayCN"; the page is AlipayHK's
    "Wallet HKD AlipayHK": tab(qr_code="281666040097Q4yK2sxByzSOFn8ZCNMv31uA", wallet_url=ALIPAY_CASHIER),
    "BankTransfer IDR": {
        **SUCCESS,
        "trade_no": "2022010106532400030",
        "out_trade_no": "202201010354007",
        "web_url": "",
        "pay_url": "https://payment.tpservice.ai/#/order/id/P17441814055681",
        **PROCESSING,
        "reference": "890***9027",
    },
    "Wallet IDR DANA": tab(wallet_url="https://m.dana.id/m/ac/init?ACCodeValue="),
    # its qr_code line ends with a `//` note ("Check with your AM ..."), left out
    "Wallet KRW KakaoPay": tab(qr_code="2816660400930nDD49BbO48Meg32RZg31cEB", wallet_url=ALIPAY_CASHIER),
    "Wallet KRW NaverPay": {
        **SUCCESS,
        **TRADE_006,
        "pay_url": "https://pay.naver.com/payments/20240304***PQ==",
        **PROCESSING,
        "wallet_url": "https://pay.naver.com/payments/20240304***PQ==",
    },
    "Wallet KRW Payco": tab(wallet_url="https://pgweb.payletter.com/hub/eyJ0e***amkR0"),
    "Wallet KRW SamsungPay": tab(wallet_url=PAYLETTER),
    "Wallet KRW TOSS": tab(wallet_url=PAYLETTER),
    "BankTransfer TWD": tab(pay_url=TAIWAN_REDIRECT),
    "OTC TWD": tab(pay_url=TAIWAN_REDIRECT),
    "Wallet TWD LINEPay": tab(pay_url=TAIWAN_REDIRECT),
    # its tab is titled "Mach"; the page is QIWI's
    "Wallet RUB QIWI": tab(
        app_link_url="https://oplata.qiwi.com/form/?failUrl=https%1A%2B%3Cbankapi.pagsmile.com%2Fcheck%2Furls***D20220920&pay_source=qw&shop=101010&successUrl=https%1A***1A%1Abankapi.pagsmile.com%1Ab02&transaction=i_12345678"
    ),
    "Wallet TRY Papara": {
        **SUCCESS,
        **TRADE_003,
        "pay_url": "https://papara.com/checkout/53c***dff46174b1",
        **PROCESSING,
    },
    "Cash EGP": {**SUCCESS, **TRADE_003, "reference": "93****24", **PROCESSING},
    "Wallet EGP FawryPay": {
        **SUCCESS,
        **TRADE_003,
        "qr_code_img": "data:image/PNG;base64,iVBORw0KGgoAAAANSUh****rkJggg==",
        "reference": "93****24",
        **PROCESSING,
    },
    "CreditCard": {**SUCCESS, **TRADE_003, **PROCESSING},
}

# --- what is sent ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    example: str
    currency: str
    repairs: tuple[str, ...] = ()  # what makes it JSON, in this order
    amount: str | None = None  # where the page's own rule refuses its example's amount: the amount sent instead


PAGES = {
    "malaysia/wallet": Page(MALAYSIA_WALLET, "MYR"),
    "philippines/alipayplus": Page(ALIPAYPLUS, "PHP"),
    "philippines/qrph": Page(QRPH, "PHP"),
    "philippines/wallet": Page(PHILIPPINES_WALLET, "PHP"),
    "thailand/wallet": Page(THAILAND_WALLET, "THB"),
    "china/wallet": Page(CHINA_WALLET, "CNY"),
    "hongkong/wallet": Page(HONGKONG_WALLET, "HKD"),
    "indonesia/banktransfer": Page(INDONESIA_BANK_TRANSFER, "IDR", amount="15000"),
    "indonesia/wallet": Page(INDONESIA_WALLET, "IDR"),
    "korea/wallet": Page(KOREA_WALLET, "KRW", ("notes", "close")),
    "taiwan/banktransfer": Page(TAIWAN_BANK_TRANSFER, "TWD"),
    "taiwan/otc": Page(TAIWAN_OTC, "TWD"),
    "taiwan/wallet": Page(TAIWAN_WALLET, "TWD"),
    "russia/wallet": Page(RUSSIA_WALLET, "RUB", ("comma", "close")),
    "turkiye/wallet": Page(TURKIYE_WALLET, "TRY", ("marks",)),
    "egypt/cash": Page(EGYPT_CASH, "EGP", ("marks", "comma")),
    "egypt/wallet": Page(EGYPT_WALLET, "EGP", ("marks", "comma")),
}
CARD_PAGES = {
    country: Page(
        CARD.replace('"order_currency": "BHD"', f'"order_currency": "{currency}"'), currency, ("comma", "close")
    )
    for country, currency in (
        ("bahrain", "BHD"),
        ("kuwait", "KWD"),
        ("oman", "OMR"),
        ("qatar", "QAR"),
        ("saudi-arabia", "SAR"),
        ("united-arab-emirates", "AED"),
    )
}

# Each answer of ANSWERS (but the card's): the page it is of, and its tab's channel (wallets).
CASES = {
    "Wallet MYR BOOST": ("malaysia/wallet", "BOOST"),
    "Wallet MYR TNG": ("malaysia/wallet", "TNG"),
    "AlipayPlus": ("philippines/alipayplus", None),
    "QRPH": ("philippines/qrph", None),
    "Wallet PHP BPI": ("philippines/wallet", "BPI"),
    "Wallet PHP GCash": ("philippines/wallet", "GCash"),
    "Wallet THB RabbitLinePay": ("thailand/wallet", "RabbitLinePay"),
    "Wallet THB TrueMoney": ("thailand/wallet", "TrueMoney"),
    "Wallet CNY AlipayCN": ("china/wallet", "AlipayCN"),
    "Wallet HKD AlipayHK": ("hongkong/wallet", "AlipayHK"),
    "BankTransfer IDR": ("indonesia/banktransfer", None),
    "Wallet IDR DANA": ("indonesia/wallet", "DANA"),
    "Wallet KRW KakaoPay": ("korea/wallet", "KakaoPay"),
    "Wallet KRW NaverPay": ("korea/wallet", "NaverPay"),
    "Wallet KRW Payco": ("korea/wallet", "Payco"),
    "Wallet KRW SamsungPay": ("korea/wallet", "SamsungPay"),
    "Wallet KRW TOSS": ("korea/wallet", "TOSS"),
    "BankTransfer TWD": ("taiwan/banktransfer", None),
    "OTC TWD": ("taiwan/otc", None),
    "Wallet TWD LINEPay": ("taiwan/wallet", "LINEPay"),
    "Wallet RUB QIWI": ("russia/wallet", "QIWI"),
    "Wallet TRY Papara": ("turkiye/wallet", "Papara"),
    "Cash EGP": ("egypt/cash", None),
    "Wallet EGP FawryPay": ("egypt/wallet", "FawryPay"),
}


@dataclass(frozen=True)
class Person:
    document: tuple[str, str]  # identify.type, identify.number
    phone: str
    address: tuple[str, str, str, str, str]  # zip_code, state, city, street, street_number


# A customer of each page's country, for what the interface requires and the example leaves out (the card
# examples' own phone and zip code stay; Qatar and the Emirates have no postcodes: zeros, as their forms take).
PEOPLE = {
    "MYR": Person(("NRIC", "900101145678"), "60123456789", ("50450", "Wilayah Persekutuan Kuala Lumpur", "Kuala Lumpur", "Jalan Ampang", "1")),
    "PHP": Person(("TIN", "123456789000"), "639511331388", ("1226", "Metro Manila", "Makati", "Ayala Avenue", "6750")),
    "THB": Person(("NID", "1101700203450"), "66812345678", ("10330", "Bangkok", "Pathum Wan", "Rama I Road", "999")),
    "CNY": Person(("RIC", "11010519491231002X"), "8613800138000", ("100006", "Beijing", "Beijing", "Wangfujing Street", "138")),
    "HKD": Person(("HKID", "A1234563"), "85291234567", ("999077", "Hong Kong Island", "Central", "Queen's Road Central", "1")),
    "IDR": Person(("NIK", "3171011201900001"), "6281234567890", ("10110", "DKI Jakarta", "Jakarta Pusat", "Jalan Medan Merdeka Barat", "1")),
    "KRW": Person(("RRN", "9001011234568"), "821012345678", ("04524", "Seoul", "Jung-gu", "Sejong-daero", "110")),
    "TWD": Person(("NID", "A123456789"), "886912345678", ("110", "Taipei City", "Xinyi District", "Section 5, Xinyi Road", "7")),
    "RUB": Person(("IRP", "751234567"), "79355556771", ("12500", "Moscow", "Moscow", "Tverskaya Street", "7")),
    "TRY": Person(("TCKN", "10000000146"), "905321234567", ("34367", "Istanbul", "Sisli", "Halaskargazi Caddesi", "1")),
    "EGP": Person(("NID", "29001011234567"), "201177613643", ("11511", "Cairo", "Cairo", "Kasr El Nil Street", "10")),
    "BHD": Person(("CPR", "900101234"), "97336001234", ("317", "Capital Governorate", "Manama", "Government Avenue", "1")),
    "KWD": Person(("CID", "290010112345"), "96550012345", ("13001", "Al Asimah", "Kuwait City", "Arabian Gulf Street", "1")),
    "OMR": Person(("CID", "12345678"), "96891234567", ("100", "Muscat", "Muscat", "Sultan Qaboos Street", "1")),
    "QAR": Person(("QID", "29063400001"), "97433123456", ("00000", "Doha", "Doha", "Corniche Street", "1")),
    "SAR": Person(("NID", "1012345678"), "966501234567", ("12211", "Riyadh Province", "Riyadh", "King Fahd Road", "1")),
    "AED": Person(("EID", "784199012345676"), "971501234567", ("00000", "Dubai", "Dubai", "Sheikh Zayed Road", "1")),
}  # fmt: skip
NAME, EMAIL = "Test User Name", "test@pagsmile.com"

REPAIRS = {
    "marks": lambda text: re.sub(r"(?m)^(\s*)\*\s?", r"\1", text),
    "notes": lambda text: re.sub(r"(?m)[ \t]+//.*$", "", text),
    "comma": lambda text: re.sub(r",(\s*})", r"\1", text),
    "close": lambda text: text + "\n}" * (text.count("{") - text.count("}")),
}
INVALID_JSON = {
    "code": "40002",
    "msg": "Business Failed",
    "sub_code": "invalid-json",
    "sub_msg": "request body is not valid UTF-8 JSON",
}
# ISO 4217 minor units of the pages' currencies (the published list).
ISO_DIGITS = {
    "MYR": 2, "PHP": 2, "THB": 2, "CNY": 2, "HKD": 2, "IDR": 2, "KRW": 0, "TWD": 2, "RUB": 2, "TRY": 2, "EGP": 2,
    "BHD": 3, "KWD": 3, "OMR": 3, "QAR": 2, "SAR": 2, "AED": 2,
}  # fmt: skip


def shown(amount: str, currency: str) -> str:
    """The amount with its currency's ISO decimals, as our answers and callbacks print it."""
    return str(Decimal(amount).quantize(Decimal(1).scaleb(-ISO_DIGITS[currency])))


def _put(text: str, key: str, fields: dict) -> str:
    """`fields` added at the start of the object `key` (which has members), or that object added last."""
    members = "".join(f"\n        {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in fields.items())
    opener = re.search(rf'"{key}"\s*:\s*{{', text)
    if opener is not None:
        return text[: opener.end()] + members + text[opener.end() :] if fields else text
    end = text.rindex("}")
    return f"{text[:end].rstrip()},\n    {json.dumps(key)}: {json.dumps(fields, ensure_ascii=False)}\n{text[end:]}"


def completed(text: str, currency: str) -> str:
    """The example with what the interface requires and the page leaves out (or sends as ""), added."""
    who, sent = PEOPLE[currency], json.loads(text)
    customer, address = sent.get("customer"), sent.get("address")
    kind, number = who.document
    wanted = {"identify": {"type": kind, "number": number}, "name": NAME, "email": EMAIL, "phone": who.phone}
    if customer is not None and "identify" in customer:
        for name, value in (("type", kind), ("number", number)):
            if customer["identify"][name] == "":
                text = text.replace(f'"{name}": ""', f'"{name}": "{value}"', 1)
    text = _put(text, "customer", {k: v for k, v in wanted.items() if customer is None or k not in customer})
    parts = dict(zip(("zip_code", "state", "city", "street", "street_number"), who.address, strict=True))
    if address is not None and address.get("zip_code") == "":
        text = text.replace('"zip_code": ""', f'"zip_code": "{parts["zip_code"]}"', 1)
    text = _put(text, "address", {k: v for k, v in parts.items() if address is None or k not in address})
    done = json.loads(text)
    required = [*done["customer"]["identify"].values(), *(done["customer"][k] for k in ("name", "email", "phone"))]
    assert all(required) and all(done["address"][k] for k in parts), done
    return text


def mended(page: Page) -> str:
    """The example repaired as the module's docstring says (each repair changes it), then completed."""
    text = page.example
    for repair in page.repairs:
        fixed = REPAIRS[repair](text)
        assert fixed != text, repair
        text = fixed
    return completed(text, page.currency)


def as_printed_is_refused(send_example, row_counts, page: Page) -> None:
    """A page's example as printed: JSON (a page without repairs), or the documented invalid-json error."""
    if not page.repairs:
        json.loads(page.example)
        return
    before = row_counts()
    assert send_example("/trade/pay", page.example) == (400, INVALID_JSON)
    assert row_counts() == before


def request_text(case: str) -> str:
    """What is sent for a case: its page's example, mended, with its tab's channel and an amount its page takes."""
    page, channel = PAGES[CASES[case][0]], CASES[case][1]
    text = mended(page)
    sent = json.loads(text)
    if channel is not None and channel != sent["channel"]:
        text = text.replace(f'"channel": "{sent["channel"]}"', f'"channel": "{channel}"', 1)
    if page.amount is not None:
        text = text.replace(f'"order_amount": "{sent["order_amount"]}"', f'"order_amount": "{page.amount}"', 1)
    return text


def body_of(case: str, **overrides) -> dict:
    """The case's request as a dict for api.post (which sets app_id and timestamp), with overrides (None: left out)."""
    body = {k: v for k, v in json.loads(request_text(case)).items() if k not in ("app_id", "timestamp")}
    return {k: v for k, v in {**body, **overrides}.items() if v is not None}


def send(send_example, text: str) -> dict:
    status, body = send_example("/trade/pay", text)
    assert status == 200, body
    return body


# --- what is answered --------------------------------------------------------------------------------

ENVELOPE = ("code", "msg", "trade_no", "out_trade_no", "web_url", "trade_status")
# Egypt's pages mask four of their reference's eight digits ("93****24"); how many digits Indonesia's
# "890***9027" hides, its page does not say.
REFERENCE_LENGTHS = {"93****24": 8}
OUR_PAGE = re.compile(r"^http://checkout\.test/pages/(pay|wallet)\?token=[\w.-]+$")


def opens_our_page(client, url: str, subject: str) -> None:
    """Our payment page of the trade: it shows what the order is for, waiting for the payment."""
    assert OUR_PAGE.match(url), url
    page = client.get(url.removeprefix("http://checkout.test"))
    assert (page.status_code, page.mimetype) == (200, "text/html")
    html = page.get_data(as_text=True)
    assert f'<h1 id="pay-title">{subject}</h1>' in html and '"status": "PROCESSING"' in html


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), the checksum EMVCo QR codes end with."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def emv_fields(code: str) -> dict[str, str]:
    """An EMV merchant-presented code's top-level fields: two-digit tag, two-digit length, value."""
    fields, at = {}, 0
    while at < len(code):
        tag, size = code[at : at + 2], int(code[at + 2 : at + 4])
        fields[tag] = code[at + 4 : at + 4 + size]
        at += 4 + size
    assert at == len(code), "the code ends inside a field"
    return fields


def holds_the_pages_fields(client, body: dict, documented: dict, sent: dict) -> None:
    """Every field of the page's answer is ours, of its type, the same where it never varies, in the page's
    order among its own fields, with ours only after them; each in the form the page's has."""
    assert set(documented) <= set(body), sorted(set(documented) - set(body))
    assert {k: type(body[k]) for k in documented} == {k: type(v) for k, v in documented.items()}
    fixed = ("code", "msg", "web_url", "trade_status")
    assert {k: body[k] for k in fixed} == {k: documented[k] for k in fixed}
    assert body["out_trade_no"] == sent["out_trade_no"]
    page_fields = [k for k in documented if k not in ENVELOPE]
    ours = [k for k in body if k not in ENVELOPE]
    assert ours[: len(page_fields)] == page_fields, ours
    for name in ("pay_url", "wallet_url"):
        if name in documented:
            opens_our_page(client, body[name], sent["subject"])
    if "qr_code" in documented and sent["method"] == "QRPH":
        code = body["qr_code"]
        assert code.startswith("000201") and documented["qr_code"].startswith("000201")
        assert code[-8:-4] == "6304" and documented["qr_code"][-8:-4] == "6304"
        assert code[-4:] == f"{crc16_ccitt(code[:-4].encode()):04X}"
        fields = emv_fields(code)
        assert (fields["01"], fields["53"], fields["54"], fields["58"]) == (
            "12",
            "608",
            shown(sent["order_amount"], "PHP"),
            "PH",
        )
    elif "qr_code" in documented:  # a wallet's code value: its network's prefix, the page's length
        assert body["qr_code"][:9] == documented["qr_code"][:9]
        assert len(body["qr_code"]) == len(documented["qr_code"]) and body["qr_code"].isalnum()
    if "qr_code_img" in documented:
        prefix = documented["qr_code_img"][: len("data:image/png;base64,")]
        assert body["qr_code_img"].lower().startswith(prefix.lower())  # a media type is case-insensitive
        assert base64.b64decode(body["qr_code_img"][len(prefix) :])[:8] == b"\x89PNG\r\n\x1a\n"
    if "reference" in documented:
        assert body["reference"].isdigit()
        if documented["reference"] in REFERENCE_LENGTHS:
            assert len(body["reference"]) == REFERENCE_LENGTHS[documented["reference"]]
    if "app_link_url" in documented:  # QIWI's: an https address of its payment form, which ours opens too
        assert documented["app_link_url"].startswith("https://")
        opens_our_page(client, body["app_link_url"], sent["subject"])
    if "prepay_id" in documented:
        assert body["prepay_id"]


# --- the examples ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_each_pages_example_is_answered_as_its_tab_documents(client, send_example, row_counts, case):
    page = PAGES[CASES[case][0]]
    as_printed_is_refused(send_example, row_counts, page)
    text = request_text(case)
    body = send(send_example, text)
    holds_the_pages_fields(client, body, ANSWERS[case], json.loads(text))
    query = '{"app_id": "{app_id}", "timestamp": "{timestamp}", "trade_no": "{trade_no}"}'
    _, query = send_example("/trade/query", query, trade_no=body["trade_no"])
    assert (query["trade_status"], query["method"], query.get("channel")) == (
        "PROCESSING",
        json.loads(text)["method"],
        CASES[case][1] or ("AlipayPlus" if case == "AlipayPlus" else None),  # AlipayPlus's: its fixed channel
    )


def test_the_indonesian_example_amount_gets_its_pages_own_error(send_example, row_counts):
    text = mended(PAGES["indonesia/banktransfer"])
    before = row_counts()
    assert send_example("/trade/pay", text) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "invalid-parameter",
            "sub_msg": "order_amount: must be 10000 to 50000000 IDR for BankTransfer",
        },
    )
    assert row_counts() == before


# What the interface misses in each example repaired but not completed, all in one answer (the pages mark
# these fields optional or leave them out; the interface wins, docs/decisions.md).
_BOTH = "missing required arguments: customer, address"
_STREET = "address.state, address.city, address.street_number, address.street"
MISSING = {
    "malaysia/wallet": _BOTH,
    "philippines/alipayplus": _BOTH,
    "philippines/qrph": "missing required arguments: customer.identify, address",
    "philippines/wallet": _BOTH,
    "thailand/wallet": _BOTH,
    "china/wallet": _BOTH,
    "hongkong/wallet": _BOTH,
    "indonesia/banktransfer": _BOTH,
    "indonesia/wallet": _BOTH,
    "korea/wallet": "missing required arguments: customer.name, customer.phone, customer.identify, address",
    "taiwan/banktransfer": _BOTH,
    "taiwan/otc": _BOTH,
    "taiwan/wallet": _BOTH,
    # Its example also sends identify and zip_code as "": refused beside the absent fields.
    "russia/wallet": f"missing required arguments: {_STREET}; customer.identify.number: String should have at least"
    " 1 character; customer.identify.type: String should have at least 1 character; address.zip_code: String"
    " should have at least 1 character",
    "turkiye/wallet": "missing required arguments: customer.name, customer.phone, customer.identify, address",
    "egypt/cash": "missing required arguments: customer.identify, address",
    "egypt/wallet": "missing required arguments: customer.identify, address",
    "bahrain/creditcard": f"missing required arguments: customer.identify, {_STREET}",
}


@pytest.mark.parametrize("name", list(MISSING))
def test_an_example_without_what_the_interface_requires_answers_its_exact_error(send_example, row_counts, name):
    page = CARD_PAGES["bahrain"] if name == "bahrain/creditcard" else PAGES[name]
    text = page.example
    for repair in page.repairs:
        text = REPAIRS[repair](text)
    before = row_counts()
    assert send_example("/trade/pay", text) == (
        400,
        {
            "code": "40001",
            "msg": "Missing Required Arguments",
            "sub_code": "missing-arguments",
            "sub_msg": MISSING[name],
        },
    )
    assert row_counts() == before


def test_russias_empty_identify_and_zip_code_are_refused_as_empty(send_example, row_counts):
    """Its example sends identify.type, identify.number and address.zip_code as "": refused, never taken."""
    text = request_text("Wallet RUB QIWI")
    for field, value in (("customer.identify.number", "751234567"), ("address.zip_code", "12500")):
        before = row_counts()
        assert send_example("/trade/pay", text.replace(f'"{value}"', '""', 1)) == (
            400,
            {
                "code": "40002",
                "msg": "Business Failed",
                "sub_code": "invalid-parameter",
                "sub_msg": f"{field}: String should have at least 1 character",
            },
        )
        assert row_counts() == before


@pytest.mark.parametrize("case", ["Wallet MYR BOOST", "QRPH", "BankTransfer IDR", "Wallet KRW KakaoPay", "Cash EGP"])
def test_a_repeat_answers_the_pages_duplicate(send_example, case):
    text = request_text(case)
    send(send_example, text)
    assert send_example("/trade/pay", text) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "duplicate-out_trade_no",
            "sub_msg": "out_trade_no is duplicate",
        },
    )


# --- the pages' rules --------------------------------------------------------------------------------

API_MINIMUM = "order_amount: must be between 0.01 and 99999999.99"
# Each page's amount range (its tab's, where a page has several): minimum, maximum (None: "∞", none named).
RANGES = {
    "Wallet MYR BOOST": ("0.1", "9999999"),
    "Wallet MYR TNG": ("0.1", "9999999"),
    "AlipayPlus": ("1", "50000"),
    "QRPH": ("20", None),
    "Wallet PHP BPI": ("1", "50000"),
    "Wallet PHP GCash": ("1", "100000"),
    "Wallet THB RabbitLinePay": ("1", "50000"),
    "Wallet THB TrueMoney": ("1", None),
    "Wallet CNY AlipayCN": ("0.04", "300000"),
    "Wallet HKD AlipayHK": ("0.1", "9999999"),
    "BankTransfer IDR": ("10000", "50000000"),  # "Only Integer"
    "Wallet IDR DANA": ("300", "25000000"),
    "Wallet KRW KakaoPay": ("100", "2000000"),
    "Wallet KRW NaverPay": ("100", "2000000"),
    "Wallet KRW Payco": ("100", "2000000"),
    "Wallet KRW SamsungPay": ("100", "2000000"),
    "Wallet KRW TOSS": ("100", "2000000"),
    "BankTransfer TWD": ("1", "20000"),
    "OTC TWD": ("30", "20000"),
    "Wallet TWD LINEPay": ("50", "20000"),
    "Wallet RUB QIWI": ("0.01", "500000"),  # "0~500,000": the API's least amount is 0.01
    "Wallet TRY Papara": ("1", "500000"),
    "Cash EGP": ("10", "100000"),
    "Wallet EGP FawryPay": ("10", "60000"),
}


def refused(api, row_counts, body: dict, code: str, sub_code: str, sub_msg: str) -> None:
    before = row_counts()
    answer = api.post("/trade/pay", body, expect=400)
    assert answer == {"code": code, "msg": MESSAGES[code], "sub_code": sub_code, "sub_msg": sub_msg}
    assert row_counts() == before


MESSAGES = {"40001": "Missing Required Arguments", "40002": "Business Failed"}


@pytest.mark.parametrize("case", list(RANGES))
def test_each_pages_amount_range_is_kept_to_the_unit(api, row_counts, case):
    low, high = RANGES[case]
    currency = json.loads(request_text(case))["order_currency"]
    step = Decimal(1) if case == "BankTransfer IDR" else Decimal(1).scaleb(-ISO_DIGITS[currency])
    what = CASES[case][1] or case.split()[0]
    for n, amount in enumerate((low, high or "99999999.99")):  # no maximum: the API's largest amount
        api.post("/trade/pay", body_of(case, order_amount=amount, out_trade_no=f"edge-{n}"), expect=200)
    rule = f"must be {low} to {high} {currency}" if high else f"must be at least {low} {currency}"
    message = f"order_amount: {rule} for {what}"
    below = str(Decimal(low) - step)
    low_message = API_MINIMUM if Decimal(below) <= 0 else message
    refused(api, row_counts, body_of(case, order_amount=below), "40002", "invalid-parameter", low_message)
    if high is not None:
        above = str(Decimal(high) + step)
        refused(api, row_counts, body_of(case, order_amount=above), "40002", "invalid-parameter", message)


# The bank tables of the Indonesian and Taiwanese pages, and LINEPay's fixed bank.
BANK_TABLES = {
    "BankTransfer IDR": ("BANK BNI", "BANK BRI", "BANK CIMB", "BANK PERMATA", "BANK MANDIRI"),
    "BankTransfer TWD": (
        "PD-STORE-FAMI", "PD-STORE-HILIFEET", "PD-STORE-IBON", "PD-STORE-MBC", "PD-STORE-MBC-HILIFEET", "PD-STORE-OKGO",
    ),
    "OTC TWD": ("PD-ATM-CTCB", "PD-ATM-HNCB", "PD-ATM-SCSB", "PD-WEBATM-CTCB", "PD-WEBATM-ESUN", "PD-WEBATM-HNCB"),
    "Wallet TWD LINEPay": ("PD-EPOINT-LINEPAY",),
}  # fmt: skip


@pytest.mark.parametrize(("case", "bank"), [(case, bank) for case, table in BANK_TABLES.items() for bank in table])
def test_each_bank_of_a_pages_table_is_taken(api, case, bank):
    trade = api.post("/trade/pay", body_of(case, bank=bank), expect=200)
    assert trade["trade_status"] == "PROCESSING"


@pytest.mark.parametrize("case", list(BANK_TABLES))
def test_a_bank_is_required_where_the_page_requires_one(api, row_counts, case):
    refused(api, row_counts, body_of(case, bank=None), "40001", "missing-arguments", "missing required argument: bank")


def table_refusal(case: str) -> str:
    """The refusal of a bank outside the page's table: that table, in the page's order."""
    if case == "Wallet TWD LINEPay":
        return "bank: must be PD-EPOINT-LINEPAY for LINEPay"
    method, currency = case.split()
    where = f"{method} in {currency}" if method == "BankTransfer" else method  # OTC is Taiwan's only
    return f"bank: must be one of {', '.join(BANK_TABLES[case])} for {where}"


# A bank of another page's table (or of none), sent to each page.
FOREIGN_BANKS = [
    ("BankTransfer IDR", "PD-STORE-FAMI"),
    ("BankTransfer IDR", "BANK BCA"),
    ("BankTransfer TWD", "PD-ATM-CTCB"),
    ("BankTransfer TWD", "BANK MANDIRI"),
    ("OTC TWD", "PD-STORE-FAMI"),
    ("OTC TWD", "PD-EPOINT-LINEPAY"),
    ("Wallet TWD LINEPay", "PD-ATM-CTCB"),
    ("Wallet TWD LINEPay", "PD-STORE-FAMI"),
]


@pytest.mark.parametrize(("case", "bank"), FOREIGN_BANKS)
def test_a_bank_outside_the_pages_table_is_refused_naming_the_table(api, row_counts, case, bank):
    refused(api, row_counts, body_of(case, bank=bank), "40002", "invalid-parameter", table_refusal(case))


@pytest.mark.parametrize(
    ("case", "bank"),
    [
        ("BankTransfer IDR", "bank mandiri"),
        ("BankTransfer TWD", "pd-store-fami"),
        ("OTC TWD", "pd-atm-ctcb"),
        ("Wallet TWD LINEPay", "pd-epoint-linepay"),
    ],
)
def test_bank_ids_are_taken_in_any_case(api, case, bank):
    api.post("/trade/pay", body_of(case, bank=bank), expect=200)


WALLET_CURRENCY = "order_currency: must be {} for Wallet"
OTHER_RULES = [
    # AlipayPlus's page fixes its channel
    ("AlipayPlus", {"channel": "GCash"}, "40002", "invalid-parameter", "channel: must be AlipayPlus for AlipayPlus"),
    ("AlipayPlus", {"channel": "Wallet"}, "40002", "invalid-parameter", "channel: must be AlipayPlus for AlipayPlus"),
    # each channel and method in its page's currency only
    ("Wallet MYR BOOST", {"order_currency": "PHP"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("MYR")),
    ("Wallet PHP GCash", {"order_currency": "MYR"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("PHP")),
    ("Wallet THB TrueMoney", {"order_currency": "PHP"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("THB")),
    ("Wallet CNY AlipayCN", {"order_currency": "HKD"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("CNY")),
    ("Wallet HKD AlipayHK", {"order_currency": "CNY"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("HKD")),
    ("Wallet IDR DANA", {"order_currency": "MYR"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("IDR")),
    ("Wallet KRW TOSS", {"order_currency": "USD"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("KRW")),
    ("Wallet TWD LINEPay", {"order_currency": "THB"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("TWD")),
    ("Wallet RUB QIWI", {"order_currency": "TRY"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("RUB")),
    ("Wallet TRY Papara", {"order_currency": "EUR"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("TRY")),
    ("Wallet EGP FawryPay", {"order_currency": "TRY"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("EGP")),
    ("QRPH", {"order_currency": "THB"}, "40002", "invalid-parameter", "order_currency: must be PHP for QRPH"),
    ("AlipayPlus", {"order_currency": "KRW"}, "40002", "invalid-parameter", "order_currency: must be PHP for AlipayPlus"),
    ("BankTransfer IDR", {"order_currency": "TWD"}, "40002", "invalid-parameter", table_refusal("BankTransfer TWD")),  # TWD's page's banks
    ("OTC TWD", {"order_currency": "IDR"}, "40002", "invalid-parameter", "order_currency: must be TWD for OTC"),
    # "Only Integer" (Indonesia's bank transfer), where IDR itself has two decimals
    ("BankTransfer IDR", {"order_amount": "15000.50"}, "40002", "invalid-parameter", "order_amount: must be a whole number of IDR for BankTransfer"),
    # a channel of another country's page is taken in its own page's currency only
    ("Wallet KRW TOSS", {"channel": "LINEPay"}, "40002", "invalid-parameter", WALLET_CURRENCY.format("TWD")),
    # the Korean page: the e-mail "Required for SamsungPay, Payco, TOSS" (the interface: for every payment)
    ("Wallet KRW TOSS", {"customer": {"identify": {"type": "RRN", "number": "9001011234568"}, "name": NAME, "phone": "821012345678"}}, "40001", "missing-arguments", "missing required argument: customer.email"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "overrides", "code", "sub_code", "sub_msg"), OTHER_RULES)
def test_the_pages_other_rules_are_refused_exactly_and_write_nothing(
    api, row_counts, case, overrides, code, sub_code, sub_msg
):
    refused(api, row_counts, body_of(case, **overrides), code, sub_code, sub_msg)


@pytest.mark.parametrize("channel", [None, "AlipayPlus", "alipayplus"])
def test_alipayplus_takes_its_fixed_channel_in_any_case_or_none(api, channel):
    trade = api.post("/trade/pay", body_of("AlipayPlus", channel=channel), expect=200)
    assert api.post("/trade/query", {"trade_no": trade["trade_no"]}, expect=200)["method"] == "AlipayPlus"


def test_alipayplus_trades_carry_their_fixed_channel(api, outbox):
    trade_no = api.post("/trade/pay", body_of("AlipayPlus"), expect=200)["trade_no"]
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200).get("channel") == "AlipayPlus"
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    assert callback_of(outbox, trade_no)["channel"] == "AlipayPlus"


# --- paid in the sandbox, notified, not refunded -------------------------------------------------------


def callback_of(outbox, trade_no: str) -> dict:
    [(_, _, callback)] = outbox(trade_no)
    return callback


@pytest.mark.parametrize("case", list(CASES))
def test_each_trade_is_paid_in_the_sandbox_notified_with_its_amount_and_not_refunded(
    api, send_example, outbox, row_counts, case
):
    sent = json.loads(request_text(case))
    trade = send(send_example, request_text(case))
    trade_no, currency = trade["trade_no"], sent["order_currency"]
    amount = shown(sent["order_amount"], currency)
    assert outbox(trade_no) == []  # PROCESSING is not notified
    assert api.post(f"/sandbox/trades/{trade_no}/pay", expect=200) == {
        "code": "10000",
        "msg": "Success",
        "trade_no": trade_no,
        "out_trade_no": sent["out_trade_no"],
        "trade_status": "SUCCESS",
    }
    callback = callback_of(outbox, trade_no)
    assert {k: callback[k] for k in ("trade_status", "amount", "currency", "method", "channel")} == {
        "trade_status": "SUCCESS",
        "amount": amount,
        "currency": currency,
        "method": sent["method"],
        "channel": sent["channel"] if sent["method"] in ("Wallet", "AlipayPlus") else "",
    }
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["order_amount"], query["refundable_amount"]) == (
        "SUCCESS",
        amount,
        shown("0", currency),
    )
    what = f"{sent['method']} ({sent['channel']})" if sent["method"] == "Wallet" else sent["method"]
    before = row_counts()
    answer = api.post("/trade/refund", builders.refund(trade_no, amount, refund_currency=currency), expect=400)
    assert answer == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "refund-not-supported",
        "sub_msg": f"{what} payments in {currency} cannot be refunded",
    }
    assert row_counts() == before


# --- the card pages ----------------------------------------------------------------------------------


def card_text(api, send_example, row_counts, country: str, amount: str | None = None, checked: bool = True) -> str:
    """The card page's example as a merchant ends up sending it (`checked`: refused as printed, refused with
    the page's `${token}`), then with a token of ours, and `amount` instead of the example's if given."""
    page = CARD_PAGES[country]
    text = mended(page)
    if not checked:
        return card_text_with(api, text, amount)
    as_printed_is_refused(send_example, row_counts, page)
    before = row_counts()
    assert send_example("/trade/pay", text) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "invalid-card-token",
            "sub_msg": "token: unknown card token",
        },
    )
    assert row_counts() == before
    return card_text_with(api, text, amount)


def card_text_with(api, text: str, amount: str | None) -> str:
    if amount is not None:
        text = text.replace('"order_amount": "100.00"', f'"order_amount": "{amount}"', 1)
    return text.replace("${token}", api.post("/card/token", builders.card(), expect=200)["token"])


@pytest.mark.parametrize("country", list(CARD_PAGES))
def test_each_card_page_is_answered_authorized_notified_and_refunded(
    api, client, send_example, row_counts, outbox, work, country
):
    text = card_text(api, send_example, row_counts, country)
    body, sent = send(send_example, text), json.loads(text)
    holds_the_pages_fields(client, body, ANSWERS["CreditCard"], sent)
    currency, trade_no = sent["order_currency"], body["trade_no"]
    amount = shown("100.00", currency)  # 100.000 in BHD, KWD and OMR
    assert outbox(trade_no) == []
    work()  # the worker authorizes the card
    callback = callback_of(outbox, trade_no)
    assert (callback["trade_status"], callback["amount"], callback["currency"], callback["method"]) == (
        "SUCCESS",
        amount,
        currency,
        "CreditCard",
    )
    refund = api.post("/trade/refund", builders.refund(trade_no, amount, refund_currency=currency), expect=200)
    assert (refund["refund_amount"], refund["refund_currency"], refund["refund_status"]) == (
        amount,
        currency,
        "SUCCESS",
    )
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["refunded_amount"], query["refundable_amount"]) == (
        "REFUNDED",
        amount,
        shown("0", currency),
    )


@pytest.mark.parametrize("country", list(CARD_PAGES))
def test_each_card_page_keeps_its_range(api, send_example, row_counts, country):
    currency = CARD_PAGES[country].currency
    unit = Decimal(1).scaleb(-ISO_DIGITS[currency])
    card_text(api, send_example, row_counts, country)  # the example's own refusals, checked once
    for amount in (str(Decimal("0.5") - unit), str(Decimal(50000) + unit)):
        text = card_text(api, send_example, row_counts, country, amount, checked=False)
        before = row_counts()
        assert send_example("/trade/pay", text) == (
            400,
            {
                "code": "40002",
                "msg": "Business Failed",
                "sub_code": "invalid-parameter",
                "sub_msg": f"order_amount: must be 0.5 to 50000 {currency} for CreditCard",
            },
        )
        assert row_counts() == before
    for n, amount in enumerate(("0.5", "50000")):
        text = card_text(api, send_example, row_counts, country, amount, checked=False)
        send(send_example, text.replace("202201010354003", f"edge-{n}"))


# --- currencies: ISO 4217 minor units ----------------------------------------------------------------


def stored_minor(app, trade_no: str) -> int | None:
    """What the trades table holds as the trade's amount."""
    with app.app_context():
        return db.session.scalar(select(Trade.amount_minor).where(Trade.trade_no == trade_no))


@pytest.mark.parametrize(
    ("case", "amount", "minor", "text"),
    [
        ("Wallet KRW KakaoPay", "300", 300, "300"),
        ("Wallet KRW KakaoPay", "300.00", 300, "300"),  # trailing zeros are no decimals
        ("Wallet IDR DANA", "300.50", 30050, "300.50"),
        ("BankTransfer IDR", "15000", 1500000, "15000.00"),
        ("Wallet TWD LINEPay", "50.25", 5025, "50.25"),
        ("OTC TWD", "30", 3000, "30.00"),
    ],
)
def test_amounts_are_kept_in_their_currencys_minor_units(app, api, outbox, case, amount, minor, text):
    trade_no = api.post("/trade/pay", body_of(case, order_amount=amount), expect=200)["trade_no"]
    assert stored_minor(app, trade_no) == minor
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["order_amount"] == text
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    assert callback_of(outbox, trade_no)["amount"] == text


@pytest.mark.parametrize(
    ("case", "amount", "currency", "places"),
    [
        ("Wallet KRW KakaoPay", "300.5", "KRW", 0),
        ("Wallet KRW NaverPay", "100.01", "KRW", 0),
        ("Wallet IDR DANA", "300.505", "IDR", 2),
        ("Wallet TWD LINEPay", "50.255", "TWD", 2),
        ("Wallet MYR BOOST", "0.105", "MYR", 2),
    ],
)
def test_an_amount_finer_than_its_currency_is_refused_never_rounded(api, row_counts, case, amount, currency, places):
    message = f"order_amount: at most {places} decimal places for {currency}"
    refused(api, row_counts, body_of(case, order_amount=amount), "40002", "invalid-parameter", message)


@pytest.mark.parametrize(
    ("country", "amount", "minor", "text", "part"),
    [
        ("bahrain", "1.250", 1250, "1.250", "0.125"),
        ("kuwait", "0.5", 500, "0.500", "0.125"),
        ("oman", "12.345", 12345, "12.345", "2.345"),
        ("qatar", "1.25", 125, "1.25", "0.25"),
    ],
)
def test_card_amounts_are_kept_in_minor_units_and_shown_with_their_currencys_decimals(
    app, api, send_example, row_counts, outbox, work, country, amount, minor, text, part
):
    currency = CARD_PAGES[country].currency
    trade_no = send(send_example, card_text(api, send_example, row_counts, country, amount))["trade_no"]
    assert stored_minor(app, trade_no) == minor
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["order_amount"] == text
    work()
    callback = callback_of(outbox, trade_no)
    assert (callback["trade_status"], callback["amount"]) == ("SUCCESS", text)
    refund = builders.refund(trade_no, part, refund_currency=currency, out_request_no="part-1")
    assert api.post("/trade/refund", refund, expect=200)["refund_amount"] == part
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    rest = str(Decimal(text) - Decimal(part))
    assert (query["refunded_amount"], query["refundable_amount"]) == (part, rest)


@pytest.mark.parametrize(
    ("country", "amount", "places"),
    [
        ("bahrain", "1.2345", 3),
        ("kuwait", "0.5001", 3),
        ("saudi-arabia", "100.005", 2),
        ("united-arab-emirates", "1.001", 2),
    ],
)
def test_a_card_amount_finer_than_its_currency_is_refused(api, send_example, row_counts, country, amount, places):
    currency = CARD_PAGES[country].currency
    text = card_text(api, send_example, row_counts, country, amount)
    before = row_counts()
    assert send_example("/trade/pay", text) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "invalid-parameter",
            "sub_msg": f"order_amount: at most {places} decimal places for {currency}",
        },
    )
    assert row_counts() == before
