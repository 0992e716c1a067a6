"""The operator's setup: migrations, merchants and their sandbox funds, dashboard users, the reference docs."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import click

from .. import create_app, money
from ..api import openapi, reference, registry
from ..dashboard import users as dashboard_users
from ..db import db
from ..errors import InvalidField
from ..merchants import service
from ..payouts import ledger
from .common import load_app, merchant_or_fail


@click.group("db")
def db_group():
    """Database commands."""


@db_group.command("upgrade")
def db_upgrade():
    """Apply all migrations."""
    load_app(migrate=True)
    click.echo("database is up to date", err=True)


@click.group()
def merchants():
    """Merchant accounts."""


@merchants.command("create")
@click.option("--name", required=True)
@click.option("--return-host", "return_hosts", multiple=True, help="Host allowed in return_url (repeatable).")
@click.option("--frame-origin", "frame_origins", multiple=True, help="Origin allowed to frame pages (repeatable).")
@click.option("--logo", type=click.File("rb"), help="PNG logo shown on hosted pages.")
@click.option("--document", help="The merchant's CNPJ (14 digits), shown to PIX Automático payers.")
@click.option("--dashboard-email", help="Also create this dashboard login for the merchant.")
@click.option(
    "--dashboard-password",
    help="The dashboard login's password (at least 10 characters); left out, one is generated and printed once.",
)
def merchants_create(name, return_hosts, frame_origins, logo, document, dashboard_email, dashboard_password):
    """Create a merchant (and, with --dashboard-email, its dashboard login); prints its credentials as one JSON
    object."""
    if dashboard_password is not None and dashboard_email is None:
        raise click.BadParameter("needs --dashboard-email", param_hint="--dashboard-password")
    login: dict[str, str] = {}
    if dashboard_email is not None:
        login["dashboard_email"] = dashboard_users.normalise(dashboard_email)
        if dashboard_password is None:
            # Shown this once, in the command's output; only its hash is kept.
            dashboard_password = login["dashboard_password"] = secrets.token_urlsafe(12)
        password_hash = _hashed(dashboard_password, "--dashboard-password")
    app = load_app(migrate=True)
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
        if dashboard_email is not None:
            # In the merchant's own transaction: a refused login leaves no merchant behind.
            try:
                dashboard_users.add(db.session, merchant=merchant, email=dashboard_email, password_hash=password_hash)
            except dashboard_users.DuplicateEmail:
                db.session.rollback()
                raise click.BadParameter(
                    "a dashboard user with this e-mail already exists", param_hint="--dashboard-email"
                ) from None
            except InvalidField as error:
                db.session.rollback()
                raise click.BadParameter(error.rule, param_hint="--dashboard-email") from None
        db.session.commit()
        click.echo(json.dumps({**service.credentials(merchant), **login}))


@merchants.command("fund")
@click.option("--app-id", required=True)
@click.option("--currency", required=True)
@click.option("--amount", required=True)
def merchants_fund(app_id: str, currency: str, amount: str):
    """Top up a merchant's sandbox payout balance."""
    app = load_app(migrate=True)
    currency = currency.upper()
    try:
        minor = money.to_minor(money.parse_decimal(amount), currency)
    except money.MoneyError as exc:
        raise click.BadParameter(str(exc), param_hint="--amount") from None
    with app.app_context():
        merchant = merchant_or_fail(app_id)
        try:
            ledger.fund(db.session, merchant, currency, minor)
        except ledger.LedgerError as exc:
            raise click.BadParameter(str(exc), param_hint="--amount") from None
        db.session.commit()
        balance = ledger.balance(db.session, merchant, currency)
        click.echo(
            json.dumps({"app_id": app_id, "currency": currency, "balance": money.format_minor(balance, currency)})
        )


@click.group("users")
def users_group():
    """Dashboard users: people who sign in to a merchant's console."""


@users_group.command("create")
@click.option("--app-id", required=True)
@click.option("--email", required=True)
@click.option("--password", required=True, help="At least 10 characters.")
def users_create(app_id: str, email: str, password: str):
    """A dashboard user of that merchant; prints one JSON object {"app_id", "email"}."""
    app = load_app(migrate=True)
    password_hash = _hashed(password)
    with app.app_context():
        merchant = merchant_or_fail(app_id)
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
    app = load_app(migrate=True)
    password_hash = _hashed(password)
    with app.app_context():
        try:
            user = dashboard_users.set_password(db.session, email=email, password_hash=password_hash)
        except LookupError:
            raise click.BadParameter("no dashboard user with this e-mail", param_hint="--email") from None
        db.session.commit()
        click.echo(json.dumps({"email": user.email}))


def _hashed(password: str, option: str = "--password") -> str:
    """The password's hash, computed before any transaction (on SQLite, the database's one writer turn)."""
    try:
        return dashboard_users.hashed(password)
    except InvalidField as error:
        raise click.BadParameter(error.rule, param_hint=option) from None


@click.command()
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
