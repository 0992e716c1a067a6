"""Looking into a running service: the outbox's deliveries (and sending one again), the sandbox clocks."""

from __future__ import annotations

import json

import click
from sqlalchemy import select

from ..db import db
from ..merchants.models import Merchant
from ..notifications import dispatcher, inspect
from ..notifications.models import OutboxMessage
from ..sandbox import models as sandbox_clocks
from .common import load_app, merchant_or_fail


@click.group()
def deliveries():
    """Notifications and e-mails in the outbox."""


@deliveries.command("list")
@click.option("--status", type=click.Choice(["pending", "delivered", "failed", "skipped"]))
@click.option("--app-id", help="Only this merchant's.")
@click.option("--limit", default=100, show_default=True)
def deliveries_list(status, app_id, limit):
    """One JSON object a line: each delivery with its attempts, newest first."""
    app = load_app(migrate=True)
    with app.app_context():
        merchant_id = None
        if app_id:
            merchant_id = merchant_or_fail(app_id).id
        for message in inspect.listing(db.session, merchant_id, status, limit):
            click.echo(json.dumps(inspect.describe(message), ensure_ascii=False))


@deliveries.command("resend")
@click.argument("delivery_id")
def deliveries_resend(delivery_id):
    """Send one delivery again now and print it with its attempts."""
    app = load_app(migrate=True)
    with app.app_context():
        message = db.session.scalar(select(OutboxMessage).where(OutboxMessage.notify_id == delivery_id))
        if message is None:
            raise click.BadParameter(f"no delivery {delivery_id}", param_hint="DELIVERY_ID")
        sender = dispatcher.new_sender()  # this command's own sending threads, ended as it ends
        try:
            sent = dispatcher.resend(db.session, message, app.config, sender)
        finally:
            sender.close()
        if sent is None:
            raise click.ClickException("a worker is sending this delivery right now; try again shortly")
        click.echo(json.dumps(inspect.describe(sent), ensure_ascii=False))


@click.group("clock")
def clock_group():
    """The sandbox clocks: the operator's shared offset and each merchant's own."""


@clock_group.command("show")
@click.option("--app-id", help="Only this merchant's clock.")
def clock_show(app_id):
    """One JSON object: the shared offset and the merchants off it (or one merchant's clock)."""
    app = load_app(migrate=True)
    with app.app_context():
        conn = db.session.connection()
        shared = sandbox_clocks.shared_offset(conn)
        own = sandbox_clocks.merchant_offsets(conn)
        if app_id:
            merchant = merchant_or_fail(app_id)
            mine = own.get(merchant.id, 0)
            answer = {"app_id": app_id, "offset_seconds": shared + mine, "own_offset_seconds": mine}
        else:
            app_ids = dict(db.session.execute(select(Merchant.id, Merchant.app_id).where(Merchant.id.in_(own))).all())
            answer = {
                "shared_offset_seconds": shared,
                "merchants": [{"app_id": app_ids[m], "own_offset_seconds": own[m]} for m in sorted(own)],
            }
        click.echo(json.dumps(answer))


@clock_group.command("reset")
@click.option("--app-id", required=True)
def clock_reset(app_id):
    """Put one merchant back on the shared clock (running processes follow within a second)."""
    app = load_app(migrate=True)
    with app.app_context():
        merchant = merchant_or_fail(app_id)
        conn = db.session.connection()
        sandbox_clocks.reset_merchant_offset(conn, merchant.id)
        shared = sandbox_clocks.shared_offset(conn)
        db.session.commit()
        click.echo(json.dumps({"app_id": app_id, "offset_seconds": shared, "own_offset_seconds": 0}))
