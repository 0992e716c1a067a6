"""Alembic's entry points: the migrations in checkout/migrations/, applied to a database URL."""

from __future__ import annotations

from pathlib import Path

MIGRATIONS = Path(__file__).parent.parent / "migrations"


def alembic_config(url: str):
    # Alembic is loaded only by what migrates (serve, db upgrade, tests), not by every import of the package.
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command  # loaded only to migrate, as above

    command.upgrade(alembic_config(url), revision)
