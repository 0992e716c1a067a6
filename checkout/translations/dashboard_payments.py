"""Translations of the dashboard's payments list and a trade's page: English text -> (Brazilian Portuguese, Mexican Spanish)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "Payments": ("Pagamentos", "Pagos"),
}
