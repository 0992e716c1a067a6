from checkout import clock, create_app
from checkout.db import db
from checkout.merchants.service import find_by_app_id


def test_clock_reads_and_moves_forward_only(app, api):
    before = api.get("/sandbox/clock")
    assert before["code"] == "10000" and before["offset_seconds"] == 0
    moved = api.post("/sandbox/clock", {"advance_seconds": 3600}, expect=200)
    assert moved["offset_seconds"] == 3600 and moved["now"] - before["now"] >= 3600
    back = api.post("/sandbox/clock", {"advance_seconds": -1}, expect=400)
    assert back["sub_msg"] == "advance_seconds: Input should be greater than or equal to 0"
    assert clock.offset_seconds() == 0  # the calling merchant's clock moved, not the shared one
    with app.app_context(), clock.merchant(find_by_app_id(db.session, api.app_id).id):
        assert clock.offset_seconds() == 3600


def test_sandbox_needs_merchant_credentials(client):
    response = client.get("/sandbox/clock")
    assert response.status_code == 400 and response.get_json()["sub_code"] == "missing-signature-config"


def test_sandbox_routes_are_absent_when_sandbox_is_off(database_url):

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "k", "SANDBOX": "off"})
    response = app.test_client().get("/sandbox/clock")
    assert response.status_code == 404 and response.get_json()["sub_code"] == "not-found"
    paths = app.test_client().get("/openapi.json").get_json()["paths"]
    assert "/trade/pay" in paths and not any(path.startswith("/sandbox") for path in paths)


def test_sandbox_clock_stops_short_of_the_calendars_end(api):
    for _ in range(5):
        api.post("/sandbox/clock", {"advance_seconds": 316224000}, expect=200)
    body = api.post("/sandbox/clock", {"advance_seconds": 316224000}, expect=400)
    assert body["sub_msg"] == "advance_seconds: the sandbox clock cannot run more than 18300 days ahead"
    assert api.get("/sandbox/clock")["offset_seconds"] == 5 * 316224000
