"""payout platform

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 14:00:59.371062
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "payouts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transaction_id", sa.String(length=32), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("custom_code", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("country", sa.String(length=8), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=True),
        sa.Column("fee_bear", sa.String(length=12), nullable=False),
        sa.Column("amount_type", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("phone", sa.String(length=32), nullable=True),
        sa.Column("email", sa.String(length=128), nullable=True),
        sa.Column("account", sa.String(length=512), nullable=True),
        sa.Column("account_type", sa.String(length=16), nullable=True),
        sa.Column("document_id", sa.String(length=32), nullable=True),
        sa.Column("document_type", sa.String(length=8), nullable=True),
        sa.Column("bank_code", sa.String(length=16), nullable=True),
        sa.Column("branch", sa.String(length=16), nullable=True),
        sa.Column("account_digit", sa.String(length=4), nullable=True),
        sa.Column("order_amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("source_currency", sa.String(length=3), nullable=False),
        sa.Column("arrival_currency", sa.String(length=3), nullable=False),
        sa.Column("source_minor", sa.BigInteger(), nullable=False),
        sa.Column("settlement_minor", sa.BigInteger(), nullable=False),
        sa.Column("arrival_minor", sa.BigInteger(), nullable=False),
        sa.Column("fee_minor", sa.BigInteger(), nullable=False),
        sa.Column("tax_minor", sa.BigInteger(), nullable=False),
        sa.Column("exchange_rate", sa.String(length=24), nullable=False),
        sa.Column("notify_url", sa.String(length=512), nullable=True),
        sa.Column("additional_remark", sa.String(length=64), nullable=True),
        sa.Column("remark", sa.String(length=255), nullable=True),
        sa.Column("bank_id", sa.String(length=64), nullable=True),
        sa.Column("bank_number", sa.String(length=16), nullable=True),
        sa.Column("bank_name", sa.String(length=128), nullable=True),
        sa.Column("payer_bank_code", sa.String(length=16), nullable=True),
        sa.Column("extra", sa.JSON(), nullable=False),
        sa.Column("sandbox_outcome", sa.String(length=16), nullable=False),
        sa.Column("next_step_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("merchant_id", "custom_code", name="uq_payouts_merchant_custom_code"),
        sa.UniqueConstraint("transaction_id"),
    )
    with op.batch_alter_table("payouts", schema=None) as batch_op:
        batch_op.create_index("ix_payouts_due", ["status", "next_step_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_payouts_merchant_id"), ["merchant_id"], unique=False)

    op.create_table(
        "payout_checkout_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("custom_code", sa.String(length=64), nullable=False),
        sa.Column("fee_bear", sa.String(length=12), nullable=False),
        sa.Column("source_currency", sa.String(length=3), nullable=False),
        sa.Column("payout_currency", sa.String(length=3), nullable=False),
        sa.Column("payout_amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("timeout", sa.Integer(), nullable=False),
        sa.Column("notify_url", sa.String(length=512), nullable=False),
        sa.Column("return_url", sa.String(length=512), nullable=False),
        sa.Column("additional_remark", sa.String(length=40), nullable=False),
        sa.Column("country", sa.String(length=8), nullable=True),
        sa.Column("method", sa.String(length=16), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("payout_id", sa.Integer(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.ForeignKeyConstraint(
            ["payout_id"],
            ["payouts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("merchant_id", "custom_code", name="uq_checkout_merchant_custom_code"),
        sa.UniqueConstraint("session_id"),
    )
    with op.batch_alter_table("payout_checkout_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_payout_checkout_sessions_merchant_id"), ["merchant_id"], unique=False)

    op.create_table(
        "payout_refunds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("refunded_id", sa.String(length=32), nullable=False),
        sa.Column("payout_id", sa.Integer(), nullable=False),
        sa.Column("arrival_minor", sa.BigInteger(), nullable=False),
        sa.Column("source_minor", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["payout_id"],
            ["payouts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("refunded_id"),
    )
    with op.batch_alter_table("payout_refunds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_payout_refunds_payout_id"), ["payout_id"], unique=False)

    with op.batch_alter_table("merchants", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fx_markup_bps", sa.Integer(), nullable=False, server_default="50"))


def downgrade() -> None:
    with op.batch_alter_table("merchants", schema=None) as batch_op:
        batch_op.drop_column("fx_markup_bps")

    with op.batch_alter_table("payout_refunds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payout_refunds_payout_id"))

    op.drop_table("payout_refunds")
    with op.batch_alter_table("payout_checkout_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payout_checkout_sessions_merchant_id"))

    op.drop_table("payout_checkout_sessions")
    with op.batch_alter_table("payouts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payouts_merchant_id"))
        batch_op.drop_index("ix_payouts_due")

    op.drop_table("payouts")
