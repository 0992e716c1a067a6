from checkout import clock


def test_clock_reads_and_moves_forward_only(api):
    before = api.get("/sandbox/clock")
    assert before["code"] == "10000" and before["offset_seconds"] == 0
    moved = api.post("/sandbox/clock", {"advance_seconds": 3600}, expect=200)
    assert moved["offset_seconds"] == 3600 and moved["now"] - before["now"] >= 3600
    back = api.post("/sandbox/clock", {"advance_seconds": -1}, expect=400)
    assert back["sub_msg"] == "advance_seconds: Input should be greater than or equal to 0"
    assert clock.offset_seconds() == 3600


def test_sandbox_needs_merchant_credentials(client):
    response = client.get("/sandbox/clock")
    assert response.status_code == 400 and response.get_json()["sub_code"] == "invalid-signature"


def test_sandbox_routes_are_absent_when_sandbox_is_off(database_url):
    from checkout import create_app

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "k", "SANDBOX": "off"})
    response = app.test_client().get("/sandbox/clock")
    assert response.status_code == 404 and response.get_json()["sub_code"] == "not-found"
    paths = app.test_client().get("/openapi.json").get_json()["paths"]
    assert "/trade/pay" in paths and not any(path.startswith("/sandbox") for path in paths)
