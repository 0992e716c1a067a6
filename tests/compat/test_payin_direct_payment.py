"""The provider's Brazil direct-payment pages (payin/submit-a-payin/brazil/*.md): each page's /trade/pay
request example sent as it prints it, and our answer held field by field to the page's response example.

From each example only the curl wrapper and the "*" marks of required fields (the page's legend, not JSON)
are taken out, and the app id placed; the 2022 timestamp stays (payin timestamps are checked for their
format only). Where the interface requires what an example leaves out (`customer.phone`, `address.zip_code`,
`address.state`, `.city`, `.street`, `.street_number`: its direct-payment table marks them required for every
method), the test adds them, and says so. OpenFinance (brazil/openfinance.md) is not a method of ours, and
the general page's example (submit-a-payin/README.md) is not JSON (`"street";`, a curly quote and a full-width comma), so neither is sent.
"""

import base64
import re

import pytest

from checkout.brazil import boleto, brcode, qrimage
from tests import builders

from .helpers import WALLET_EXAMPLE, unmarked, with_required

# --- the pages' request examples -------------------------------------------------------------------

PIX_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354002",
    * "method": "PIX",
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

BOLETO_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "Boleto",
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
      },
    * "address" : {
    *     "zip_code": "38082365"
      }
      }"""

LOTTERY_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "Lottery",
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
    *     "email": "test@pagsmile.com",
    *     "phone": "75991435892"
      },
      "address" : {
          "zip_code": "38082365"
      }
      }"""

DEPOSIT_EXPRESS_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "DepositExpress",
    * "bank": "Bradesco",
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
    *     "email": "test@pagsmile.com",
    *     "phone": "75991435892"
      }
      }"""


# `${token}` is the page's placeholder for a token from its JavaScript library; a token of ours takes its
# place. `${fingerprint}` stays: any text is a fingerprint to the sandbox.
CREDIT_CARD_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354003",
    * "method": "CreditCard",
    * "order_amount": "12.01",
    * "order_currency": "BRL",
    * "subject": "trade pay test",
    * "content": "trade pay test conent",
    * "notify_url": "http://merchant/callback/success",
      "return_url": "https://www.merchant.com",
    * "buyer_id": "buyer_0101_0001",
    * "user_ip":"127.0.0.1",
    * "token":"${token}",
    * "fingerprint":"${fingerprint}",
    * "issuer":"visa",
      "installments":"1",
    * "timestamp": "2022-01-01 03:54:01",
      "timeout_express":"1c",
    * "customer" : {
    *     "identify": {
    *         "type": "CPF",
    *         "number": "11032341882"
          },
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com",
    *     "phone": "75991435892"
      },
    * "address" : {
    *     "zip_code": "38082365"
      },
    * "threeds": {
    *     "sli": "",
    *     "version": "",
    *     "cavv": "",
    *     "eci": "",
    *     "server_trans_id": "",
    *     "xid": "",
          "cvv": "",
          "avs": "",
          "status": "",
    *     "status_code": "",
          "status_reason_code": "",
          "liability_shift": true
      }
      }"""

# --- what the interface requires beyond them ---------------------------------------------------------


# --- the pages' response examples ------------------------------------------------------------------

ANSWERS = {
    "PIX": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "pay_url": "https://checkout.pagsmile.com/checkout?prepay_id=TTd5Y1JJbDhKbi9Rd1NPNkZTUVIyNGNsOEFyRWZ4SWw1czd2UE00bmszOD0=-79697e50",
        "trade_status": "PROCESSING",
        "qr_code": "00020126580014br.gov.bcb.pix013627a44d0a-0736-4bbf-a4a4-6e11063973315204000053039865406100.005802BR5908PAGSMILE6008So Paulo62230519mpqrinter123742074363049E0B",
        "qr_code_url": "https://gateway.pagsmile.com/api/trade/qrcode-img?prepay_id=Y1N5dHVPOFJ4Ky9lZVVKVXBrdFFieWttVlhwSGZWMnJYRXBkWW9OaE8wRT0=-9036acF1",
        "qr_code_img": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAMgAAADIAQAAAACFI5MzAAACwUlEQVR42u2XPc7jIBCGx6Kgsy+AxDXouFJyAf9cIL4SHdewxAXsjgJ59p2sFPsrtlhodqVEkQs/UcDz8zAm/tOHvuRL/hkSqOM0O375tLttiES6gUQ+ouky76RWpoe2uNNA6IkbntdQiNKpTddIglpyOr3ibHrfTDKf3s5kd+KVGwliUKasFjYT4wl+RudvCfITzfP6/sjcXxN88jY6i3UelN6LNJBAD8JOcVXMZaT08g0kq5cncrzm8gyld6qJBLtkM2q7e1SiGeKVnxqSFbY8ZPtyW68RA+p1Awlbxxa1c8T0Dqrdm4g6tV0RV512jXDa2TcQ5pm2Ea0mG8c6/KnEGpKRYYW9P6hIwjOvLQQyIJoQ1IAtl1Gro4VEmoLdYT69PXxa81U7NQT7deLRI0gM0HNDbCAiA6wAKxsxn6OBWwjvkpx0hHRw6aK9YlBBsl3f5ns5XvImBe4bSICcTMdqFh+YZ7hFp4JAn0Ht6BLxMfqvNBE4Xm7ApsgzbiNFDSRvKEO4Cu37ZBR1uUxRQcJG2r7PH6xjukBjE+FTo5ztEjco4dQ40BpI5vcxa6Vxc3m4W+1UEDY9mQE5l14po1OXqyoIKpqxcRyzcsV88cl2DWFp3En6WHpuDTcnVpDIs5eEwwq7Q6rhrQbC+G8FuzA6OIpE1yaidpcWZIkhPzl/Zt1AcnoRH4wr+gM/KR9X1RBG725w1RLTu3Zu9q8gQbp29HYJCG3p/W12qSDy9DRxQmhhwdnfqqqG4Nw2MosFaC8tIX1msRqCo0wGOiJSJ85Got43EIHmt6vkFNJlbCGYYQOOa2gASoBTb1NaBcF8DX3CVQwxpx+OryF4k8BOZfY/3TYFerYShVkMj35keQP7OL6WWARywDjAmGSvab2KYDZRiCXiitqZ8eYUG4jkR2pniHCVIXSJbiDfN/4v+T/JL/qJUR2nh9cdAAAAAElFTkSuQmCC",
    },
    "Boleto": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110481300091",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "barcode": "23793864800029999003380260980157275200633330",
        "bank_code": "21890010070215182080679309377384187050000001125",
        "pay_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=bkYvNytBMkN2dnFaVVhXTSs0ckJPaHBBVnkyT3J1M2tyekNzZ3RMZ05ubz0=-3872aF67",
        "trade_status": "PROCESSING",
    },
    "Lottery": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010106532400030",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "barcode": "10499647359216218774123156548721787200000011649",
        "bank_no": "10850221",
        "pay_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=T3c0bUM5VDdQc1M4MThjeDlEVHBiZG5yNEc4V0hBZ3pEMlY2d3A0N2F6UT0=-B20807a4",
        "trade_status": "PROCESSING",
    },
    "DepositExpress": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022021810560500094",
        "out_trade_no": "202201010354003",
        "web_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=Um1RbHBsVENReWlLdWJXSzFDbEFTemtCYjN5S1JUUWJwbEtndFhWSGJ1dz0=-8357Fae6",
        "pay_url": "https://checkout-testv2.pagsmile.com/checkout?prepay_id=Um1RbHBsVENReWlLdWJXSzFDbEFTemtCYjN5S1JUUWJwbEtndFhWSGJ1dz0=-8357Fae6",
        "trade_status": "PROCESSING",
        "provider_owner": "Pagsmile Brasil",
        "provider_owner_document": "23.010.551/0001\xad-31",
        "provider_agency": "0154",
        "provider_number": "13006729-4",
        "bank_name": "santander",
    },
    "Wallet": {  # the PicPay tab, the channel of the request example
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900083",
        "out_trade_no": "202201010354002",
        "web_url": "",
        "trade_status": "PROCESSING",
        "wallet_url": "https://app.picpay.com/checkout/NjIxOGE4ZDc3MzY5MDQ0MGU2MDRiNGM5",
    },
    "CreditCard": {
        "code": "10000",
        "msg": "Success",
        "trade_no": "2022010110293900084",
        "out_trade_no": "202201010354003",
        "web_url": "",
        "trade_status": "PROCESSING",
    },
}

EXAMPLES = {
    "PIX": PIX_EXAMPLE,
    "Boleto": BOLETO_EXAMPLE,
    "Lottery": LOTTERY_EXAMPLE,
    "DepositExpress": DEPOSIT_EXPRESS_EXAMPLE,
    "Wallet": WALLET_EXAMPLE,
    "CreditCard": CREDIT_CARD_EXAMPLE,
}

# Values that are the same in every answer: these must be ours exactly. Ids, addresses and codes differ
# from trade to trade; their form is checked below, method by method.
FIXED = ("code", "msg", "trade_status")
OUR_PAGE = re.compile(r"^http://checkout\.test/pages/pay\?token=[\w.-]+$")


def send(send_example, api, method: str) -> dict:
    example = with_required(unmarked(EXAMPLES[method]))
    if method == "CreditCard":
        example = example.replace("${token}", api.post("/card/token", builders.card(), expect=200)["token"])
    status, body = send_example("/trade/pay", example)
    assert status == 200, body
    return body


def documented_fields(body: dict, method: str) -> None:
    """Every field of the page's answer is ours too, of its type, and the same where it never varies."""
    documented = ANSWERS[method]
    missing = set(documented) - set(body)
    assert not missing, f"{method} lacks {sorted(missing)}"
    for name, value in documented.items():
        assert type(body[name]) is type(value), name
    assert {k: body[k] for k in FIXED if k in documented} == {k: documented[k] for k in FIXED if k in documented}


def test_pix_example(api, client, send_example):
    body = send(send_example, api, "PIX")
    documented_fields(body, "PIX")
    # web_url empty and the page in pay_url, as the PIX page answers.
    assert (body["out_trade_no"], body["web_url"]) == ("202201010354002", "")
    assert OUR_PAGE.match(body["pay_url"])
    code = brcode.parse(body["qr_code"])
    assert (code["26"]["00"], code["54"], code["62"]["05"]) == ("br.gov.bcb.pix", "12.01", body["trade_no"])
    # qr_code_img is a PNG data URI like the page's, of this trade's code; qr_code_url serves the same PNG.
    documented_img = ANSWERS["PIX"]["qr_code_img"]
    prefix = "data:image/png;base64,"
    assert documented_img.startswith(prefix) and body["qr_code_img"].startswith(prefix)
    png = base64.b64decode(body["qr_code_img"].removeprefix(prefix), validate=True)
    assert png == qrimage.png(body["qr_code"])
    assert png[:8] == base64.b64decode(documented_img.removeprefix(prefix))[:8] == b"\x89PNG\r\n\x1a\n"
    image = client.get(body["qr_code_url"].removeprefix("http://checkout.test"))
    assert (image.status_code, image.mimetype, image.data) == (200, "image/png", png)


def test_boleto_example(api, send_example):
    body = send(send_example, api, "Boleto")
    documented_fields(body, "Boleto")
    assert (body["out_trade_no"], body["web_url"]) == ("202201010354003", "")
    assert OUR_PAGE.match(body["pay_url"])
    # barcode: 44 digits, the bar code; bank_code: 47, the line typed to pay, as on the page.
    assert [len(body[k]) for k in ("barcode", "bank_code")] == [
        len(ANSWERS["Boleto"][k]) for k in ("barcode", "bank_code")
    ]
    assert [len(body[k]) for k in ("barcode", "bank_code")] == [44, 47]
    assert boleto.barcode_from_linha(body["bank_code"]) == body["barcode"]
    assert body["barcode"][9:19] == "0000001201"  # R$ 12.01


def test_lottery_example(api, send_example):
    body = send(send_example, api, "Lottery")
    documented_fields(body, "Lottery")
    assert (body["out_trade_no"], body["web_url"]) == ("202201010354003", "")
    assert OUR_PAGE.match(body["pay_url"])
    # The page's barcode is a 47-digit line and bank_no 8 digits: ours are too.
    assert len(body["barcode"]) == len(ANSWERS["Lottery"]["barcode"]) == 47
    assert boleto.barcode_from_linha(body["barcode"])[9:19] == "0000001201"
    assert re.fullmatch(r"[0-9]{8}", body["bank_no"]) and re.fullmatch(r"[0-9]{8}", ANSWERS["Lottery"]["bank_no"])


def test_deposit_express_example(api, send_example):
    body = send(send_example, api, "DepositExpress")
    documented_fields(body, "DepositExpress")
    assert body["out_trade_no"] == "202201010354003"
    # The page answers its payment page as both web_url and pay_url.
    assert OUR_PAGE.match(body["pay_url"]) and body["web_url"] == body["pay_url"]
    assert (body["bank_name"], body["provider_agency"], body["provider_number"]) == (
        "Banco Bradesco",
        "3381",
        "0184522-1",
    )


def test_wallet_example(api, send_example):
    body = send(send_example, api, "Wallet")
    documented_fields(body, "Wallet")
    assert (body["out_trade_no"], body["web_url"]) == ("202201010354003", "")
    assert body["wallet_url"].startswith("http://checkout.test/pages/wallet?token=")


def test_credit_card_example(api, send_example, outbox, work):
    """As the page shows: PROCESSING, and the card's outcome by callback once the worker has charged it."""
    body = send(send_example, api, "CreditCard")
    documented = ANSWERS["CreditCard"]
    assert {k: body[k] for k in ("code", "msg", "out_trade_no", "web_url", "trade_status")} == {
        k: documented[k] for k in ("code", "msg", "out_trade_no", "web_url", "trade_status")
    }
    assert all(type(body[k]) is type(v) for k, v in documented.items())
    assert outbox(body["trade_no"]) == []
    work()
    [(_, _, callback)] = outbox(body["trade_no"])
    assert (callback["trade_status"], callback["out_trade_no"], callback["method"]) == (
        "SUCCESS",
        "202201010354003",
        "CreditCard",
    )


@pytest.mark.parametrize("method", list(EXAMPLES))
def test_a_repeat_answers_the_pages_duplicate(api, send_example, method):
    send(send_example, api, method)
    example = with_required(unmarked(EXAMPLES[method])).replace("${token}", "tok_repeat")
    status, body = send_example("/trade/pay", example)
    assert (status, body) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "duplicate-out_trade_no",
            "sub_msg": "out_trade_no is duplicate",
        },
    )
