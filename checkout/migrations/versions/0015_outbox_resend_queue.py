"""outbox: a resend asked for in a request is queued for the worker (the status the message had then)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("resend_from", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("resend_from")
