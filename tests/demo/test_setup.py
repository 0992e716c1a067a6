"""Provisioning the demo shop: one merchant per database, found again on every start, funded once."""

from checkout.db import db
from checkout.demo import setup
from checkout.merchants.service import find_by_app_id
from checkout.payouts import ledger


def test_the_demo_merchant_is_made_once_per_database(app):
    first = setup.provision(app, "http://127.0.0.1:8000", "http://localhost:8000/demo")
    again = setup.provision(app, "http://127.0.0.1:8000", "http://localhost:8000/demo/")
    assert again["credentials"] == first["credentials"]
    assert again["url"] == "http://localhost:8000/demo"
    with app.app_context():
        merchant = find_by_app_id(db.session, first["credentials"]["app_id"])
        assert (merchant.name, merchant.document) == ("Demo Shop", "16727230000197")
        # Either address `serve` prints opens the demo: both loopback names frame the pages and get returns.
        assert merchant.frame_origins == ["http://127.0.0.1:8000", "http://localhost:8000"]
        assert merchant.return_hosts == ["127.0.0.1", "localhost"]
        assert ledger.balance(db.session, merchant, "USD") == 1_000_000  # 10,000.00 USD, not topped up twice


def test_a_demo_off_loopback_registers_its_own_origin_only(app):
    settings = setup.provision(app, "https://pay.example", "https://shop.example/demo")
    assert settings["origins"] == ["https://shop.example"]
    with app.app_context():
        merchant = find_by_app_id(db.session, settings["credentials"]["app_id"])
        assert (merchant.frame_origins, merchant.return_hosts) == (["https://shop.example"], ["shop.example"])


def test_the_demo_sends_customers_back_to_the_address_it_was_opened_at(app):
    setup.provision(app, "http://127.0.0.1:8000", "http://localhost:8000/demo")
    with app.test_request_context("/demo/", base_url="http://127.0.0.1:8000"):
        from checkout.demo.views import _url

        assert _url("demo.back", kind="payout") == "http://127.0.0.1:8000/demo/return?kind=payout"
    with app.test_request_context("/demo/", base_url="http://evil.example"):
        assert _url("demo.back", kind="payout") == "http://localhost:8000/demo/return?kind=payout"


def test_a_serving_process_attaches_the_provisioned_demo_without_writing(app):
    made = setup.provision(app, "http://127.0.0.1:8000", "http://localhost:8000/demo")
    app.config.pop("DEMO")
    with app.app_context():
        merchant = find_by_app_id(db.session, made["credentials"]["app_id"])
        before = (merchant.frame_origins, merchant.return_hosts, ledger.balance(db.session, merchant, "USD"))
    attached = setup.attach(app, "http://127.0.0.1:8000", "http://localhost:8000/demo")
    assert attached == made
    assert app.config["DEMO"] == made
    with app.app_context():
        merchant = find_by_app_id(db.session, made["credentials"]["app_id"])
        assert (merchant.frame_origins, merchant.return_hosts, ledger.balance(db.session, merchant, "USD")) == before
