"""virtual SPEI accounts: a standing CLABE per customer, and the transfers each received

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "virtual_spei_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.String(length=16), nullable=False),
        sa.Column("account_number", sa.String(length=18), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("buyer_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("email", sa.String(length=128), nullable=False),
        sa.Column("identify_type", sa.String(length=4), nullable=False),
        sa.Column("identify_number", sa.String(length=18), nullable=False),
        sa.Column("notify_url", sa.String(length=512), nullable=False),
        sa.Column("beneficiary_name", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("canceled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("account_id"),
        sa.UniqueConstraint("account_number"),
    )
    op.create_index(
        "ix_virtual_spei_accounts_merchant_created", "virtual_spei_accounts", ["merchant_id", "created_at", "id"]
    )
    op.create_table(
        "virtual_spei_transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("trade_id", sa.Integer(), nullable=False),
        sa.Column("tracking_key", sa.String(length=30), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"]),
        sa.ForeignKeyConstraint(["account_id"], ["virtual_spei_accounts.id"]),
        sa.ForeignKeyConstraint(["trade_id"], ["trades.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("trade_id"),
    )
    op.create_index(
        "ix_virtual_spei_transfers_merchant_created", "virtual_spei_transfers", ["merchant_id", "created_at", "id"]
    )
    op.create_index(
        "ix_virtual_spei_transfers_account_created", "virtual_spei_transfers", ["account_id", "created_at", "id"]
    )


def downgrade() -> None:
    op.drop_table("virtual_spei_transfers")
    op.drop_table("virtual_spei_accounts")
