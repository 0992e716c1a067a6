"""The Alembic migrations build exactly the schema the models declare."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from checkout.db import Base, db, make_engine, upgrade


def test_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []


def test_a_partly_refunded_trade_becomes_refunded_and_its_history_too(tmp_path):
    """0007: PARTIAL_REFUND is not a provider status; the rows and their history say REFUNDED."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    upgrade(url, "0006")
    engine = make_engine(url)
    now = "2026-11-20 10:00:00"
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO merchants (id, merchant_id, name, app_id, security_key, app_key, return_hosts,"
                " frame_origins, created_at) VALUES (1, 'M1', 'm', 'app', 'k', 'a', '[]', '[]', :now)"
            ),
            {"now": now},
        )
        for trade_id, status in ((1, "PARTIAL_REFUND"), (2, "SUCCESS")):
            conn.execute(
                text(
                    "INSERT INTO trades (id, trade_no, merchant_id, out_trade_no, kind, method, status, amount_minor,"
                    " currency, subject, buyer_id, notify_url, details, created_at, updated_at) VALUES (:id, :no, 1,"
                    " :no, 'direct', 'PIX', :status, 10000, 'BRL', 's', 'b', 'http://n', '{}', :now, :now)"
                ),
                {"id": trade_id, "no": f"T{trade_id}", "status": status, "now": now},
            )
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
