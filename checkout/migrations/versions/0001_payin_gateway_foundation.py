"""payin gateway foundation

Revision ID: 0001
Revises:
Create Date: 2026-11-21 13:50:02.540866
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "merchants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("app_id", sa.String(length=32), nullable=False),
        sa.Column("security_key", sa.String(length=64), nullable=False),
        sa.Column("app_key", sa.String(length=64), nullable=False),
        sa.Column("return_hosts", sa.JSON(), nullable=False),
        sa.Column("frame_origins", sa.JSON(), nullable=False),
        sa.Column("logo_png", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("app_id"),
        sa.UniqueConstraint("merchant_id"),
    )
    op.create_table(
        "card_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("brand", sa.String(length=16), nullable=False),
        sa.Column("first_six", sa.String(length=6), nullable=False),
        sa.Column("last_four", sa.String(length=4), nullable=False),
        sa.Column("exp_month", sa.Integer(), nullable=False),
        sa.Column("exp_year", sa.Integer(), nullable=False),
        sa.Column("holder_name", sa.String(length=128), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("sandbox_outcome", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token"),
    )
    with op.batch_alter_table("card_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_card_tokens_fingerprint"), ["fingerprint"], unique=False)
        batch_op.create_index(batch_op.f("ix_card_tokens_merchant_id"), ["merchant_id"], unique=False)

    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transaction_id", sa.String(length=36), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("account", sa.String(length=32), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("reference", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_account", ["merchant_id", "currency", "account", "created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_entries_transaction_id"), ["transaction_id"], unique=False)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("notify_id", sa.String(length=36), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("target", sa.String(length=512), nullable=False),
        sa.Column("subject_id", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_dispatch_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("notify_id"),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_due", ["status", "next_attempt_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_outbox_merchant_id"), ["merchant_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_outbox_subject_id"), ["subject_id"], unique=False)

    op.create_table(
        "vaults",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("uid", sa.String(length=64), nullable=False),
        sa.Column("region", sa.String(length=3), nullable=False),
        sa.Column("notify_url", sa.String(length=512), nullable=True),
        sa.Column("return_url", sa.String(length=512), nullable=True),
        sa.Column("card_token_id", sa.Integer(), nullable=True),
        sa.Column("plan_interval", sa.String(length=2), nullable=True),
        sa.Column("plan_start_date", sa.Date(), nullable=True),
        sa.Column("plan_end_date", sa.Date(), nullable=True),
        sa.Column("plan_min_minor", sa.BigInteger(), nullable=True),
        sa.Column("plan_max_minor", sa.BigInteger(), nullable=True),
        sa.Column("customer_name", sa.String(length=128), nullable=True),
        sa.Column("customer_document_type", sa.String(length=4), nullable=True),
        sa.Column("customer_document", sa.String(length=14), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("activated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("session_expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_token_id"],
            ["card_tokens.id"],
        ),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token"),
    )
    with op.batch_alter_table("vaults", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_vaults_merchant_id"), ["merchant_id"], unique=False)

    op.create_table(
        "trades",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("trade_no", sa.String(length=64), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("out_trade_no", sa.String(length=64), nullable=False),
        sa.Column("prepay_id", sa.String(length=64), nullable=True),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("subject", sa.String(length=128), nullable=False),
        sa.Column("content", sa.String(length=255), nullable=True),
        sa.Column("buyer_id", sa.String(length=64), nullable=False),
        sa.Column("notify_url", sa.String(length=512), nullable=False),
        sa.Column("return_url", sa.String(length=512), nullable=True),
        sa.Column("vault_id", sa.Integer(), nullable=True),
        sa.Column("card_token_id", sa.Integer(), nullable=True),
        sa.Column("scheduled_date", sa.Date(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("failure_reason", sa.String(length=128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_token_id"],
            ["card_tokens.id"],
        ),
        sa.ForeignKeyConstraint(
            ["merchant_id"],
            ["merchants.id"],
        ),
        sa.ForeignKeyConstraint(
            ["vault_id"],
            ["vaults.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("merchant_id", "out_trade_no", name="uq_trades_merchant_out_trade_no"),
        sa.UniqueConstraint("trade_no"),
    )
    with op.batch_alter_table("trades", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trades_merchant_id"), ["merchant_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_trades_scheduled_date"), ["scheduled_date"], unique=False)
        batch_op.create_index(batch_op.f("ix_trades_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_trades_vault_id"), ["vault_id"], unique=False)

    op.create_table(
        "refunds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("refund_no", sa.String(length=64), nullable=False),
        sa.Column("trade_id", sa.Integer(), nullable=False),
        sa.Column("out_request_no", sa.String(length=16), nullable=True),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("reason", sa.String(length=128), nullable=True),
        sa.Column("user_info", sa.JSON(), nullable=False),
        sa.Column("bank_info", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["trade_id"],
            ["trades.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("refund_no"),
        sa.UniqueConstraint("trade_id", "out_request_no", name="uq_refunds_trade_out_request_no"),
    )
    with op.batch_alter_table("refunds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_refunds_trade_id"), ["trade_id"], unique=False)

    op.create_table(
        "trade_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("trade_id", sa.Integer(), nullable=False),
        sa.Column("from_status", sa.String(length=24), nullable=True),
        sa.Column("to_status", sa.String(length=24), nullable=False),
        sa.Column("reason", sa.String(length=128), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["trade_id"],
            ["trades.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("trade_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trade_events_trade_id"), ["trade_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("trade_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trade_events_trade_id"))

    op.drop_table("trade_events")
    with op.batch_alter_table("refunds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_refunds_trade_id"))

    op.drop_table("refunds")
    with op.batch_alter_table("trades", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trades_vault_id"))
        batch_op.drop_index(batch_op.f("ix_trades_status"))
        batch_op.drop_index(batch_op.f("ix_trades_scheduled_date"))
        batch_op.drop_index(batch_op.f("ix_trades_merchant_id"))

    op.drop_table("trades")
    with op.batch_alter_table("vaults", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_vaults_merchant_id"))

    op.drop_table("vaults")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_subject_id"))
        batch_op.drop_index(batch_op.f("ix_outbox_merchant_id"))
        batch_op.drop_index("ix_outbox_due")

    op.drop_table("outbox")
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_entries_transaction_id"))
        batch_op.drop_index("ix_ledger_account")

    op.drop_table("ledger_entries")
    with op.batch_alter_table("card_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_card_tokens_merchant_id"))
        batch_op.drop_index(batch_op.f("ix_card_tokens_fingerprint"))

    op.drop_table("card_tokens")
    op.drop_table("merchants")
