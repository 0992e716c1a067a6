"""Printable payment slips: the bar code a network scans (python-barcode) and the PDF voucher (Pillow)."""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

import barcode
from barcode.writer import ImageWriter
from PIL import Image, ImageDraw, ImageFont

from .. import clock
from ..brazil import boleto
from ..payins.models import Trade


@dataclass(frozen=True)
class Slip:
    """A trade's bar code: the symbology its network reads and the digits it carries."""

    symbology: str  # "itf" (FEBRABAN boleto and Caixa's lotérica slips) or "code128" (OXXO, Argentina's vouchers)
    digits: str
    line: str | None = None  # the 47-digit typed line (linha digitável) of a Brazilian slip


def slip_of(trade: Trade) -> Slip | None:
    """The bar code a payment page shows, or None for a method paid without one."""
    fields = trade.details.get("response", {})
    if trade.method == "Boleto":
        line = fields.get("bank_code") or boleto.linha_digitavel(fields["barcode"])
        return Slip("itf", boleto.barcode_from_linha(line), line)
    if trade.method == "Lottery":  # the provider's Lottery answers the typed line as `barcode`
        return Slip("itf", boleto.barcode_from_linha(fields["barcode"]), fields["barcode"])
    if fields.get("barcode"):  # OXXO's, Pago Fácil's and Rapipago's vouchers
        return Slip("code128", fields["barcode"])
    return None


def due_date(trade: Trade) -> date | None:
    """The last Brazil day a boleto or lotérica slip is paid on (an expiry at midnight is the day before's)."""
    due = trade.details.get("response", {}).get("due_date")
    if due:
        return date.fromisoformat(due)
    if trade.expires_at is None:
        return None
    return (clock.as_utc(trade.expires_at).astimezone(clock.BRAZIL) - timedelta(microseconds=1)).date()


@lru_cache(maxsize=64)
def _drawn(symbology: str, digits: str) -> Image.Image:
    # Bars wide enough for a till's scanner on paper; a boleto's ITF as tall as its printed 13 mm is wide
    # (about 8:1, as on the slip). Text under the bars is the page's, not the writer's.
    height = 22.0 if symbology == "itf" else 14.0
    options = {"write_text": False, "module_width": 0.3, "module_height": height, "quiet_zone": 6.5, "dpi": 200}
    drawn = barcode.get(symbology, digits, writer=ImageWriter()).render(options)
    return drawn.convert("L")


def barcode_png(slip: Slip) -> bytes:
    out = io.BytesIO()
    _drawn(slip.symbology, slip.digits).save(out, format="PNG", optimize=True)
    return out.getvalue()


@dataclass(frozen=True)
class Voucher:
    """What a printed voucher says, already in the page's language."""

    title: str
    rows: list[tuple[str, str]]  # label, value: merchant, amount, due date, line...
    note: str


# A4 at 150 dpi: what "save as PDF" of a payment slip gives, light enough to e-mail.
PAGE, MARGIN = (1240, 1754), 90


def voucher_pdf(voucher: Voucher, slip: Slip) -> bytes:
    """One A4 page: title, the voucher's rows, the bar code at full width and the note under it."""
    sheet = Image.new("L", PAGE, 255)
    draw = ImageDraw.Draw(sheet)
    big, label, value = (_font(size) for size in (44, 24, 30))
    if not _ACCENTS:  # Pillow's own font has no accented letters: "lotérica" reads better as "loterica" than a box
        voucher = Voucher(
            _plain(voucher.title), [(_plain(a), _plain(b)) for a, b in voucher.rows], _plain(voucher.note)
        )
    y = MARGIN
    draw.text((MARGIN, y), voucher.title, font=big, fill=0)
    y += 90
    width = PAGE[0] - 2 * MARGIN
    for name, text in voucher.rows:
        draw.text((MARGIN, y), name, font=label, fill=90)
        y += 34
        for part in _wrapped(draw, text, value, width):
            draw.text((MARGIN, y), part, font=value, fill=0)
            y += 40
        y += 18
    bars = _drawn(slip.symbology, slip.digits)
    scale = min(1.0, width / bars.width)
    bars = bars.resize((int(bars.width * scale), int(bars.height * scale)), Image.Resampling.NEAREST)
    sheet.paste(bars, (MARGIN, y + 10))
    y += bars.height + 40
    for part in _wrapped(draw, voucher.note, label, width):
        draw.text((MARGIN, y), part, font=label, fill=60)
        y += 32
    out = io.BytesIO()
    sheet.save(out, format="PDF", resolution=150.0)
    return out.getvalue()


# DejaVu Sans (Debian's fonts-dejavu-core, found by FreeType in the system's font folders) has every letter
# of Portuguese and Spanish; without it, Pillow's built-in font.
try:
    ImageFont.truetype("DejaVuSans.ttf", 10)
    _ACCENTS = True
except OSError:
    _ACCENTS = False


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype("DejaVuSans.ttf", size) if _ACCENTS else ImageFont.load_default(size=size)


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _wrapped(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """Lines of `text` that fit `width`, broken at spaces (a typed line breaks between its groups)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}".strip()
        if current and draw.textlength(trial, font=font) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines
