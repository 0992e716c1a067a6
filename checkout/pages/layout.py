"""Layout choice (web or H5), the customer's language, and merchant logos resized with Pillow."""

from __future__ import annotations

import io
from functools import lru_cache

from flask import request
from PIL import Image

WEB, H5 = "web", "h5"
# CSS boxes from the interface (web 128x64, H5 42x42); images are made at twice that for sharp screens.
LOGO_BOXES = {WEB: (128, 64), H5: (42, 42)}
LOCALES = ("en", "pt_BR", "es_MX")
# Spanish-speaking countries of the country pages read Mexican Spanish, the one Spanish catalogue.
COUNTRY_LOCALES = {"BRA": "pt_BR", "MEX": "es_MX", "COL": "es_MX", "CHL": "es_MX", "PER": "es_MX"}
# Each country's clock: a page shows times in its session's country's zone, whatever language it reads
# (an English page of a Brazilian session says Brasília time, not UTC).
COUNTRY_TIMEZONES = {
    "BRA": "America/Sao_Paulo",
    "MEX": "America/Mexico_City",
    "COL": "America/Bogota",
    "CHL": "America/Santiago",
    "PER": "America/Lima",
}
_ALIASES = {
    "en": "en",
    "pt": "pt_BR",
    "pt-br": "pt_BR",
    "pt_br": "pt_BR",
    "es": "es_MX",
    "es-mx": "es_MX",
    "es_mx": "es_MX",
}


def choose_view() -> str:
    asked = request.args.get("view", "").lower()
    if asked in (WEB, H5):
        return asked
    if request.headers.get("Sec-CH-UA-Mobile") == "?1":
        return H5
    agent = request.headers.get("User-Agent", "")
    return H5 if "Mobi" in agent or "Android" in agent or "iPhone" in agent else WEB


def choose_locale(country: str | None) -> str:
    asked = _ALIASES.get(request.args.get("language", "").lower())
    if asked:
        return asked
    if country in COUNTRY_LOCALES:
        return COUNTRY_LOCALES[country]
    best = request.accept_languages.best_match(["en", "pt-BR", "pt", "es-MX", "es"])
    return _ALIASES.get((best or "en").lower(), "en")


@lru_cache(maxsize=256)
def logo_png(data: bytes, view: str) -> bytes:
    """The logo fitted into the view's box, aspect kept, centred on a transparent canvas of the box's size."""
    width, height = (2 * side for side in LOGO_BOXES[view])
    image: Image.Image  # the opened file, then its RGBA copy
    with Image.open(io.BytesIO(data)) as image:
        image = image.convert("RGBA")  # noqa: PLW2901 (the RGBA copy replaces the file in this block)
        image.thumbnail((width, height), Image.Resampling.LANCZOS)
        canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        canvas.paste(image, ((width - image.width) // 2, (height - image.height) // 2), image)
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return out.getvalue()
