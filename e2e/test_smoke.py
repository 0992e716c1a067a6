"""The live server answers a real browser and a merchant's HTTP client."""

import base64
from datetime import datetime

import requests
from playwright.sync_api import expect

from checkout.brazil import brcode


def test_browser_reaches_the_live_server(page, live_server):
    page.goto(f"{live_server}/healthz")
    expect(page.locator("body")).to_contain_text('"status":"ok"')


def test_pix_payment_against_the_live_server(live_server, merchant):
    auth = base64.b64encode(f"{merchant['app_id']}:{merchant['security_key']}".encode()).decode()
    body = {
        "app_id": merchant["app_id"],
        "timestamp": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
        "out_trade_no": "e2e-1",
        "method": "PIX",
        "order_currency": "BRL",
        "order_amount": "25.00",
        "subject": "E2E",
        "notify_url": "http://127.0.0.1:9/notify",
        "buyer_id": "b1",
        "customer": {
            "name": "Ana",
            "email": "ana@example.com",
            "phone": "+5511987654321",
            "identify": {"type": "CPF", "number": "39053344705"},
        },
        "address": {
            "zip_code": "01310100",
            "state": "SP",
            "city": "São Paulo",
            "street_number": "1",
            "street": "Av. Paulista",
        },
    }
    answer = requests.post(
        f"{live_server}/trade/pay", json=body, headers={"Authorization": f"Basic {auth}"}, timeout=10
    ).json()
    assert answer["trade_status"] == "PROCESSING"
    assert brcode.parse(answer["qr_code"])["54"] == "25.00"
    paid = requests.post(
        f"{live_server}/sandbox/trades/{answer['trade_no']}/pay", headers={"Authorization": f"Basic {auth}"}, timeout=10
    ).json()
    assert paid["trade_status"] == "SUCCESS"
