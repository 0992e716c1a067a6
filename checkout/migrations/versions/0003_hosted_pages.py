"""hosted pages

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 14:11:12.967133
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("merchants", schema=None) as batch_op:
        batch_op.add_column(sa.Column("document", sa.String(length=14), nullable=True))

    with op.batch_alter_table("vaults", schema=None) as batch_op:
        batch_op.add_column(sa.Column("subject", sa.String(length=128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("vaults", schema=None) as batch_op:
        batch_op.drop_column("subject")

    with op.batch_alter_table("merchants", schema=None) as batch_op:
        batch_op.drop_column("document")
