"""Helpers for the dashboard tests: a browser-like client that reads each form's CSRF token."""

from __future__ import annotations

import re

import pytest

from checkout import create_app
from checkout.db import db

PASSWORD = "correct horse battery"


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


class Browser:
    def __init__(self, client, address: str = "198.51.100.7"):
        self.client, self.address = client, address

    def get(self, path: str, **kwargs):
        return self.client.get(path, environ_base={"REMOTE_ADDR": self.address}, **kwargs)

    def submit(self, path: str, data: dict, *, form_at: str | None = None):
        """POST `data` with the CSRF token of the form shown at `form_at` (default: the same path)."""
        token = csrf(self.get(form_at or path).get_data(as_text=True))
        return self.client.post(path, data={"csrf_token": token, **data}, environ_base={"REMOTE_ADDR": self.address})

    def sign_up(self, email: str = "ana@shop.example", shop_name: str = "Loja da Ana", password: str = PASSWORD):
        return self.submit("/dashboard/signup", {"email": email, "password": password, "shop_name": shop_name})

    def log_in(self, email: str, password: str = PASSWORD):
        return self.submit("/dashboard/login", {"email": email, "password": password})


@pytest.fixture
def visitor(app):
    return Browser(app.test_client())


@pytest.fixture
def make_browser(app):
    return lambda address="198.51.100.7": Browser(app.test_client(), address)


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
