"""deliveries and shared sandbox clock

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21 14:32:52.559989
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sandbox_clock",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("offset_seconds", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "delivery_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("response", sa.String(length=255), nullable=True),
        sa.Column("error", sa.String(length=255), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("succeeded", sa.Boolean(), nullable=False),
        sa.Column("manual", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["outbox_id"],
            ["outbox.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("delivery_attempts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_delivery_attempts_outbox_id"), ["outbox_id"], unique=False)

    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("last_error", sa.String(length=255), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("last_error")
        batch_op.drop_column("delivered_at")
        batch_op.drop_column("locked_until")

    with op.batch_alter_table("delivery_attempts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_delivery_attempts_outbox_id"))

    op.drop_table("delivery_attempts")
    op.drop_table("sandbox_clock")
