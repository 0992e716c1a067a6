"""dashboard: a session version per user (logout ends every copy of a session cookie), sign-up attempts per address

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dashboard_users") as batch:
        batch.add_column(sa.Column("session_version", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "dashboard_signup_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_dashboard_signup_attempts_address", "dashboard_signup_attempts", ["address"])
    op.create_index("ix_dashboard_signup_attempts_at", "dashboard_signup_attempts", ["at"])


def downgrade() -> None:
    op.drop_table("dashboard_signup_attempts")
    with op.batch_alter_table("dashboard_users") as batch:
        batch.drop_column("session_version")
