"""Payment slips as a till reads them: the bar code a network scans (python-barcode), its digits grouped as the
network prints them, the amount and deadline a voucher states, and what its PDF says (drawn by slip_pdf)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache

import barcode
from babel import numbers
from barcode.writer import ImageWriter
from flask_babel import gettext as _
from PIL import Image

from .. import clock, money
from ..brazil import boleto
from ..payins.models import Trade
from . import pay_journeys, slip_pdf
from .i18n import format_deadline
from .trades import amount_text, method_name


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


def grouped(digits: str) -> str:
    """A long reference in groups of four, as OXXO's and the cash networks' vouchers print it (a short one, or one
    with letters, as it is: nobody misreads nine digits)."""
    if len(digits) < 10 or not (digits.isascii() and digits.isdigit()):
        return digits
    return " ".join(digits[at : at + 4] for at in range(0, len(digits), 4))


def shown_digits(slip: Slip) -> str:
    """What the customer reads under the bars: a Brazilian slip's typed line in FEBRABAN's groups, else the bar
    code's digits in fours."""
    return boleto.formatted(slip.line) if slip.line else grouped(slip.digits)


def due_date(trade: Trade) -> date | None:
    """The last Brazil day a boleto or lotérica slip is paid on (an expiry at midnight is the day before's)."""
    due = trade.details.get("response", {}).get("due_date")
    if due:
        return date.fromisoformat(due)
    if trade.expires_at is None:
        return None
    return (clock.as_utc(trade.expires_at).astimezone(clock.BRAZIL) - timedelta(microseconds=1)).date()


def last_moment(expires_at: datetime) -> datetime:
    """The deadline as a customer reads it: an expiry at Brazil's midnight (a boleto's due day, `1c`) is that
    day's 23:59, not the next day's 00:00."""
    local = clock.as_utc(expires_at).astimezone(clock.BRAZIL)
    return expires_at - timedelta(minutes=1) if local.time() == time(0) else expires_at


def pay_by(expires_at: datetime) -> str:
    """ "Pay by 27 Nov 2026, 18:30 (Brasilia Time)": date, hour and zone, in the page's language and zone."""
    until = format_deadline(last_moment(expires_at))
    return _("Pay by %(date)s, %(time)s (%(zone)s)", date=until.date, time=until.time, zone=until.zone)


def time_left(seconds: int) -> str:
    """A countdown's text before the page's script takes it over (the same H:MM:SS)."""
    left = max(0, seconds)
    hours, minutes, secs = left // 3600, left % 3600 // 60, left % 60
    return (f"{hours}:" if hours else "") + f"{minutes:02d}:{secs:02d}"


def amount_due(trade: Trade) -> str:
    """The amount as the page writes it, with the currency's code where its sign is a bare "$" (Mexico's, Chile's,
    Colombia's and Argentina's pesos, the US dollar): "$120.00 MXN", as OXXO's own vouchers print it."""
    text = amount_text(trade)
    if "$" in text and not any(char.isalpha() for char in text):
        return f"{text}\u00a0{trade.currency}"
    return text


def place_name(trade: Trade) -> str:
    """The store or network where the voucher is paid, as it reads after "Go to"."""
    if trade.method in ("OXXO", "OXXOPay"):
        return _("any OXXO store")
    if trade.method == "Lottery":
        return _("any lottery outlet (lotérica) or your bank's app")
    if trade.method == "Boleto":
        return _("any bank, lottery outlet or your bank's app")
    return pay_journeys.place(trade, method_name(trade), pay_journeys.listed_bank_name(trade))


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


def _masked(kind: str, number: str) -> str:
    """Enough of the payer's CPF/CNPJ to recognise it, never all of it (as the Pix pages show it)."""
    if kind.upper() == "CPF" and len(number) == 11:
        return f"***.{number[3:6]}.{number[6:9]}-**"
    if len(number) == 14:
        return f"**.{number[2:5]}.{number[5:8]}/{number[8:12]}-**"
    return "***"


def _cnpj(number: str) -> str:
    return f"{number[:2]}.{number[2:5]}.{number[5:8]}/{number[8:12]}-{number[12:]}" if len(number) == 14 else number


def boleto_ficha(trade: Trade, slip: Slip, merchant: str, collector: str, collector_cnpj: str) -> slip_pdf.Ficha:
    """The boleto's ficha de compensação, in FEBRABAN's words (Portuguese on every page: the bank's layout)."""
    assert slip.line is not None  # a boleto always has its typed line
    customer = trade.details.get("customer") or {}
    identify = customer.get("identify") or {}
    due = due_date(trade)
    free = slip.digits[19:44]  # Banco do Brasil's free field: six zeros, 7-digit agreement, 10-digit our-number
    return slip_pdf.Ficha(
        bank_box=boleto.bank_box(slip.line),
        line=boleto.formatted(slip.line),
        digits=slip.digits,
        beneficiary=f"{collector} - CNPJ {_cnpj(collector_cnpj)}",
        payer=f"{customer.get('name', '')} - CPF/CNPJ {_masked(identify.get('type', ''), identify.get('number', ''))}",
        due=due.strftime("%d/%m/%Y") if due else "",
        amount=numbers.format_currency(money.from_minor(trade.amount_minor, trade.currency), "BRL", locale="pt_BR"),
        our_number=free[6:23],
        document_number=trade.trade_no,
        document_date=clock.as_utc(trade.created_at).astimezone(clock.BRAZIL).strftime("%d/%m/%Y"),
        merchant=merchant,
        subject=trade.subject,
    )


def cash_voucher(trade: Trade, slip: Slip, merchant: str) -> slip_pdf.Voucher:
    """What a cash voucher (OXXO, lotérica, Pago Fácil...) says, in the page's language."""
    fields = trade.details.get("response", {})
    label = method_name(trade)
    rows = [(_("Pay to"), merchant), (_("For"), trade.subject), (_("Amount"), amount_due(trade))]
    if trade.method == "Lottery":
        rows.append((_("Lottery slip line"), shown_digits(slip)))
    else:
        if fields.get("reference"):
            rows.append((_("Reference"), grouped(fields["reference"])))
        rows.append((_("Bar code"), shown_digits(slip)))
    where = place_name(trade)
    rows.append((_("Where to pay"), where[:1].upper() + where[1:]))
    if trade.expires_at is not None:
        rows.append((_("Deadline"), pay_by(trade.expires_at)))
    rows.append((_("Payment number"), trade.trade_no))
    notes = [pay_journeys.voucher_note(trade, label, pay_journeys.listed_bank_name(trade))]
    if trade.method in ("OXXO", "OXXOPay"):
        notes = [
            _("Show this bar code at the till of any OXXO store and pay the exact amount in cash."),
            _("OXXO charges a fee at the till, on top of this amount."),
        ]
    elif trade.method == "Lottery":
        notes = [_("Pay this slip at any lottery outlet (lotérica) or in your bank's app before the due date.")]
    return slip_pdf.Voucher(
        title=f"{label} · {merchant}", rows=rows, notes=notes, digits=slip.digits, symbology=slip.symbology
    )


def voucher_pdf(trade: Trade, slip: Slip, merchant: str, collector: str, collector_cnpj: str) -> bytes:
    """The slip's PDF: a boleto's ficha de compensação, or a cash voucher."""
    if trade.method == "Boleto":
        return slip_pdf.ficha_pdf(boleto_ficha(trade, slip, merchant, collector, collector_cnpj))
    return slip_pdf.voucher_pdf(cash_voucher(trade, slip, merchant))
