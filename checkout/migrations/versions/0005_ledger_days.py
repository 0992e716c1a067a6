"""ledger days: per-day net movement of each ledger account, filled from the existing entries

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_days",
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("account", sa.String(length=32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("net_minor", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.PrimaryKeyConstraint("merchant_id", "currency", "account", "day"),
    )
    if op.get_bind().dialect.name == "postgresql":
        day = "date(timezone('UTC', created_at))"
    else:
        day = "date(created_at)"  # SQLite keeps UTC text
    op.execute(
        f"INSERT INTO ledger_days (merchant_id, currency, account, day, net_minor) "
        f"SELECT merchant_id, currency, account, {day}, sum(amount_minor) FROM ledger_entries "
        f"GROUP BY merchant_id, currency, account, {day}"
    )


def downgrade() -> None:
    op.drop_table("ledger_days")
