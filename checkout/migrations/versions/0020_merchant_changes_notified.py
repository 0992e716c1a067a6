"""merchants: every change to a row, and the table emptied, announced on PostgreSQL (NOTIFY checkout_changes)

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-30 12:00:00
"""

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

# Each process that checks API keys listens on the channel (checkout/db/changes.py) and reads a merchant's keys
# again only when its row was announced changed. The payload is `<table>:<id>` (`<table>:*` for TRUNCATE),
# sent when the changing transaction commits; PostgreSQL only (SQLite has no other process to tell).
FUNCTION = """
CREATE FUNCTION checkout_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_LEVEL = 'STATEMENT' THEN
        PERFORM pg_notify('checkout_changes', TG_TABLE_NAME || ':*');
    ELSE
        PERFORM pg_notify('checkout_changes', TG_TABLE_NAME || ':' || OLD.id);
    END IF;
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    op.execute(
        "CREATE TRIGGER merchants_changed AFTER UPDATE OR DELETE ON merchants"
        " FOR EACH ROW EXECUTE FUNCTION checkout_notify_change()"
    )
    op.execute(
        "CREATE TRIGGER merchants_emptied AFTER TRUNCATE ON merchants"
        " FOR EACH STATEMENT EXECUTE FUNCTION checkout_notify_change()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER merchants_emptied ON merchants")
    op.execute("DROP TRIGGER merchants_changed ON merchants")
    op.execute("DROP FUNCTION checkout_notify_change()")
