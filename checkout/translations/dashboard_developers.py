"""Translations of the dashboard's developers area: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Developers": ("Desenvolvedores", "Desarrolladores"),
}
