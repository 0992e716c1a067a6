"""Configuration: defaults, the instance folder's generated secret, and CHECKOUT_* environment."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

MIB = 1024 * 1024


class Defaults:
    DATABASE_URL: str | None = None  # None: an SQLite file in the instance folder
    SECRET_KEY: str | None = None  # None: generated once and kept in the instance folder
    PUBLIC_URL: str | None = None  # None: derived from the request
    SANDBOX = True
    MAX_CONTENT_LENGTH = MIB
    # How long a card token from /card/token may be used, in seconds.
    CARD_TOKEN_TTL = 30 * 60
    # Hosted vault pages (PIX Automático authorization, card consent) stay open this long.
    VAULT_SESSION_TTL = 24 * 60 * 60
    # Boleto due date: this many Brazil days after the trade is created.
    BOLETO_DUE_DAYS = 3
    # Name and city printed in PIX BR Codes and on bank details.
    COLLECTOR_NAME = "Checkout Sandbox Pagamentos"
    # The collector's legal name where another country's banks show it as the account holder: Mexico's CLABEs
    # belong to its Mexican entity, written as SPEI shows a beneficiary (capitals, "SA DE CV", as the provider's
    # own "PAGSMILE MEXICO SA DE CV"); COLLECTOR_NAME elsewhere.
    COLLECTOR_NAMES = {"MEX": "CHECKOUT SANDBOX MEXICO SA DE CV"}
    COLLECTOR_CITY = "Sao Paulo"
    COLLECTOR_CNPJ = "11222333000181"
    COLLECTOR_PIX_KEY = "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"
    # Payout mid-market rates "SRC/DST" -> rate (strings: read as Decimal), before each merchant's markup.
    PAYOUT_MID_RATES = {
        "USD/BRL": "5.40",
        "EUR/BRL": "5.85",
        "GBP/BRL": "6.85",
        "USD/MXN": "18.50",
        "EUR/MXN": "20.00",
        "GBP/MXN": "23.40",
        "USD/COP": "4100",
        "EUR/COP": "4430",
        "GBP/COP": "5200",
        "USD/CLP": "950",
        "EUR/CLP": "1026",
        "GBP/CLP": "1205",
        "USD/ARS": "1000",
        "EUR/ARS": "1080",
        "GBP/ARS": "1270",
        "USD/PEN": "3.75",
        "EUR/PEN": "4.05",
        "GBP/PEN": "4.76",
        "USD/GTQ": "7.75",
        "EUR/GTQ": "8.37",
        "GBP/GTQ": "9.84",
        "USD/UYU": "40.00",
        "EUR/UYU": "43.20",
        "GBP/UYU": "50.80",
        "USD/RUB": "92.00",
        "EUR/RUB": "99.36",
        "GBP/RUB": "116.84",
        "USD/TRY": "34.00",
        "EUR/TRY": "36.72",
        "GBP/TRY": "43.18",
        "EUR/USD": "1.08",
        "GBP/USD": "1.27",
    }
    # Sandbox payout lifecycle: IN_PROCESSING -> PROCESSING -> PAID/REJECTED after these many seconds.
    PAYOUT_PROCESSING_AFTER = 60
    PAYOUT_DECIDED_AFTER = 300
    # Who answers for cards and PIX Automático, and who carries payouts (checkout.providers registries).
    ACQUIRER = "sandbox"
    PAYOUT_BANK = "sandbox"
    # May notifications reach loopback and private addresses? "allow" or "deny" (sandbox only); None:
    # only when `checkout serve` listens on loopback alone (checkout.notifications.targets.private_allowed).
    PRIVATE_TARGETS: str | None = None
    # PostgreSQL connections this process opens at most, all its pools together (checkout/db/budget.py);
    # None: twice the request threads, plus the worker's and the side pools'. The request threads and whether
    # the worker runs here are set by `checkout serve` and `checkout worker`; a WSGI server's are assumed.
    DATABASE_CONNECTIONS: int | None = None
    DATABASE_THREADS = 8
    DATABASE_WORKER = False
    DATABASE_APPLICATION_NAME = "checkout"  # pg_stat_activity's application_name
    # On behind PgBouncer in transaction pooling: no server-side prepared statements (docs/operations.md).
    DATABASE_PGBOUNCER = False


_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no", ""}


def _as_bool(value, name: str = "CHECKOUT_SANDBOX") -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{name} must be on or off, not {value!r}")


def collector_name(config, country: str | None) -> str:
    """The collector's name as `country`'s banks show it (COLLECTOR_NAMES), else COLLECTOR_NAME."""
    return config["COLLECTOR_NAMES"].get(country or "", config["COLLECTOR_NAME"])


def _instance_secret(app: Flask) -> str:
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written with O_EXCL so that two processes starting together agree on one key.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def load(app: Flask, overrides: dict | None) -> None:
    app.config.from_object(Defaults)
    app.config.from_prefixed_env("CHECKOUT")
    if overrides:
        app.config.update(overrides)
    app.config["SANDBOX"] = _as_bool(app.config["SANDBOX"])
    app.config["DATABASE_PGBOUNCER"] = _as_bool(app.config["DATABASE_PGBOUNCER"], "CHECKOUT_DATABASE_PGBOUNCER")
    private = app.config["PRIVATE_TARGETS"]
    if private not in (None, "", "allow", "deny"):
        raise ValueError(f"CHECKOUT_PRIVATE_TARGETS must be allow or deny, not {private!r}")
    if private == "allow" and not app.config["SANDBOX"]:
        raise ValueError(
            "CHECKOUT_PRIVATE_TARGETS=allow needs CHECKOUT_SANDBOX=on: production never reaches private addresses"
        )
    app.config["PRIVATE_TARGETS"] = private or None
    if not app.config["DATABASE_URL"]:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["DATABASE_URL"] = f"sqlite:///{Path(app.instance_path) / 'checkout.sqlite3'}"
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(app)
    if app.config["PUBLIC_URL"]:
        app.config["PUBLIC_URL"] = str(app.config["PUBLIC_URL"]).rstrip("/")
