"""The `checkout` command: serve, db upgrade, merchants create and fund, dashboard users, deliveries, sandbox clocks, reference docs."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import click
from sqlalchemy import select

from . import create_app, dbbudget, money, origins, serving, worker
from .api import openapi, reference, registry
from .dashboard import users as dashboard_users
from .db import db, upgrade
from .demo import setup
from .errors import InvalidField
from .merchants import service
from .merchants.models import Merchant
from .merchants.service import find_by_app_id
from .notifications import dispatcher, inspect
from .notifications.models import OutboxMessage
from .payouts import ledger
from .sandbox import models as sandbox_clocks


def _app(migrate: bool = False, overrides: dict | None = None):
    try:
        app = create_app(overrides)
    except dbbudget.BudgetError as error:
        raise click.ClickException(str(error)) from None
    if migrate:
        upgrade(app.config["DATABASE_URL"])
    return app


@click.group()
def main():
    """checkout: self-hosted payment service (payin gateway, payout platform, hosted pages)."""


def _is_loopback(host: str) -> bool:
    return origins.is_loopback(host)  # a name other than localhost may resolve anywhere


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, type=int, show_default=True)
@click.option("--no-worker", is_flag=True, help="Do not run the worker in this process.")
@click.option("--threads", default=8, type=int, show_default=True)
@click.option(
    "--connections-per-address",
    default=serving.CONNECTIONS_PER_ADDRESS,
    type=click.IntRange(min=0),
    show_default=True,
    help="Open connections one IPv4 address or IPv6 /64 may hold; 0: no bound (behind a proxy).",
)
@click.option(
    "--header-timeout",
    default=serving.HEADER_TIMEOUT,
    type=click.FloatRange(min=0, min_open=True),
    show_default=True,
    help="Seconds from a request's first byte to the end of its headers.",
)
@click.option(
    "--request-timeout",
    default=serving.REQUEST_TIMEOUT,
    type=click.FloatRange(min=0, min_open=True),
    show_default=True,
    help="Seconds from a request's first byte to the end of its body.",
)
def serve(
    host: str,
    port: int,
    no_worker: bool,
    threads: int,
    connections_per_address: int,
    header_timeout: float,
    request_timeout: float,
):
    """Apply migrations, then serve the app with waitress."""
    _log_to_stderr()
    web = {"DATABASE_THREADS": threads, "DATABASE_WORKER": not no_worker, "DATABASE_APPLICATION_NAME": "checkout-web"}
    app = _app(migrate=True, overrides=web)
    _echo_budget()
    # Left unset, CHECKOUT_PRIVATE_TARGETS follows where we listen: loopback only is a developer's machine.
    # Behind a reverse proxy (CHECKOUT_PUBLIC_URL on another host) a loopback listener serves the world.
    public = urlsplit(app.config["PUBLIC_URL"] or "http://localhost").hostname or ""
    app.config["LISTENS_ON_LOOPBACK_ONLY"] = _is_loopback(host) and _is_loopback(public)
    if not app.config["PUBLIC_URL"] and host not in ("0.0.0.0", "::", ""):  # noqa: S104 (a comparison)
        # Page POSTs are trusted from the address we were told to listen on (and loopback), never from
        # whatever Host a request names.
        app.config["SERVED_ORIGINS"] = [origins.origin(f"http://{'[' + host + ']' if ':' in host else host}:{port}")]
    if not no_worker:
        worker.start_thread(app)
    assert db.engine is not None  # _app() initialised it
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)  # noqa: S104 (a comparison, no bind)
    click.echo(
        f"checkout listening on http://{local}:{port} "
        f"(database: {db.engine.url.render_as_string(hide_password=True)}, "
        f"sandbox: {'on' if app.config['SANDBOX'] else 'off'})",
        err=True,
    )
    if app.config["SANDBOX"]:
        service_url = app.config["PUBLIC_URL"] or f"http://{local}:{port}"
        # Another host name than the service's, so that the demo frames checkout's pages cross-site.
        demo_url = os.environ.get("CHECKOUT_DEMO_URL") or f"http://localhost:{port}/demo"
        setup.provision(app, service_url, demo_url)
        # The printed address frames the pages cross-site, as a merchant's shop would; the others work too.
        path = urlsplit(demo_url).path.rstrip("/")
        also = [o + path for o in setup.demo_origins(demo_url) if not demo_url.startswith(o + "/")]
        others = f" (also at {', '.join(also)})" if also else ""
        click.echo(f"merchant demo: {demo_url}{others}", err=True)
    sys.stderr.flush()
    bounds = serving.Bounds(
        per_address=connections_per_address,
        header_timeout=header_timeout,
        request_timeout=request_timeout,
        max_body=app.config["MAX_CONTENT_LENGTH"],
    )
    serving.serve(app, host=host, port=port, threads=threads, bounds=bounds)


def _echo_budget() -> None:
    """One line on standard error: the most PostgreSQL connections this process opens, and how they split."""
    if db.budget is not None:
        click.echo(db.budget.describe(), err=True)


def _log_to_stderr() -> None:
    """One line per event on standard error (refused requests, worker faults), for serve and worker."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@main.command()
@click.option(
    "--out",
    default="docs/reference",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory to write the Markdown files into.",
)
def docs(out: Path):
    """Write the reference docs (payin API, payout API, errors) from /openapi.json and the error registry."""
    # Sandbox on whatever the environment says, so that the sandbox controls are always documented.
    app = create_app({"SANDBOX": True})
    out.mkdir(parents=True, exist_ok=True)
    for name, text in reference.pages(openapi.document(app), registry.REASONS).items():
        (out / name).write_text(text, encoding="utf-8")
        click.echo(str(out / name), err=True)


@main.command("worker")
@click.option("--interval", default=1.0, type=float, show_default=True, help="Seconds to rest when idle.")
def worker_command(interval: float):
    """Run the worker alone (scheduled payout steps), until interrupted."""
    _log_to_stderr()
    alone = {"DATABASE_THREADS": 0, "DATABASE_WORKER": True, "DATABASE_APPLICATION_NAME": "checkout-worker"}
    app = _app(migrate=True, overrides=alone)
    _echo_budget()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    click.echo("checkout worker running", err=True)
    with contextlib.suppress(KeyboardInterrupt):
        worker.run(app, stop, interval)


@main.group("db")
def db_group():
    """Database commands."""


@db_group.command("upgrade")
def db_upgrade():
    """Apply all migrations."""
    _app(migrate=True)
    click.echo("database is up to date", err=True)


@main.group()
def merchants():
    """Merchant accounts."""


@merchants.command("create")
@click.option("--name", required=True)
@click.option("--return-host", "return_hosts", multiple=True, help="Host allowed in return_url (repeatable).")
@click.option("--frame-origin", "frame_origins", multiple=True, help="Origin allowed to frame pages (repeatable).")
@click.option("--logo", type=click.File("rb"), help="PNG logo shown on hosted pages.")
@click.option("--document", help="The merchant's CNPJ (14 digits), shown to PIX Automático payers.")
def merchants_create(name, return_hosts, frame_origins, logo, document):
    """Create a merchant; prints its credentials as one JSON object."""
    app = _app(migrate=True)
    logo_bytes = logo.read() if logo else None
    with app.app_context():
        try:
            merchant = service.create(
                db.session,
                name=name,
                return_hosts=return_hosts,
                frame_origins=frame_origins,
                logo_png=logo_bytes,
                document=document,
            )
        except InvalidField as exc:
            option = {"frame_origins": "--frame-origin", "return_hosts": "--return-host"}.get(
                exc.field, f"--{exc.field}"
            )
            raise click.BadParameter(exc.rule, param_hint=option) from None
        db.session.commit()
        click.echo(json.dumps(service.credentials(merchant)))


@merchants.command("fund")
@click.option("--app-id", required=True)
@click.option("--currency", required=True)
@click.option("--amount", required=True)
def merchants_fund(app_id: str, currency: str, amount: str):
    """Top up a merchant's sandbox payout balance."""
    app = _app(migrate=True)
    currency = currency.upper()
    try:
        minor = money.to_minor(money.parse_decimal(amount), currency)
    except money.MoneyError as exc:
        raise click.BadParameter(str(exc), param_hint="--amount") from None
    with app.app_context():
        merchant = find_by_app_id(db.session, app_id)
        if merchant is None:
            raise click.BadParameter(f"no merchant with app id {app_id}", param_hint="--app-id")
        try:
            ledger.fund(db.session, merchant, currency, minor)
        except ledger.LedgerError as exc:
            raise click.BadParameter(str(exc), param_hint="--amount") from None
        db.session.commit()
        balance = ledger.balance(db.session, merchant, currency)
        click.echo(
            json.dumps({"app_id": app_id, "currency": currency, "balance": money.format_minor(balance, currency)})
        )


@main.group()
def deliveries():
    """Notifications and e-mails in the outbox."""


@deliveries.command("list")
@click.option("--status", type=click.Choice(["pending", "delivered", "failed", "skipped"]))
@click.option("--app-id", help="Only this merchant's.")
@click.option("--limit", default=100, show_default=True)
def deliveries_list(status, app_id, limit):
    """One JSON object a line: each delivery with its attempts, newest first."""
    app = _app(migrate=True)
    with app.app_context():
        merchant_id = None
        if app_id:
            merchant = find_by_app_id(db.session, app_id)
            if merchant is None:
                raise click.BadParameter(f"no merchant with app id {app_id}", param_hint="--app-id")
            merchant_id = merchant.id
        for message in inspect.listing(db.session, merchant_id, status, limit):
            click.echo(json.dumps(inspect.describe(message), ensure_ascii=False))


@deliveries.command("resend")
@click.argument("delivery_id")
def deliveries_resend(delivery_id):
    """Send one delivery again now and print it with its attempts."""
    app = _app(migrate=True)
    with app.app_context():
        message = db.session.scalar(select(OutboxMessage).where(OutboxMessage.notify_id == delivery_id))
        if message is None:
            raise click.BadParameter(f"no delivery {delivery_id}", param_hint="DELIVERY_ID")
        sent = dispatcher.resend(db.session, message, app.config)
        if sent is None:
            raise click.ClickException("a worker is sending this delivery right now; try again shortly")
        click.echo(json.dumps(inspect.describe(sent), ensure_ascii=False))


@main.group("users")
def users_group():
    """Dashboard users: people who sign in to a merchant's console."""


@users_group.command("create")
@click.option("--app-id", required=True)
@click.option("--email", required=True)
@click.option("--password", required=True, help="At least 10 characters.")
def users_create(app_id: str, email: str, password: str):
    """A dashboard user of that merchant; prints one JSON object {"app_id", "email"}."""
    app = _app(migrate=True)
    password_hash = _hashed(password)
    with app.app_context():
        merchant = _merchant_or_fail(app_id)
        try:
            user = dashboard_users.add(db.session, merchant=merchant, email=email, password_hash=password_hash)
        except dashboard_users.DuplicateEmail:
            raise click.BadParameter("a dashboard user with this e-mail already exists", param_hint="--email") from None
        except InvalidField as error:
            raise click.BadParameter(error.rule, param_hint=f"--{error.field}") from None
        db.session.commit()
        click.echo(json.dumps({"app_id": merchant.app_id, "email": user.email}))


@users_group.command("set-password")
@click.option("--email", required=True)
@click.option("--password", required=True, help="At least 10 characters.")
def users_set_password(email: str, password: str):
    """A new password for a dashboard user: every session of the user ends. Prints {"email"}."""
    app = _app(migrate=True)
    password_hash = _hashed(password)
    with app.app_context():
        try:
            user = dashboard_users.set_password(db.session, email=email, password_hash=password_hash)
        except LookupError:
            raise click.BadParameter("no dashboard user with this e-mail", param_hint="--email") from None
        db.session.commit()
        click.echo(json.dumps({"email": user.email}))


def _hashed(password: str) -> str:
    """The password's hash, computed before any transaction (on SQLite, the database's one writer turn)."""
    try:
        return dashboard_users.hashed(password)
    except InvalidField as error:
        raise click.BadParameter(error.rule, param_hint="--password") from None


@main.group("clock")
def clock_group():
    """The sandbox clocks: the operator's shared offset and each merchant's own."""


def _merchant_or_fail(app_id: str):
    merchant = find_by_app_id(db.session, app_id)
    if merchant is None:
        raise click.BadParameter(f"no merchant with app id {app_id}", param_hint="--app-id")
    return merchant


@clock_group.command("show")
@click.option("--app-id", help="Only this merchant's clock.")
def clock_show(app_id):
    """One JSON object: the shared offset and the merchants off it (or one merchant's clock)."""
    app = _app(migrate=True)
    with app.app_context():
        conn = db.session.connection()
        shared = sandbox_clocks.shared_offset(conn)
        own = sandbox_clocks.merchant_offsets(conn)
        if app_id:
            merchant = _merchant_or_fail(app_id)
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
    app = _app(migrate=True)
    with app.app_context():
        merchant = _merchant_or_fail(app_id)
        conn = db.session.connection()
        sandbox_clocks.reset_merchant_offset(conn, merchant.id)
        shared = sandbox_clocks.shared_offset(conn)
        db.session.commit()
        click.echo(json.dumps({"app_id": app_id, "offset_seconds": shared, "own_offset_seconds": 0}))
