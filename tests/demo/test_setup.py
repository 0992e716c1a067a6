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
        assert (merchant.frame_origins, merchant.return_hosts) == (["http://localhost:8000"], ["localhost"])
        assert ledger.balance(db.session, merchant, "USD") == 1_000_000  # 10,000.00 USD, not topped up twice
