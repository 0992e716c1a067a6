"""one custom code across payouts and checkout sessions: the table both paths claim a merchant's code in

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 12:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# Rows written before this revision may already share a code: a direct payout and a checkout session that
# raced (each table was unique on its own). None is deleted or changed, since a payout has moved money.
# Each code gets one claim, dated from its first use, and it names the payout where one exists (the status
# operation finds payouts only); a session left without its payout shows its page's "taken" end.


def upgrade() -> None:
    op.create_table(
        "payout_custom_codes",
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("custom_code", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"]),
        sa.PrimaryKeyConstraint("merchant_id", "custom_code", name="pk_payout_custom_codes"),
    )
    op.execute(
        sa.text(
            "INSERT INTO payout_custom_codes (merchant_id, custom_code, created_at) "
            "SELECT merchant_id, custom_code, MIN(created_at) FROM ("
            "SELECT merchant_id, custom_code, created_at FROM payouts "
            "UNION ALL SELECT merchant_id, custom_code, created_at FROM payout_checkout_sessions"
            ") AS used GROUP BY merchant_id, custom_code"
        )
    )


def downgrade() -> None:
    op.drop_table("payout_custom_codes")
