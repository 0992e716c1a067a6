"""trades: a unique index on prepay_id, which the checkout link (`/?prepay_id=`) looks its trade up by

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 09:00:00
"""

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every prepay_id so far was 96 random bits: no two rows share one.
    op.create_index("uq_trades_prepay_id", "trades", ["prepay_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_trades_prepay_id", table_name="trades")
