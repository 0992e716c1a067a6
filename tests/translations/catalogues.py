"""The committed catalogues read back for tests: each English text and what each locale shows for it."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from checkout import translations

LOCALES = translations.locales()[1:]  # the translated ones: the source language has no catalogue


def read(locale: str) -> Catalog:
    with (translations.FOLDER / locale / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=locale)


def _texts() -> dict[str, tuple[str, ...]]:
    """English -> its text in each of LOCALES. A plural message gives its singular and its plural each the
    form of that locale's "one" and its last form (every locale here has two)."""
    catalogues = [read(locale) for locale in LOCALES]
    texts: dict[str, tuple[str, ...]] = {}
    for message in catalogues[0]:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        shown = [catalogue[message.id].string for catalogue in catalogues]
        for form, english in enumerate(ids):
            texts[english] = tuple(
                (text[0] if form == 0 else text[-1]) if isinstance(text, tuple) else text for text in shown
            )
    return texts


TEXTS = _texts()
