"""Provisioning the demo shop when `checkout serve` starts: its merchant account, origins and balance."""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from flask import Flask

from .. import money
from ..db import db
from ..merchants import service as merchants
from ..payouts import ledger

DEMO_BALANCE = {"USD": Decimal("10000.00")}


def provision(app: Flask, service_url: str, demo_url: str) -> dict:
    """Create (once) the Demo Shop merchant framed from `demo_url`, and hand its settings to the demo."""
    path = Path(app.instance_path) / "demo.json"
    stored = json.loads(path.read_text()) if path.exists() else {}
    with app.app_context():
        merchant = merchants.find_by_app_id(db.session, stored.get("app_id", ""))
        if merchant is None:
            merchant = merchants.create(db.session, name="Demo Shop", document="16727230000197")
            stored = merchants.credentials(merchant)
        demo_origin = demo_url.rstrip("/").rsplit("/demo", 1)[0]
        host = demo_origin.split("://", 1)[1].split(":")[0]
        merchant.frame_origins = sorted({*merchant.frame_origins, demo_origin})
        merchant.return_hosts = sorted({*merchant.return_hosts, host})
        for currency, amount in DEMO_BALANCE.items():
            if ledger.balance(db.session, merchant, currency) < money.to_minor(amount, currency) // 2:
                ledger.fund(db.session, merchant, currency, money.to_minor(amount, currency))
        db.session.commit()
    path.write_text(json.dumps(stored))
    settings = {"service_url": service_url, "url": demo_url.rstrip("/"), "credentials": stored}
    app.config["DEMO"] = settings
    return settings
