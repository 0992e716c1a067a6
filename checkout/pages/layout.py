"""Layout choice (web or H5), the customer's country, language and formats, and merchant logos resized with Pillow."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import cast

from babel import Locale
from flask import request
from PIL import Image, ImageDraw, ImageFont

from .. import translations
from ..payins.methods import catalog, countries

WEB, H5 = "web", "h5"
# CSS boxes from the interface (web 128x64, H5 42x42); images are made at twice that for sharp screens.
LOGO_BOXES = {WEB: (128, 64), H5: (42, 42)}
# Wider than 2:1, a logo fitted into the 42x42 H5 box is a strip under 21 px tall that nobody reads: H5 shows
# the merchant's initials on the logo's own colour instead (the web box, 128x64, keeps every logo).
WIDE_LOGO = 2.0
LOCALES = translations.locales()
# The catalogue a bare language (or one of its other regions) reads, where there is more than one.
PREFERRED = {"pt": "pt_BR", "es": "es_MX"}
# Every Spanish-speaking country reads Mexican Spanish, the one Spanish catalogue; its amounts and dates
# follow its own CLDR locale (Colombia's es_CO, Chile's es_CL...), named here.
SPANISH_COUNTRIES = {
    "MEX": "es_MX", "COL": "es_CO", "CHL": "es_CL", "PER": "es_PE", "ARG": "es_AR", "URY": "es_UY", "PRY": "es_PY",
    "BOL": "es_BO", "ECU": "es_EC", "VEN": "es_VE", "GTM": "es_GT", "HND": "es_HN", "SLV": "es_SV", "NIC": "es_NI",
    "CRI": "es_CR", "PAN": "es_PA", "DOM": "es_DO", "CUB": "es_CU", "PRI": "es_PR", "ESP": "es_ES", "GNQ": "es_GQ",
}  # fmt: skip
# Countries whose language has no catalogue yet read English in their own number and date formats: an English
# CLDR locale of the country where there is one, else the country's own locale (its digits always Latin, its
# words on an English page in English: see i18n). Which catalogues come next: docs/hosted-pages.md.
ENGLISH_COUNTRIES = {
    "PHL": "en_PH", "MYS": "en_MY", "HKG": "en_HK", "IDN": "en_ID", "ARE": "en_AE",
    "KOR": "ko_KR", "CHN": "zh_Hans_CN", "TWN": "zh_Hant_TW", "THA": "th_TH", "RUS": "ru_RU", "TUR": "tr_TR",
    "EGY": "ar_EG", "BHR": "ar_BH", "KWT": "ar_KW", "OMN": "ar_OM", "QAT": "ar_QA", "SAU": "ar_SA",
}  # fmt: skip
COUNTRY_LOCALES = {
    "BRA": "pt_BR",
    **dict.fromkeys(SPANISH_COUNTRIES, "es_MX"),
    **dict.fromkeys(ENGLISH_COUNTRIES, "en"),
}
# The CLDR locale of a country's amounts and dates, on a page that reads the country's catalogue.
COUNTRY_FORMATS = {"BRA": "pt_BR", **SPANISH_COUNTRIES, **ENGLISH_COUNTRIES}
# Each country's clock: a page shows times in its session's country's zone, whatever language it reads
# (an English page of a Brazilian session says Brasília time, not UTC). Indonesia: Jakarta's (WIB), where
# most of its people and banks are.
COUNTRY_TIMEZONES = {
    "BRA": "America/Sao_Paulo",
    "MEX": "America/Mexico_City",
    "COL": "America/Bogota",
    "CHL": "America/Santiago",
    "PER": "America/Lima",
    "ARG": "America/Argentina/Buenos_Aires",
    "BOL": "America/La_Paz",
    "CRI": "America/Costa_Rica",
    "ECU": "America/Guayaquil",
    "SLV": "America/El_Salvador",
    "GTM": "America/Guatemala",
    "PAN": "America/Panama",
    "PRY": "America/Asuncion",
    "URY": "America/Montevideo",
    "EGY": "Africa/Cairo",
    "IDN": "Asia/Jakarta",
    "TWN": "Asia/Taipei",
    "PHL": "Asia/Manila",
    "MYS": "Asia/Kuala_Lumpur",
    "THA": "Asia/Bangkok",
    "CHN": "Asia/Shanghai",
    "HKG": "Asia/Hong_Kong",
    "KOR": "Asia/Seoul",
    "RUS": "Europe/Moscow",
    "TUR": "Europe/Istanbul",
    "BHR": "Asia/Bahrain",
    "KWT": "Asia/Kuwait",
    "OMN": "Asia/Muscat",
    "QAT": "Asia/Qatar",
    "SAU": "Asia/Riyadh",
    "ARE": "Asia/Dubai",
}
# Currencies that only a card page takes (no method row or wallet channel names their country).
CARD_COUNTRIES = {"BHD": "BHR", "KWD": "KWT", "OMR": "OMN", "QAR": "QAT", "SAR": "SAU", "AED": "ARE", "RUB": "RUS"}


def _aliases(locales: tuple[str, ...]) -> dict[str, str]:
    """What a `language` value or a stored setting may say ("pt", "pt-BR", "pt_br") -> the catalogue."""
    aliases: dict[str, str] = {}
    for locale in locales:
        language = locale.split("_")[0]
        preferred = PREFERRED.get(language, locale)
        aliases.setdefault(language, preferred if preferred in locales else locale)
        aliases[locale.lower()] = aliases[locale.lower().replace("_", "-")] = locale
    return aliases


_ALIASES = _aliases(LOCALES)
# What the browser's Accept-Language is matched against: each catalogue's tag, then its bare language.
_OFFERED = list(dict.fromkeys(tag for locale in LOCALES for tag in (locale.replace("_", "-"), locale.split("_")[0])))


def language_names() -> list[tuple[str, str]]:
    """Each language the pages speak, as a tag (pt-BR) and its name in itself, as CLDR writes it."""
    names = []
    for locale in LOCALES:
        own = Locale.parse(locale).get_display_name(locale) or locale
        names.append((locale.replace("_", "-"), own[:1].upper() + own[1:]))
    return names


def choose_view() -> str:
    asked = request.args.get("view", "").lower()
    if asked in (WEB, H5):
        return asked
    if request.headers.get("Sec-CH-UA-Mobile") == "?1":
        return H5
    agent = request.headers.get("User-Agent", "")
    return H5 if "Mobi" in agent or "Android" in agent or "iPhone" in agent else WEB


def choose_locale(country: str | None, default: str | None = None) -> str:
    """The catalogue: `language` if given, else the session's country, else the merchant's `default`
    language (its dashboard setting), else the browser's (any es-* reads es_MX)."""
    asked = _ALIASES.get(request.args.get("language", "").lower())
    if asked:
        return asked
    if country in COUNTRY_LOCALES:
        return COUNTRY_LOCALES[country]
    if default and default.lower() in _ALIASES:
        return _ALIASES[default.lower()]
    best = request.accept_languages.best_match(_OFFERED)
    return _ALIASES.get((best or "en").lower(), "en")


def initials(name: str) -> str:
    """What stands for a merchant without a legible logo: the first letters of its first two words."""
    return "".join(word[0] for word in name.split()[:2]).upper()


def format_locale(locale: str, country: str | None) -> str:
    """The CLDR locale of amounts and dates: the country's own where the page reads the country's catalogue
    (es_CO for a Colombian page in Spanish, ko_KR for a Korean one in English); else the catalogue's."""
    return COUNTRY_FORMATS[country] if country and COUNTRY_LOCALES.get(country) == locale else locale


def currency_country(currency: str) -> str | None:
    """The one country whose pages take `currency` (a card's or a hosted checkout's before its method), None where
    several do (USD: Ecuador, Panama and El Salvador; EUR): such a page follows its language."""
    return _CURRENCY_COUNTRIES.get(currency)


def _currency_countries() -> dict[str, str]:
    """Each currency that only one country's rows name, and its country."""
    named: dict[str, set[str]] = {"BRL": {"BRA"}}
    rows: list[countries.Variant | catalog.Channel | catalog.Bank] = [
        *countries.VARIANTS,
        *catalog.CHANNELS,
        *(bank for banks in catalog.BANKS.values() for bank in banks),
    ]
    for row in rows:
        named.setdefault(row.currency, set()).add(row.country)
    single = {currency: next(iter(found)) for currency, found in named.items() if len(found) == 1}
    return {**CARD_COUNTRIES, **single}


_CURRENCY_COUNTRIES = _currency_countries()


@lru_cache(maxsize=256)
def logo_png(data: bytes, view: str, name: str = "") -> bytes:
    """The logo fitted into the view's box, aspect kept, centred on a transparent canvas of the box's size;
    on H5, a wide logo becomes the merchant's initials (of `name`) on the logo's main colour."""
    width, height = (2 * side for side in LOGO_BOXES[view])
    image: Image.Image  # the opened file, then its RGBA copy
    with Image.open(io.BytesIO(data)) as image:
        image = image.convert("RGBA")  # noqa: PLW2901 (the RGBA copy replaces the file in this block)
        if view == H5 and name.strip() and image.width > WIDE_LOGO * image.height:
            canvas = _initials_mark(initials(name), _main_colour(image), width)
        else:
            image.thumbnail((width, height), Image.Resampling.LANCZOS)
            canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
            canvas.paste(image, ((width - image.width) // 2, (height - image.height) // 2), image)
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _main_colour(image: Image.Image) -> tuple[int, int, int]:
    """The most frequent opaque colour of the logo (its background, usually), a neutral ink when none is."""
    small = image.copy()
    small.thumbnail((64, 64))
    counts: dict[tuple[int, int, int], int] = {}
    for count, pixel in small.getcolors(small.width * small.height) or []:
        r, g, b, a = cast(tuple[int, int, int, int], pixel)  # RGBA: a tuple per colour, never a float
        if a >= 128:
            key = (r // 8 * 8, g // 8 * 8, b // 8 * 8)
            counts[key] = counts.get(key, 0) + count
    return max(counts, key=counts.__getitem__) if counts else (28, 36, 48)


def _luminance(colour: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _initials_mark(letters: str, background: tuple[int, int, int], side: int) -> Image.Image:
    """A square of the logo's colour with the initials in white or near-black, whichever reads better."""
    light, dark = _luminance(background), (20, 24, 32)
    # WCAG contrast ratios of white and of near-black on the background: the larger wins.
    ink = (255, 255, 255) if 1.05 / (light + 0.05) >= (light + 0.05) / (_luminance(dark) + 0.05) else dark
    canvas = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle((0, 0, side - 1, side - 1), radius=side // 7, fill=(*background, 255))
    font = ImageFont.load_default(size=side * 0.42 if len(letters) > 1 else side * 0.5)
    draw.text(
        (side / 2, side / 2), letters, font=font, fill=(*ink, 255), anchor="mm", stroke_width=1, stroke_fill=(*ink, 255)
    )
    return canvas
