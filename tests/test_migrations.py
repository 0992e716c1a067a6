"""The Alembic migrations build exactly the schema the models declare."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from checkout.db import Base, db


def test_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []
