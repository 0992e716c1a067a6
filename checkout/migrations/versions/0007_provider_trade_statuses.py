"""provider trade statuses: a partly refunded trade is REFUNDED, as the provider reports it

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# The refunds table keeps every amount, so nothing is lost; going back recomputes the old status.


def upgrade() -> None:
    op.execute(sa.text("UPDATE trades SET status = 'REFUNDED' WHERE status = 'PARTIAL_REFUND'"))
    op.execute(sa.text("UPDATE trade_events SET to_status = 'REFUNDED' WHERE to_status = 'PARTIAL_REFUND'"))
    op.execute(sa.text("UPDATE trade_events SET from_status = 'REFUNDED' WHERE from_status = 'PARTIAL_REFUND'"))


def downgrade() -> None:
    op.execute(
        sa.text(
            "UPDATE trades SET status = 'PARTIAL_REFUND' WHERE status = 'REFUNDED' AND amount_minor > "
            "(SELECT COALESCE(SUM(refunds.amount_minor), 0) FROM refunds WHERE refunds.trade_id = trades.id)"
        )
    )
