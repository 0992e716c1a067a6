"""merchant clocks: each merchant's own sandbox clock offset, on top of the operator's shared one

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 12:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "merchant_clocks",
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("offset_seconds", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("merchant_id"),
    )


def downgrade() -> None:
    op.drop_table("merchant_clocks")
