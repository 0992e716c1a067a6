"""The dashboard tests' fixtures: browsers, a signed-in user, another app on the same database, the command line."""

from __future__ import annotations

import pytest

from checkout import create_app
from checkout.db import db

from .helpers import Browser, add_user


@pytest.fixture
def visitor(app):
    return Browser(app.test_client())


@pytest.fixture
def make_browser(app):
    return lambda address="198.51.100.7": Browser(app.test_client(), address)


@pytest.fixture
def alice(app, api, make_browser) -> Browser:
    """A dashboard user of `api`'s merchant, signed in."""
    add_user(app, api.credentials, "a@shop.example")
    browser = make_browser()
    assert browser.log_in("a@shop.example").status_code == 302
    return browser


@pytest.fixture
def app_with(database_url):
    """Another app on the same database; the extension's engine (one per process) is put back after."""
    saved = dict(vars(db))
    made = []

    def make(**overrides):
        made.append(1)
        return create_app(
            {
                "DATABASE_URL": database_url,
                "SECRET_KEY": "test-secret-key",
                "PUBLIC_URL": "http://checkout.test",
                "TESTING": True,
                **overrides,
            }
        )

    yield make
    if made and db.engine is not saved["engine"]:
        db.engine.dispose()
    vars(db).update(saved)


@pytest.fixture
def run_cli(app, database_url, monkeypatch):
    from click.testing import CliRunner

    from checkout import cli

    monkeypatch.setenv("CHECKOUT_DATABASE_URL", database_url)
    monkeypatch.setenv("CHECKOUT_SECRET_KEY", "cli-secret")
    runner = CliRunner()
    return lambda *args: runner.invoke(cli.main, list(args))
