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
# Every Spanish-speaking country reads Mexican Spanish, the one Spanish catalogue; its amounts and dates
# follow its own CLDR locale (Colombia's "$ 3.000,00", Chile's "25-11-26"), named here.
SPANISH_COUNTRIES = {
    "MEX": "es_MX", "COL": "es_CO", "CHL": "es_CL", "PER": "es_PE", "ARG": "es_AR", "URY": "es_UY", "PRY": "es_PY",
    "BOL": "es_BO", "ECU": "es_EC", "VEN": "es_VE", "GTM": "es_GT", "HND": "es_HN", "SLV": "es_SV", "NIC": "es_NI",
    "CRI": "es_CR", "PAN": "es_PA", "DOM": "es_DO", "CUB": "es_CU", "PRI": "es_PR", "ESP": "es_ES", "GNQ": "es_GQ",
}  # fmt: skip
COUNTRY_LOCALES = {"BRA": "pt_BR", **dict.fromkeys(SPANISH_COUNTRIES, "es_MX")}
# Their clocks, where the language's (Mexico City for es_MX) would be another country's.
COUNTRY_TIMEZONES = {"COL": "America/Bogota", "CHL": "America/Santiago", "PER": "America/Lima"}
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
    """The catalogue: `language` if given, else the session's country, else the browser's (any es-* reads es_MX)."""
    asked = _ALIASES.get(request.args.get("language", "").lower())
    if asked:
        return asked
    if country in COUNTRY_LOCALES:
        return COUNTRY_LOCALES[country]
    best = request.accept_languages.best_match(["en", "pt-BR", "pt", "es-MX", "es"])
    return _ALIASES.get((best or "en").lower(), "en")


def format_locale(locale: str, country: str | None) -> str:
    """The CLDR locale of amounts and dates: the country's own where it reads the Spanish catalogue."""
    return SPANISH_COUNTRIES.get(country or "", locale) if locale == "es_MX" else locale


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
