"""checkout listen's forwards recorded as attempts, and the sandbox inbox

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27 18:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (nullable, no default): no table rebuild on SQLite, no rewrite on PostgreSQL.
    op.add_column("delivery_attempts", sa.Column("via", sa.String(length=16), nullable=True))
    op.create_table(
        "sandbox_inbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("notify_id", sa.String(length=64), nullable=True),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("signature_valid", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_sandbox_inbox_merchant_id", "sandbox_inbox", ["merchant_id"])


def downgrade() -> None:
    op.drop_index("ix_sandbox_inbox_merchant_id", table_name="sandbox_inbox")
    op.drop_table("sandbox_inbox")
    with op.batch_alter_table("delivery_attempts") as batch:
        batch.drop_column("via")
