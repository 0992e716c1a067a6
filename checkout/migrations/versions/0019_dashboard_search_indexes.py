"""dashboard search and payin volume: indexes for a customer's e-mail and document, an amount, an id's start

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29 12:00:00
"""

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

# The customer's fields inside trades.details and the payee's name in lower case are expression indexes,
# on PostgreSQL only (written exactly as checkout/dashboard/search.py queries them); SQLite, for development,
# answers those searches by scanning. The others are plain, and text_pattern_ops on PostgreSQL so that
# LIKE 'start%' is a range whatever the database's collation. Each leads with the merchant and ends with
# (created_at, id) where the list's order can follow it.
EXPRESSIONS = {
    "ix_trades_merchant_customer_email": (
        "trades (merchant_id, lower((details -> 'customer') ->> 'email'), created_at, id)"
    ),
    "ix_trades_merchant_customer_document": (
        "trades (merchant_id, (((details -> 'customer') -> 'identify') ->> 'number'), created_at, id)"
    ),
    "ix_payouts_merchant_name_prefix": "payouts (merchant_id, lower(name))",
}
COLUMNS: dict[str, tuple[str, list[str], dict[str, str]]] = {
    "ix_trades_merchant_amount_created": ("trades", ["merchant_id", "amount_minor", "created_at", "id"], {}),
    "ix_trades_merchant_status_created_amount": (
        "trades",
        ["merchant_id", "status", "created_at", "currency", "amount_minor"],
        {},
    ),
    "ix_trades_merchant_trade_no_prefix": ("trades", ["merchant_id", "trade_no"], {"trade_no": "text_pattern_ops"}),
    "ix_trades_merchant_out_trade_no_prefix": (
        "trades",
        ["merchant_id", "out_trade_no"],
        {"out_trade_no": "text_pattern_ops"},
    ),
    "ix_payouts_merchant_document": ("payouts", ["merchant_id", "document_id", "created_at", "id"], {}),
    "ix_payouts_merchant_order_amount": ("payouts", ["merchant_id", "order_amount_minor", "created_at", "id"], {}),
    "ix_payouts_merchant_source_amount": ("payouts", ["merchant_id", "source_minor", "created_at", "id"], {}),
    "ix_payouts_merchant_arrival_amount": ("payouts", ["merchant_id", "arrival_minor", "created_at", "id"], {}),
    "ix_payouts_merchant_transaction_id_prefix": (
        "payouts",
        ["merchant_id", "transaction_id"],
        {"transaction_id": "text_pattern_ops"},
    ),
    "ix_payouts_merchant_custom_code_prefix": (
        "payouts",
        ["merchant_id", "custom_code"],
        {"custom_code": "text_pattern_ops"},
    ),
}


def upgrade() -> None:
    for name, (table, columns, ops) in COLUMNS.items():
        op.create_index(name, table, columns, postgresql_ops=ops)
    if op.get_bind().dialect.name == "postgresql":
        for name, target in EXPRESSIONS.items():
            op.execute(f"CREATE INDEX {name} ON {target}")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in EXPRESSIONS:
            op.execute(f"DROP INDEX {name}")
    for name, (table, _columns, _ops) in COLUMNS.items():
        op.drop_index(name, table_name=table)
