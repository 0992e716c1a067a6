"""The `checkout` command: merchants (create, fund), db upgrade, deliveries (list, resend), the sandbox clocks."""

import json

import pytest
from click.testing import CliRunner
from PIL import Image
from sqlalchemy import select

from checkout import cli, worker
from checkout.dashboard import users as dashboard_users
from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.payouts import ledger
from tests import builders


@pytest.fixture
def run(app, database_url, monkeypatch):
    monkeypatch.setenv("CHECKOUT_DATABASE_URL", database_url)
    monkeypatch.setenv("CHECKOUT_SECRET_KEY", "cli-secret")
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli.main, list(args), catch_exceptions=False)

    return invoke


def test_merchants_create_prints_credentials_as_json(run, app):
    result = run(
        "merchants",
        "create",
        "--name",
        "Loja",
        "--return-host",
        "shop.example",
        "--frame-origin",
        "https://shop.example",
    )
    assert result.exit_code == 0, result.output
    created = json.loads(result.stdout)
    assert set(created) == {"merchant_id", "app_id", "security_key", "app_key"}
    assert len(created["app_id"]) <= 32 and len(created["app_key"]) == 64
    with app.app_context():
        merchant = db.session.scalars(select(Merchant).where(Merchant.app_id == created["app_id"])).one()
        assert (merchant.return_hosts, merchant.frame_origins) == (["shop.example"], ["https://shop.example"])


def test_merchants_create_refuses_a_non_png_logo(run, tmp_path):
    logo = tmp_path / "logo.png"
    logo.write_bytes(b"GIF89a")
    result = run("merchants", "create", "--name", "Loja", "--logo", str(logo))
    assert result.exit_code == 2 and "the logo must be a PNG image" in result.output


def test_merchants_create_refuses_a_png_logo_of_too_many_pixels(run, tmp_path):
    # A few kilobytes that every hosted page's logo would decode (policy.check_logo, as the dashboard's limit).
    logo = tmp_path / "logo.png"
    Image.new("P", (4097, 4096)).save(logo, format="PNG")
    result = run("merchants", "create", "--name", "Loja", "--logo", str(logo))
    assert result.exit_code == 2
    assert result.output.endswith("Error: Invalid value for --logo: the logo must have at most 16777216 pixels\n")


def _signs_in(app, email: str, password: str) -> str | None:
    """The app_id of the merchant whose dashboard these credentials open, or None."""
    with app.app_context():
        user = dashboard_users.authenticate(db.session, email=email, password=password, address="127.0.0.1")
        merchant = db.session.get(Merchant, user.merchant_id) if user else None
        db.session.rollback()
        return merchant.app_id if merchant else None


def test_merchants_create_with_a_dashboard_login_and_its_password(run, app):
    result = run(
        "merchants", "create", "--name", "Loja", "--dashboard-email", "Ana@Example.com",
        "--dashboard-password", "correct horse battery",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    created = json.loads(result.stdout)
    assert set(created) == {"merchant_id", "app_id", "security_key", "app_key", "dashboard_email"}
    assert created["dashboard_email"] == "ana@example.com"
    assert _signs_in(app, "ana@example.com", "correct horse battery") == created["app_id"]


def test_merchants_create_generates_the_dashboard_password_and_prints_it_once(run, app):
    created = json.loads(run("merchants", "create", "--name", "Loja", "--dashboard-email", "bia@example.com").stdout)
    password = created["dashboard_password"]
    assert len(password) == 16 and created["dashboard_email"] == "bia@example.com"
    assert _signs_in(app, "bia@example.com", password) == created["app_id"]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--dashboard-password", "correct horse battery"],
            "Invalid value for --dashboard-password: needs --dashboard-email",
        ),
        (
            ["--dashboard-email", "ana@example.com", "--dashboard-password", "short"],
            "Invalid value for --dashboard-password: must have at least 10 characters",
        ),
        (["--dashboard-email", "not-an-address"], "Invalid value for --dashboard-email: must be an e-mail address"),
    ],
)
def test_merchants_create_refuses_a_bad_dashboard_login(run, app, args, message):
    result = run("merchants", "create", "--name", "Loja sem login", *args)
    assert result.exit_code == 2 and result.output.endswith(f"Error: {message}\n"), result.output
    with app.app_context():
        assert db.session.scalars(select(Merchant).where(Merchant.name == "Loja sem login")).all() == []


def test_merchants_create_refuses_a_taken_dashboard_email_and_creates_no_merchant(run, app):
    run("merchants", "create", "--name", "Loja", "--dashboard-email", "ana@example.com")
    result = run("merchants", "create", "--name", "Loja Dois", "--dashboard-email", "ANA@example.com")
    assert result.exit_code == 2
    assert result.output.endswith(
        "Error: Invalid value for --dashboard-email: a dashboard user with this e-mail already exists\n"
    )
    with app.app_context():
        assert db.session.scalars(select(Merchant).where(Merchant.name == "Loja Dois")).all() == []


def test_merchants_fund_tops_up_the_ledger(run, app):
    app_id = json.loads(run("merchants", "create", "--name", "Loja").stdout)["app_id"]
    result = run("merchants", "fund", "--app-id", app_id, "--currency", "USD", "--amount", "1000.00")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"app_id": app_id, "currency": "USD", "balance": "1000.00"}
    run("merchants", "fund", "--app-id", app_id, "--currency", "USD", "--amount", "0.50")
    with app.app_context():
        merchant = db.session.scalars(select(Merchant).where(Merchant.app_id == app_id)).one()
        assert ledger.balance(db.session, merchant, "USD") == 100050
        assert ledger.balance(db.session, merchant, "USD", ledger.FUNDING) == -100050


@pytest.mark.parametrize(
    "args, message",
    [
        (["--currency", "USD", "--amount", "1.001"], "at most 2 decimal places for USD"),
        (["--currency", "XYZ", "--amount", "1"], "unsupported currency 'XYZ'"),
        (["--currency", "USD", "--amount", "-5"], "a top-up must be positive"),
    ],
)
def test_merchants_fund_rejects_bad_amounts(run, args, message):
    app_id = json.loads(run("merchants", "create", "--name", "Loja").stdout)["app_id"]
    result = run("merchants", "fund", "--app-id", app_id, *args)
    assert result.exit_code == 2 and message in result.output


def test_db_upgrade_is_idempotent(run):
    assert run("db", "upgrade").exit_code == 0
    assert run("db", "upgrade").exit_code == 0


@pytest.mark.parametrize("amount", ["NaN", "Infinity", "1e999999999"])
def test_merchants_fund_refuses_non_amounts_without_a_traceback(run, amount):
    app_id = json.loads(run("merchants", "create", "--name", "Loja").stdout)["app_id"]
    result = run("merchants", "fund", "--app-id", app_id, "--currency", "USD", "--amount", amount)
    assert result.exit_code == 2 and "Invalid value for --amount: must be a plain decimal number" in result.output


def test_deliveries_list_and_resend(run, api, app, monkeypatch):
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    worker.run_once(app)  # nothing listens on the notify URL: the attempt fails and is scheduled again
    listed = [json.loads(line) for line in run("deliveries", "list", "--status", "pending").stdout.splitlines()]
    assert [(d["subject"], d["attempts"]) for d in listed] == [(trade_no, 1)]
    # The command is a process of its own: it follows the private-target rule as the worker does.
    monkeypatch.setenv("CHECKOUT_PRIVATE_TARGETS", "allow")
    resent = json.loads(run("deliveries", "resend", listed[0]["id"]).stdout)
    assert (resent["attempts"], resent["status"], resent["attempt_log"][-1]["manual"]) == (2, "pending", True)
    assert resent["attempt_log"][-1]["error"].startswith("connection failed")
    missing = run("deliveries", "resend", "nope")
    assert missing.exit_code == 2 and "no delivery nope" in missing.output


def test_a_resend_from_the_command_line_refuses_private_targets_by_default(run, api, app):
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    [delivery] = [json.loads(line) for line in run("deliveries", "list").stdout.splitlines()]
    resent = json.loads(run("deliveries", "resend", delivery["id"]).stdout)
    assert (resent["status"], resent["attempt_log"][-1]["error"]) == (
        "failed",
        "127.0.0.1 resolves to 127.0.0.1, which notifications may not reach (not a public address)",
    )


def test_clock_show_and_reset_put_one_merchant_back_on_the_shared_clock(run, api, other_api):
    api.post("/sandbox/clock", {"advance_seconds": 3600}, expect=200)
    listed = json.loads(run("clock", "show").output)
    assert listed == {"shared_offset_seconds": 0, "merchants": [{"app_id": api.app_id, "own_offset_seconds": 3600}]}
    one = json.loads(run("clock", "show", "--app-id", api.app_id).output)
    assert one == {"app_id": api.app_id, "offset_seconds": 3600, "own_offset_seconds": 3600}
    reset = json.loads(run("clock", "reset", "--app-id", api.app_id).output)
    assert reset == {"app_id": api.app_id, "offset_seconds": 0, "own_offset_seconds": 0}
    assert api.get("/sandbox/clock")["offset_seconds"] == 0  # the running service follows
    assert other_api.get("/sandbox/clock")["offset_seconds"] == 0
    assert run("clock", "reset", "--app-id", "nobody").exit_code != 0
