"""dashboard users: merchant console logins, and failed login attempts for rate limiting

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 16:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dashboard_users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
    )
    op.create_index("ix_dashboard_users_merchant_id", "dashboard_users", ["merchant_id"])
    op.create_table(
        "dashboard_login_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_dashboard_login_attempts_email", "dashboard_login_attempts", ["email"])
    op.create_index("ix_dashboard_login_attempts_address", "dashboard_login_attempts", ["address"])
    op.create_index("ix_dashboard_login_attempts_at", "dashboard_login_attempts", ["at"])


def downgrade() -> None:
    op.drop_table("dashboard_login_attempts")
    op.drop_table("dashboard_users")
