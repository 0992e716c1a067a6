"""The gettext catalogues: messages.pot extracted from the code and templates, a .po and .mo per locale."""

from __future__ import annotations

from functools import cache
from pathlib import Path

FOLDER = Path(__file__).parent
SOURCE = "en"  # the language the code and templates are written in


@cache
def locales() -> tuple[str, ...]:
    """Every language the pages speak: the source first, then each locale with a compiled catalogue, so that
    `pybabel init -l fr` and a translated, compiled fr/LC_MESSAGES/messages.po are all a new one needs."""
    return (SOURCE, *sorted(path.parent.parent.name for path in FOLDER.glob("*/LC_MESSAGES/messages.mo")))
