"""Provisioning the demo shop when `checkout serve` starts: its merchant account, origins and balance."""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import urlsplit

from flask import Flask
from sqlalchemy import select

from .. import money, origins
from ..db import db
from ..merchants import service as merchants
from ..merchants.models import Merchant
from ..payouts import ledger

DEMO_BALANCE = {"USD": Decimal("10000.00")}
DEMO_NAME = "Demo Shop"
# The two names a browser reaches this machine by: `serve` prints one for the service, the other for the demo,
# and a developer may open either.
LOOPBACK_NAMES = ("localhost", "127.0.0.1")


def demo_origins(demo_url: str) -> list[str]:
    """The origins the demo may be opened at: its own, and on loopback the same port under the other name."""
    parts = urlsplit(demo_url)
    own = origins.origin(f"{parts.scheme}://{parts.netloc}")
    if not origins.is_loopback(parts.hostname or ""):
        return [own]
    port = f":{parts.port}" if parts.port else ""
    return sorted({own, *(origins.origin(f"{parts.scheme}://{name}{port}") for name in LOOPBACK_NAMES)})


def provision(app: Flask, service_url: str, demo_url: str) -> dict:
    """Create (once per database) the Demo Shop merchant framed from `demo_url` (from either loopback name
    when it is on loopback), and hand its settings to the demo. The merchant is found in the database it
    lives in, so another database gets its own."""
    with app.app_context():
        merchant = db.session.scalar(select(Merchant).where(Merchant.name == DEMO_NAME).order_by(Merchant.id).limit(1))
        if merchant is None:
            merchant = merchants.create(db.session, name=DEMO_NAME, document="16727230000197")
        stored = merchants.credentials(merchant)
        framing = demo_origins(demo_url)
        merchant.frame_origins = sorted({*merchant.frame_origins, *framing})
        merchant.return_hosts = sorted({*merchant.return_hosts, *(urlsplit(o).hostname or "" for o in framing)})
        for currency, amount in DEMO_BALANCE.items():
            if ledger.balance(db.session, merchant, currency) < money.to_minor(amount, currency) // 2:
                ledger.fund(db.session, merchant, currency, money.to_minor(amount, currency))
        db.session.commit()
    return _hand_over(app, stored, service_url, demo_url)


def attach(app: Flask, service_url: str, demo_url: str) -> dict | None:
    """Hand the demo the Demo Shop that `provision` made, read only: what each of `checkout serve`'s serving
    processes does once the command has provisioned it. None when there is none (the demo then says so)."""
    with app.app_context():
        merchant = db.session.scalar(select(Merchant).where(Merchant.name == DEMO_NAME).order_by(Merchant.id).limit(1))
        if merchant is None:
            return None
        stored = merchants.credentials(merchant)
    return _hand_over(app, stored, service_url, demo_url)


def _hand_over(app: Flask, credentials: dict, service_url: str, demo_url: str) -> dict:
    settings = {
        "service_url": service_url,
        "url": demo_url.rstrip("/"),
        "origins": demo_origins(demo_url),
        "credentials": credentials,
    }
    app.config["DEMO"] = settings
    return settings
