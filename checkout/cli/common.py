"""What the commands share: the application they run against, and a merchant named on the command line."""

from __future__ import annotations

import click

from .. import create_app
from ..db import BudgetError, db, upgrade
from ..merchants.models import Merchant
from ..merchants.service import find_by_app_id


def load_app(migrate: bool = False, overrides: dict | None = None):
    try:
        app = create_app(overrides)
    except BudgetError as error:
        raise click.ClickException(str(error)) from None
    if migrate:
        upgrade(app.config["DATABASE_URL"])
    return app


def merchant_or_fail(app_id: str) -> Merchant:
    merchant = find_by_app_id(db.session, app_id)
    if merchant is None:
        raise click.BadParameter(f"no merchant with app id {app_id}", param_hint="--app-id")
    return merchant
