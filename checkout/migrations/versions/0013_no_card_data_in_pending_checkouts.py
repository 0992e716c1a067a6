"""trades: a hosted card checkout waiting for 3-D Secure kept the card's number, code, expiry and name; drop them

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 06:25:00
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

CARD_DATA = ("card_no", "exp", "cvv", "holder")


def upgrade() -> None:
    # The rows are few (checkouts paused at 3-D Secure, and those that expired there); the JSON is rewritten
    # in Python so that the same step runs on SQLite and PostgreSQL.
    connection = op.get_bind()
    trades = sa.table("trades", sa.column("id", sa.Integer), sa.column("details", sa.JSON))
    waiting = sa.cast(trades.c.details, sa.Text).like('%"pending"%')
    rows = connection.execute(sa.select(trades.c.id, trades.c.details).where(waiting)).all()
    for trade_id, stored in rows:
        details = (json.loads(stored) if isinstance(stored, str) else stored) or {}
        values = (details.get("pending") or {}).get("values")
        if isinstance(values, dict) and any(name in values for name in CARD_DATA):
            kept = {name: value for name, value in values.items() if name not in CARD_DATA}
            cleaned = {**details, "pending": {**details["pending"], "values": kept}}
            connection.execute(sa.update(trades).where(trades.c.id == trade_id).values(details=cleaned))


def downgrade() -> None:
    # What was dropped is gone; nothing to put back.
    pass
