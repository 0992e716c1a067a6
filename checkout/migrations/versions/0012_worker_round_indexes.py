"""trades: indexes for the worker's rounds, which read every pending trade to find the few that were due

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 09:55:00
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Cards to charge and vaults to debit, oldest first; the status alone, as the index it replaces.
    op.create_index("ix_trades_status_method_kind_id", "trades", ["status", "method", "kind", "id"])
    # Trades past their expiry, the longest overdue first.
    op.create_index("ix_trades_status_expires_at_id", "trades", ["status", "expires_at", "id"])
    op.drop_index("ix_trades_status", table_name="trades")


def downgrade() -> None:
    op.create_index("ix_trades_status", "trades", ["status"])
    op.drop_index("ix_trades_status_expires_at_id", table_name="trades")
    op.drop_index("ix_trades_status_method_kind_id", table_name="trades")
