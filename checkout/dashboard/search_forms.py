"""The lists' search fields that read what a user types in their own language: an amount such as "50,00"."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from babel import numbers
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import Length, Optional

_PLAIN = re.compile(r"^[0-9]{1,15}(\.[0-9]{1,4})?$")  # 50.00 as the API writes it, in every language


def parse_amount(text: str, locale: str) -> Decimal | None:
    """An amount above or at zero as `locale` writes it ("50,00" and "1.234,56" in pt-BR, "1,234.56" in
    English), or as the API writes it ("50.00"); None when it is neither. Babel's strict parse refuses a
    misplaced grouping ("50,00" in English) instead of guessing."""
    value: Decimal | None = None
    try:
        value = numbers.parse_decimal(text, locale=locale, strict=True)
    except (numbers.NumberFormatError, InvalidOperation, ValueError):
        if _PLAIN.match(text):
            value = Decimal(text)
    if value is None or not value.is_finite() or value < 0 or value >= Decimal(10) ** 15:
        return None
    return value


class AmountField(StringField):
    """An exact amount, in any currency the list holds, typed in the user's language."""

    def __init__(self, label, **kwargs):
        super().__init__(
            label,
            validators=[Optional(), Length(max=24, message=_l("At most 24 characters."))],
            filters=[lambda value: value.strip() if isinstance(value, str) else value],
            render_kw={"inputmode": "decimal"},
            **kwargs,
        )

    @property
    def decimal(self) -> Decimal | None:
        return parse_amount(self.data, str(get_locale() or "en")) if self.data else None

    def post_validate(self, form, validation_stopped: bool) -> None:
        if not validation_stopped and self.data and not self.errors and self.decimal is None:
            self.errors.append(_l("Enter an amount such as %(example)s.", example=_example()))


def _example() -> str:
    return numbers.format_decimal(Decimal("50.00"), format="#,##0.00", locale=str(get_locale() or "en"))
