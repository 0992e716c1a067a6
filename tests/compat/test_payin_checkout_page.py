# ruff: noqa: E101  (the e-commerce example mixes tabs and spaces, as the provider's page prints it)
"""The provider's checkout-page examples (payin/checkout-page/general.md, E-com.md) sent to /trade/create as
its pages print them: the "*" marks of required fields are taken out (the page uses them as a legend; they
are not JSON), the app id and the 2022 timestamp replaced. Nothing else is changed."""

import json
from datetime import datetime, timedelta
from urllib.parse import parse_qs, quote, urlsplit

from .helpers import unmarked

GENERAL_EXAMPLE = """{
      "charset": "UTF-8",
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354002",
    * "order_currency": "BRL",
    * "order_amount": "12.01",
    * "subject": "item name",
    * "content": "item description",
    * "trade_type": "WEB",
      "timeout_express": "1d",
    * "timestamp": "{timestamp}",
    * "notify_url": "http://merchant/callback/success",
    * "buyer_id": "buyer_0101_0001",
    * "version": "2.0",
      "customer": {
          "identify": {
              "type": "CPF",
              "number": "50284414727"
          },
      "name": "Test User Name",
      "email": "test@pagsmile.com"
      },
      "regions": ["BRA"],
      "address": {
          "zip_code": "38082365"
      }
}"""

ECOM_EXAMPLE = """{
      "charset": "UTF-8",
    * "app_id": "{app_id}",
    * "out_trade_no": "202201010354002",
    * "order_currency": "BRL",
    * "order_amount": "12.01",
    * "subject": "item name",
    * "content": "20 item description",
    * "trade_type": "WEB",
      "timeout_express": "15d",
    * "timestamp": "{timestamp}",
    * "notify_url": "http://merchant/callback/success",
    * "buyer_id": "buyer_0101_0001",
    * "version": "2.0",
    * "customer" : {
    *     "identification": {
    *         "type": "CPF",
    *         "number": "50284414001"
        },
    *     "name": "customer user name",
    *     "email": "test@gmail.com",
    *     "phone": "5511987654321",
    * 	"buyer_id": "buyer_0101_0001",
        "ip": "127.0.0.1"
      },
    * "address":{
    * 	         "postal_code":"38082365",
    *            "country":"address test country",
    *            "state":"address state123",
    *            "city":"address city123",
    *            "street":"address streetqqq",
    *            "street_number":"4567",
    *            "neighborhood":"neighbor address222"
   			 },
    * "billing": {
    *     "address": {
    *            "postal_code":"38082365",
    *            "country":"billingtest country001",
    *            "state":"billingstate123",
    *            "city":"billingcity123",
    *            "street":"billingstreetqqq",
    *            "street_number":"22222",
    *            "neighborhood":"billingneighborhood222"
          },
    *     "identification": {
    *         "type": "cpf",
    *         "number": "50284414727"
        },
    *     "email": "email@test.com",
    *     "name": "test",
    *     "phone": "5511987654321"
      },
    * "shipping": {
    *     "address": {
    *            "postal_code":"38082365",
    *            "country":"Brazil",
    *            "state":"shipping state123",
    *            "city":"shipping city123",
    *            "street":"shipping streetqqq",
    *            "street_number":"4567",
    *            "neighborhood":"shipping hood222"
          },
    *     "identification": {
    *         "type": "cpf",
    *         "number": "50284414727"
          },
    *     "email": "email@test.com",
    *     "name": "test",
    *     "phone": "5511987654321"
      },
    * "products": [
          {
    *         "quantity": "1",
    *         "name": "product 1",
    *         "url": "https://www.pagsmile.com/product/1",
    *         "description": "this is a product"
          },
          {
           "quantity": "1",
           "name": "product 2",
           "url": "https://www.pagsmile.com/product/2",
           "description": "this is a product"
          },
          {
           "quantity": "3",
           "name": "product 3",
           "url": "https://www.pagsmile.com/product/3",
           "description": "this is a product"
        },
        {
           "quantity": "4",
            "name": "product 4",
            "url": "https://www.pagsmile.com/product/4",
            "description": "this is a product"
        }
    ]
}"""

# No checkout page prints a request with trade_type API (their tables say "fixed value: WEB"; API is printed
# only on the pre-authorization page): the API flow's request is the general example with that one value
# changed, every other byte the page's.
API_EXAMPLE = GENERAL_EXAMPLE.replace('"trade_type": "WEB"', '"trade_type": "API"')

# The documented answer: these fields, and web_url a page carrying prepay_id or its equivalent.
DOCUMENTED = {"code": "10000", "msg": "Success"}
DOCUMENTED_FIELDS = {"trade_no", "out_trade_no", "web_url", "prepay_id"}


def test_the_general_example_opens_a_checkout(api, send_example):
    status, body = send_example("/trade/create", unmarked(GENERAL_EXAMPLE))
    assert status == 200, body
    assert {key: body[key] for key in DOCUMENTED} == DOCUMENTED
    assert set(body) >= DOCUMENTED_FIELDS
    assert body["out_trade_no"] == "202201010354002"
    assert body["web_url"].startswith("http://checkout.test/pages/checkout?token=")
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["order_amount"], query["order_currency"]) == ("INITIAL", "12.01", "BRL")
    created, expires = (datetime.fromisoformat(query[k]) for k in ("create_time", "expire_time"))
    assert expires - created == timedelta(days=1)  # "timeout_express": "1d"


def test_a_repeat_answers_the_documented_duplicate(send_example):
    send_example("/trade/create", unmarked(GENERAL_EXAMPLE))
    status, body = send_example("/trade/create", unmarked(GENERAL_EXAMPLE))
    assert status == 400
    assert body == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "duplicate-out_trade_no",
        "sub_msg": "out_trade_no is duplicate",
    }


def test_the_e_commerce_example_opens_a_checkout_with_its_customer_pre_filled(api, customer, send_example):
    example = unmarked(ECOM_EXAMPLE)
    assert json.loads(example.replace("{app_id}", "x").replace("{timestamp}", "y"))["timeout_express"] == "15d"
    status, body = send_example("/trade/create", example)
    assert status == 200, body
    assert {key: body[key] for key in DOCUMENTED} == DOCUMENTED and set(body) >= DOCUMENTED_FIELDS
    page = customer.get(body["web_url"] + "&method=Boleto").get_data(as_text=True)
    # Its "identification" and "postal_code" spellings pre-fill the page like identify and zip_code.
    for value in ("customer user name", "50284414001", "38082365", "address city123", "4567"):
        assert f'value="{value}"' in page


def encode_uri_component(text: str) -> str:
    return quote(text, safe="-_.!~*'()")


def test_the_general_example_with_trade_type_api_answers_prepay_id_and_the_pages_link_opens_it(
    app, api, customer, send_example
):
    assert API_EXAMPLE.count('"trade_type": "API"') == 1 and len(API_EXAMPLE) == len(GENERAL_EXAMPLE)
    status, body = send_example("/trade/create", unmarked(API_EXAMPLE))
    assert status == 200, body
    assert {key: body[key] for key in DOCUMENTED} == DOCUMENTED and set(body) >= DOCUMENTED_FIELDS
    assert (body["out_trade_no"], body["web_url"], body["trade_status"]) == ("202201010354002", "", "INITIAL")
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["order_amount"], query["prepay_id"]) == ("INITIAL", "12.01", body["prepay_id"])
    # The page's hint: `<checkout>?prepay_id={$prepay_id}&return_url=encodeURIComponent({$return_url})`.
    back = "https://shop.example/return?order=202201010354002&step=paid"
    opened = customer.get(f"/?prepay_id={body['prepay_id']}&return_url={encode_uri_component(back)}")
    assert opened.status_code == 303
    location = opened.headers["Location"]
    assert location.startswith("http://checkout.test/pages/checkout?token=")
    assert parse_qs(urlsplit(location).query)["return_url"] == [back]
    page = customer.get(location + "&method=PIX")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    # The example's customer, pre-filled as on the WEB flow's page.
    for value in ("Test User Name", "50284414727", "test@pagsmile.com"):
        assert f'value="{value}"' in html
