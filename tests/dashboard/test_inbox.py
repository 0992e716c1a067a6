"""The sandbox inbox page: its notify_url, and only the signed-in merchant's messages."""

import json

from tests.conftest import PUBLIC_URL, Api, make_merchant

from .helpers import add_user


def test_the_dashboard_shows_each_merchant_its_own_inbox(app, api, client, make_browser):
    other = Api(client, make_merchant(app, "Outra Loja"))
    client.post(f"/sandbox/inbox/{api.app_id}", data=json.dumps({"notify_id": "mine-1"}).encode())
    client.post(f"/sandbox/inbox/{other.app_id}", data=json.dumps({"notify_id": "theirs-1"}).encode())
    add_user(app, api.credentials, "a@shop.example")
    browser = make_browser()
    assert browser.log_in("a@shop.example").status_code == 302
    page = browser.get("/dashboard/developers/inbox")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'<code id="inbox-url">{f"{PUBLIC_URL}/sandbox/inbox/{api.app_id}"}</code>' in html
    assert "mine-1" in html and "theirs-1" not in html
    assert "not verified" in html
    assert 'id="dev-nav-developer_inbox"' in html


def test_a_forward_by_checkout_listen_shows_on_the_delivery(app, api, make_browser):
    from tests import builders

    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no="fwd-1", notify_url="http://10.0.0.1/n"), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    [delivery] = api.get("/sandbox/deliveries")["deliveries"]
    result = {"status_code": 200, "response": "success", "duration_ms": 7}
    api.client.post(f"/sandbox/notifications/stream/{delivery['id']}/result", json=result, headers=api.auth)
    add_user(app, api.credentials, "a@shop.example")
    browser = make_browser()
    assert browser.log_in("a@shop.example").status_code == 302
    html = browser.get(f"/dashboard/developers/deliveries/{delivery['id']}").get_data(as_text=True)
    assert "(forwarded by checkout listen)" in html and "7 ms" in html
