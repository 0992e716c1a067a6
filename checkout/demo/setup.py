"""Provisioning the demo shop when `checkout serve` starts: its merchant account, origins and balance."""

from __future__ import annotations

from decimal import Decimal

from flask import Flask
from sqlalchemy import select

from .. import money
from ..db import db
from ..merchants import service as merchants
from ..merchants.models import Merchant
from ..payouts import ledger

DEMO_BALANCE = {"USD": Decimal("10000.00")}
DEMO_NAME = "Demo Shop"


def provision(app: Flask, service_url: str, demo_url: str) -> dict:
    """Create (once per database) the Demo Shop merchant framed from `demo_url`, and hand its settings to
    the demo. The merchant is found in the database it lives in, so another database gets its own."""
    with app.app_context():
        merchant = db.session.scalar(select(Merchant).where(Merchant.name == DEMO_NAME).order_by(Merchant.id).limit(1))
        if merchant is None:
            merchant = merchants.create(db.session, name=DEMO_NAME, document="16727230000197")
        stored = merchants.credentials(merchant)
        demo_origin = demo_url.rstrip("/").rsplit("/demo", 1)[0]
        host = demo_origin.split("://", 1)[1].split(":")[0]
        merchant.frame_origins = sorted({*merchant.frame_origins, demo_origin})
        merchant.return_hosts = sorted({*merchant.return_hosts, host})
        for currency, amount in DEMO_BALANCE.items():
            if ledger.balance(db.session, merchant, currency) < money.to_minor(amount, currency) // 2:
                ledger.fund(db.session, merchant, currency, money.to_minor(amount, currency))
        db.session.commit()
    settings = {"service_url": service_url, "url": demo_url.rstrip("/"), "credentials": stored}
    app.config["DEMO"] = settings
    return settings
