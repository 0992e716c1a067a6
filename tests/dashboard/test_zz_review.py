"""Throwaway review probes (DELETE ME)."""
from __future__ import annotations
import io, json, re
from checkout.db import db
from checkout.api.requestlog import ApiRequest
from tests import builders
from .test_overview import add_user
from .conftest import PASSWORD, csrf


def login(app, api, make_browser, email="a@shop.example"):
    add_user(app, api.credentials, email)
    b = make_browser()
    b.log_in(email)
    return b


def test_crashes(app, api, make_browser):
    b = login(app, api, make_browser)
    urls = [
        "/dashboard/payouts?last_day=9999-12-31",
        "/dashboard/payouts?first_day=9999-12-31",
        "/dashboard/payouts?first_day=0000-00-00",
        "/dashboard/payouts?before=%00",
        "/dashboard/payouts?before=MDAwMDAwMDAwMDAwMDAwMDAwMDAuMQ",
        "/dashboard/payouts?q=%00",
        "/dashboard/payments?date_to=9999-12-31",
        "/dashboard/payments?date_from=9999-12-31",
        "/dashboard/payments?date_from=0001-01-01&date_to=0001-01-01",
        "/dashboard/payments?date_from=0000-00-00",
        "/dashboard/payments?after=%FF%FE",
        "/dashboard/payments?after=OTk5OS0xMi0zMVQyMzo1OTo1OSswMDowMHwx",
        "/dashboard/payments?q=%00",
        "/dashboard/vaults?before=xx&q=%00",
        "/dashboard/vaults?status=%00",
        "/dashboard/developers/requests?before=999999999999999999",
        "/dashboard/developers/requests?before=%EF%BC%91",
        "/dashboard/developers/requests?path=%00",
        "/dashboard/developers/deliveries?before=%D9%A1",
        "/dashboard/developers/deliveries?before=00000000000000000001",
        "/dashboard/developers/deliveries/%00",
        "/dashboard/vaults/%00",
        "/dashboard/payouts/%00",
        "/dashboard/payments/%00",
        "/dashboard/settings/preview/%00",
        "/dashboard/payments?status=%00&method=x",
        "/dashboard?language=%00",
        "/dashboard/payments?language=<script>",
    ]
    for u in urls:
        r = b.get(u)
        print(r.status_code, u, r.content_type)


def test_unicode_digits(app, api, make_browser):
    b = login(app, api, make_browser)
    # str.isdigit accepts superscripts etc. int() fails on superscript
    for v in ["%C2%B2", "%E2%91%A0", "%D9%A1%D9%A2"]:
        for u in (f"/dashboard/developers/requests?before={v}", f"/dashboard/developers/deliveries?before={v}"):
            r = b.get(u)
            print(r.status_code, u)


def test_signature_oracle(app, api, fund, make_browser, client):
    b = login(app, api, make_browser)
    fund(api.credentials, "USD", "1000.00")
    body = builders.payout("stolen-1", notify_url=None)
    body.pop("notify_url")
    text = json.dumps(body)
    r = b.submit("/dashboard/developers/signature", {"body": text, "signature": ""})
    html = r.get_data(as_text=True)
    sig = re.search(r'id="signature-expected">([0-9a-f]{64})<', html).group(1)
    # use it without the app_key
    resp = client.post("/api/payout", data=text, content_type="application/json",
                       headers={"AppId": api.credentials["app_id"], "Authorization": sig})
    print("ORACLE payout:", resp.status_code, resp.get_json())


def test_redaction(app, api, make_browser, client):
    b = login(app, api, make_browser)
    bad_json = '{"app_id":"%s","timestamp":1,"card":{"card_no":"4111 1111 1111 1111","cvv":"123","valid_thru_year":"2031","valid_thru_month":"12","holder":{"name":"Ana"}},}' % api.app_id
    client.post("/card/token", data=bad_json, content_type="application/json", headers=api.auth)
    form = "card_no=4111-1111-1111-1111&cvv=123&app_key=secretvalue&security_key=sk_abc"
    client.post("/card/token", data=form, content_type="application/x-www-form-urlencoded", headers=api.auth)
    # valid JSON, number split in other shapes
    client.post("/card/token", json={"app_id": api.app_id, "timestamp": 1, "card": {"cardNo": "4111111111111111", "CVV ": "999", "card_no": 4111111111111111, "cvv": 123, "valid_thru_year": "2031", "valid_thru_month": "12", "holder": {"name": "4111111111111111"}}}, headers=api.auth)
    with app.app_context():
        for row in db.session.query(ApiRequest).all():
            print("LOG", row.path, row.status, row.request_body[:400])
    html = b.get("/dashboard/developers/requests").get_data(as_text=True)
    print("PAGE has full PAN:", "4111 1111 1111 1111" in html, "4111-1111-1111-1111" in html, "secretvalue" in html)


def test_routes_and_csrf(app, api, make_browser):
    b = login(app, api, make_browser)
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/dashboard"):
            ms = sorted(rule.methods - {"HEAD", "OPTIONS"})
            print("ROUTE", ms, rule.rule)
            if "POST" in ms:
                path = re.sub(r"<[^>]+>", "x", rule.rule)
                r = b.client.post(path, data={"password": PASSWORD, "rotate_password": PASSWORD, "confirm": "y", "seconds": "3600", "email": "a@shop.example", "body": "{}"}, environ_base={"REMOTE_ADDR": b.address})
                print("   no-token POST", r.status_code)


def test_redirects(app, api, other_api, make_browser):
    b = login(app, api, make_browser)
    trade = api.post("/trade/pay", builders.direct("PIX", "order-a", notify_url="http://127.0.0.1:9/cb"), expect=200)["trade_no"]
    with app.app_context():
        from checkout.notifications.models import OutboxMessage
        msgs = db.session.query(OutboxMessage).all()
        print("MSGS", [(m.notify_id, m.kind) for m in msgs])
    for back in ["//evil.com", "/dashboard/../..//evil.com", "/dashboard/..%2f..%2f/evil.com", "/dashboard\t/x", "/dashboard@evil.com", "/dashboard/%0d%0aSet-Cookie:x=1"]:
        html = b.get(f"/dashboard/payments/{trade}").get_data(as_text=True)
        tok = csrf(html)
        if msgs:
            r = b.client.post(f"/dashboard/developers/deliveries/{msgs[0].notify_id}/resend", data={"csrf_token": tok, "back": back}, environ_base={"REMOTE_ADDR": b.address})
            print("RESEND", repr(back), r.status_code, r.headers.get("Location"))
    c = make_browser()
    for nxt in ["//evil.com", "/dashboard/../..//evil.com", "https://evil.com", "/dashboard/%5c%5cevil.com"]:
        tok = csrf(c.get("/dashboard/login").get_data(as_text=True))
        r = c.client.post("/dashboard/login?next=" + nxt.replace("%", "%25") if "%" in nxt else "/dashboard/login?next=" + nxt, data={"csrf_token": tok, "email": "a@shop.example", "password": PASSWORD})
        print("LOGIN next", repr(nxt), r.status_code, r.headers.get("Location"))
        c.client.post("/dashboard/logout", data={"csrf_token": csrf(c.get("/dashboard").get_data(as_text=True))})
