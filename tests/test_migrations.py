"""The Alembic migrations build exactly the schema the models declare, and upgrade existing rows."""

import json
import os

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from checkout.db import Base, db, make_engine, upgrade


def test_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []


@pytest.fixture
def old_database(tmp_path):
    """An empty database to migrate step by step: a SQLite file, or on PostgreSQL (CHECKOUT_DATABASE_URL) a
    schema of its own in that database, dropped afterwards."""
    url = os.environ.get("CHECKOUT_DATABASE_URL")
    if not url or not url.startswith("postgresql"):
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS migration_steps CASCADE"))
        conn.execute(text("CREATE SCHEMA migration_steps"))
    yield (
        make_url(url)
        .update_query_dict({"options": "-csearch_path=migration_steps"})
        .render_as_string(hide_password=False)
    )
    with admin.begin() as conn:
        conn.execute(text("DROP SCHEMA migration_steps CASCADE"))
    admin.dispose()


def _merchant(conn, merchant_id: int, now: str) -> None:
    """A merchant row as every revision since 0001 can hold it."""
    conn.execute(
        text(
            "INSERT INTO merchants (id, merchant_id, name, app_id, security_key, app_key, return_hosts,"
            " frame_origins, created_at) VALUES (:id, :mid, 'm', :app, 'k', 'a', '[]', '[]', :now)"
        ),
        {"id": merchant_id, "mid": f"M{merchant_id}", "app": f"app{merchant_id}", "now": now},
    )


def _trade(conn, trade_id: int, kind: str, method: str, status: str, now: str, details: str = "{}") -> None:
    """A trade of merchant 1 as every revision since 0001 can hold it."""
    conn.execute(
        text(
            "INSERT INTO trades (id, trade_no, merchant_id, out_trade_no, kind, method, status, amount_minor,"
            " currency, subject, buyer_id, notify_url, details, created_at, updated_at) VALUES (:id, :no, 1,"
            " :no, :kind, :method, :status, 10000, 'BRL', 's', 'b', 'http://n', :details, :now, :now)"
        ),
        {
            "id": trade_id,
            "no": f"T{trade_id}",
            "kind": kind,
            "method": method,
            "status": status,
            "now": now,
            "details": details,
        },
    )


def test_a_partly_refunded_trade_becomes_refunded_and_its_history_too(tmp_path):
    """0007: PARTIAL_REFUND is not a provider status; the rows and their history say REFUNDED."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    upgrade(url, "0006")
    engine = make_engine(url)
    now = "2026-11-20 10:00:00"
    with engine.begin() as conn:
        _merchant(conn, 1, now)
        for trade_id, status in ((1, "PARTIAL_REFUND"), (2, "SUCCESS")):
            _trade(conn, trade_id, "direct", "PIX", status, now)
        conn.execute(
            text(
                "INSERT INTO trade_events (trade_id, from_status, to_status, at) VALUES "
                "(1, 'SUCCESS', 'PARTIAL_REFUND', :now), (1, 'PARTIAL_REFUND', 'PARTIAL_REFUND', :now)"
            ),
            {"now": now},
        )
    upgrade(url, "0007")
    with engine.connect() as conn:
        trades = conn.execute(text("SELECT trade_no, status FROM trades ORDER BY id")).all()
        events = conn.execute(text("SELECT from_status, to_status FROM trade_events ORDER BY id")).all()
    engine.dispose()
    assert [tuple(t) for t in trades] == [("T1", "REFUNDED"), ("T2", "SUCCESS")]
    assert [tuple(e) for e in events] == [("SUCCESS", "REFUNDED"), ("REFUNDED", "REFUNDED")]


def test_codes_shared_by_a_payout_and_a_session_get_one_claim(old_database):
    """0008: a code that a direct payout and a checkout session both used before it (they raced) keeps both
    rows and gets one claim, dated from its first use; from then on it can be claimed no more."""
    url = old_database
    upgrade(url, "0007")
    engine = make_engine(url)
    with engine.begin() as conn:
        for merchant_id in (1, 2):
            _merchant(conn, merchant_id, "2026-11-20 09:00:00")
        payouts = [(1, 1, "raced", "10:00:05"), (2, 1, "paged", "10:01:00"), (3, 1, "direct", "10:02:00")]
        for payout_id, merchant_id, code, at in payouts:
            conn.execute(
                text(
                    "INSERT INTO payouts (id, transaction_id, merchant_id, custom_code, status, country, method,"
                    " fee_bear, amount_type, name, order_amount_minor, source_currency, arrival_currency,"
                    " source_minor, settlement_minor, arrival_minor, fee_minor, tax_minor, exchange_rate, extra,"
                    " sandbox_outcome, created_at, updated_at) VALUES (:id, :tid, :merchant, :code, 'IN_PROCESSING',"
                    " 'BRA', 'PIX', 'merchant', 'arrival', 'Ana', 100, 'USD', 'BRL', 100, 100, 537, 1, 1, '5.37',"
                    " '{}', 'PAID', :at, :at)"
                ),
                {
                    "id": payout_id,
                    "tid": f"TS{payout_id}",
                    "merchant": merchant_id,
                    "code": code,
                    "at": f"2026-11-20 {at}",
                },
            )
        sessions = [
            (1, 1, "raced", "OPEN", None, "10:00:00"),  # lost its race to payout 1
            (2, 1, "paged", "COMPLETED", 2, "10:00:30"),  # its page made payout 2
            (3, 1, "waiting", "OPEN", None, "10:03:00"),
            (4, 2, "raced", "EXPIRED", None, "10:04:00"),  # another merchant's code
        ]
        for session_id, merchant_id, code, status, payout_id, at in sessions:
            conn.execute(
                text(
                    "INSERT INTO payout_checkout_sessions (id, session_id, merchant_id, user_id, custom_code, fee_bear,"
                    " source_currency, payout_currency, payout_amount_minor, timeout, notify_url, return_url,"
                    " additional_remark, status, payout_id, expires_at, created_at) VALUES (:id, :sid, :merchant,"
                    " 'u', :code, 'merchant', 'USD', 'BRL', 100, 1800, 'http://n', 'http://r', 'r', :status,"
                    " :payout, :at, :at)"
                ),
                {
                    "id": session_id,
                    "sid": f"cs_{session_id}",
                    "merchant": merchant_id,
                    "code": code,
                    "status": status,
                    "payout": payout_id,
                    "at": f"2026-11-20 {at}",
                },
            )
    upgrade(url, "0008")
    with engine.connect() as conn:
        claims = conn.execute(
            text(
                "SELECT merchant_id, custom_code, created_at FROM payout_custom_codes ORDER BY merchant_id, custom_code"
            )
        ).all()
        kept = conn.execute(
            text("SELECT (SELECT count(*) FROM payouts), (SELECT count(*) FROM payout_checkout_sessions)")
        )
        assert tuple(kept.one()) == (3, 4)
    with engine.begin() as conn, pytest.raises(IntegrityError):
        conn.execute(
            text("INSERT INTO payout_custom_codes (merchant_id, custom_code, created_at) VALUES (1, 'raced', :now)"),
            {"now": "2026-11-21 00:00:00"},
        )
    engine.dispose()
    assert [(m, c, str(at)[:19]) for m, c, at in claims] == [
        (1, "direct", "2026-11-20 10:02:00"),
        (1, "paged", "2026-11-20 10:00:30"),
        (1, "raced", "2026-11-20 10:00:00"),
        (1, "waiting", "2026-11-20 10:03:00"),
        (2, "raced", "2026-11-20 10:04:00"),
    ]


def test_a_checkout_paused_at_3ds_loses_the_card_data_it_kept(old_database):
    """0013: a card checkout waiting for (or expired at) 3-D Secure kept the form's card number, code, expiry
    and name in its details; the upgrade drops them and keeps the rest."""
    url = old_database
    upgrade(url, "0012")
    engine = make_engine(url)
    now = "2026-11-20 10:00:00"
    kept = {"name": "Ana", "email": "ana@example.com", "document_number": "39053344705"}
    card = {"card_no": "4111 1111 1111 1111", "exp": "12/30", "cvv": "739", "holder": "ANA S"}
    details = {
        1: {"web": True, "pending": {"values": {**kept, **card}, "card_token": "tok_1", "brand": "visa"}},
        2: {"web": True},
    }
    with engine.begin() as conn:
        _merchant(conn, 1, now)
        for trade_id, status in ((1, "EXPIRED"), (2, "INITIAL")):
            _trade(conn, trade_id, "checkout", "CreditCard", status, now, json.dumps(details[trade_id]))
    upgrade(url, "0013")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, details FROM trades ORDER BY id")).all()
    engine.dispose()
    stored = {trade_id: json.loads(value) if isinstance(value, str) else value for trade_id, value in rows}
    assert stored == {
        1: {"web": True, "pending": {"values": kept, "card_token": "tok_1", "brand": "visa"}},
        2: {"web": True},
    }
