"""Translations of the dashboard's settings area: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Settings": ("Configurações", "Configuración"),
}
