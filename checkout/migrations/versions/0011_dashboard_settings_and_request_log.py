"""dashboard: a merchant's default page language, and the API request log it shows to developers

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25 18:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

LIST_FILTERS = {"trades": ("status", "method"), "payouts": ("status", "method"), "vaults": ("status", "type")}


def upgrade() -> None:
    with op.batch_alter_table("merchants") as batch:
        batch.add_column(sa.Column("default_language", sa.String(length=8), nullable=True))
    op.create_table(
        "api_requests",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("path", sa.String(length=255), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("request_body", sa.Text(), nullable=False),
        sa.Column("response_body", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    # The log is read newest first per merchant, and purged by age.
    op.create_index("ix_api_requests_merchant_id_id", "api_requests", ["merchant_id", "id"])
    op.create_index("ix_api_requests_at", "api_requests", ["at"])
    # The dashboard's lists: one merchant's rows, newest first, paged by keyset (created_at, id), unfiltered
    # and by each filter. Each leads with merchant_id, so the plain merchant_id index is no longer needed.
    for table, filters in LIST_FILTERS.items():
        op.create_index(f"ix_{table}_merchant_created", table, ["merchant_id", "created_at", "id"])
        for column in filters:
            op.create_index(f"ix_{table}_merchant_{column}_created", table, ["merchant_id", column, "created_at", "id"])
        op.drop_index(f"ix_{table}_merchant_id", table_name=table)


def downgrade() -> None:
    for table, filters in LIST_FILTERS.items():
        op.create_index(f"ix_{table}_merchant_id", table, ["merchant_id"])
        op.drop_index(f"ix_{table}_merchant_created", table_name=table)
        for column in filters:
            op.drop_index(f"ix_{table}_merchant_{column}_created", table_name=table)
    op.drop_table("api_requests")
    with op.batch_alter_table("merchants") as batch:
        batch.drop_column("default_language")
