"""The committed reference docs are what `checkout docs` generates now, so they never drift from the code."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from checkout import cli
from checkout.api import reference

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "reference"


def test_committed_reference_docs_are_up_to_date(app, database_url, monkeypatch, tmp_path):
    monkeypatch.setenv("CHECKOUT_DATABASE_URL", database_url)
    result = CliRunner().invoke(cli.main, ["docs", "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    generated = sorted(path.name for path in tmp_path.iterdir())
    assert generated == sorted([*reference.PAGES, "errors.md"])
    for name in generated:
        assert (tmp_path / name).read_text(encoding="utf-8") == (COMMITTED / name).read_text(encoding="utf-8"), (
            f"docs/reference/{name} is stale: run `checkout docs` and commit the result"
        )


def test_every_operation_has_a_section(client):
    doc = client.get("/openapi.json").get_json()
    text = "".join((COMMITTED / name).read_text(encoding="utf-8") for name in reference.PAGES)
    for path, item in doc["paths"].items():
        for method in item:
            assert f"## {method.upper()} `{path}`" in text
