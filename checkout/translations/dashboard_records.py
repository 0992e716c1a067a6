"""Translations of the dashboard's vaults and payouts pages: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Vaults": ("Cofres", "Bóvedas"),
}
