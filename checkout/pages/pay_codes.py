"""What a payment page hands the customer to pay with, and the sandbox form that pays by pasting one of them."""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from ..brazil import boleto
from ..payins.models import Trade
from .forms import REQUIRED, PageForm

# Separators a bank app or a printed slip puts between digit groups; never part of the code itself.
_SEPARATORS = re.compile(r"[\s.\-/]+")


def _folded(text: str) -> str:
    """Digits compared without spaces, dots or dashes; any other code (a Pix BR Code) without whitespace."""
    bare = _SEPARATORS.sub("", text)
    return bare if bare.isascii() and bare.isdigit() else re.sub(r"\s+", "", text)


def codes_of(trade: Trade) -> set[str]:
    """Everything of this trade's own that the page shows to be typed or pasted at the bank or the till:
    the Pix/CoDi code, the boleto's typed line and bar code, the CLABE, OXXO's bar code, the reference.
    Shared values (a partner code, the collector's account) are left out: they name no trade."""
    fields = trade.details.get("response", {})
    codes = {fields.get(name) for name in ("qr_code", "clabe", "barcode", "bank_code", "reference")}
    if trade.method in ("Boleto", "Lottery"):
        line = fields.get("bank_code") if trade.method == "Boleto" else fields.get("barcode")
        if line:
            codes |= {line, boleto.barcode_from_linha(line)}
    return {_folded(code) for code in codes if code}


def pays(trade: Trade, pasted: str) -> bool:
    folded = _folded(pasted)
    return bool(folded) and folded in codes_of(trade)


class PasteForm(PageForm):
    """Sandbox: the customer pastes what it copied from this page, as it would in its bank's app."""

    code = StringField(
        _l("Paste the code, line, CLABE or reference you copied"),
        validators=[DataRequired(REQUIRED), Length(max=600)],
        render_kw={"autocomplete": "off", "spellcheck": "false"},
    )
