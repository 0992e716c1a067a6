"""The vaults and payouts pages' forms: list filters (GET, no CSRF) and the actions' forms (POST, CSRF)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, DataRequired, Length, Optional, ValidationError

from .. import money
from . import payout_records, vault_records
from .forms import NO_NUL
from .search_forms import AmountField
from .web import PAYOUT_STATUS_LABELS, VAULT_STATUS_LABELS, VAULT_TYPE_LABELS

TOO_LONG = _l("This is too long.")


class _Filters(FlaskForm):
    """A list's filters read from the query string: no CSRF token (a GET changes nothing)."""

    class Meta:
        csrf = False

    before = HiddenField(validators=[Optional(), Length(max=200, message=TOO_LONG)])


def _select(label, values: tuple[str, ...], words: Mapping[str, object] | None = None) -> SelectField:
    """Status codes and API values as the API spells them (the query's values), each option in `words` where
    they name it, and "All"; an unknown value is a form error (WTForms' own message would not be translated)."""
    words = words or {}
    return SelectField(
        label,
        choices=[SelectChoice("", _l("All")), *(SelectChoice(value, words.get(value, value)) for value in values)],
        default="",
        validate_choice=False,
        validators=[AnyOf(("", *values), message=_l("Choose one of the listed values."))],
    )


class DayField(StringField):
    """A UTC day typed as YYYY-MM-DD (a date picker where the browser has one)."""

    def __init__(self, label, **kwargs):
        super().__init__(
            label, validators=[Optional(), Length(max=10, message=TOO_LONG)], render_kw={"type": "date"}, **kwargs
        )

    def pre_validate(self, form) -> None:
        if self.data and self.day is None:
            raise ValidationError(_l("Enter a date as YYYY-MM-DD."))

    @property
    def day(self) -> date | None:
        try:
            return date.fromisoformat(self.data) if self.data and len(self.data) == 10 else None
        except ValueError:
            return None


class VaultFilters(_Filters):
    type = _select(_l("Type"), vault_records.TYPES, VAULT_TYPE_LABELS)
    status = _select(_l("Status"), vault_records.STATUSES, VAULT_STATUS_LABELS)
    q = StringField(_l("Vault token"), validators=[Optional(), Length(max=64, message=TOO_LONG), NO_NUL])


class PayoutFilters(_Filters):
    status = _select(_l("Status"), payout_records.STATUSES, PAYOUT_STATUS_LABELS)
    method = _select(_l("Method"), payout_records.METHODS)
    first_day = DayField(_l("Created from (UTC)"))
    last_day = DayField(_l("Created until (UTC)"))
    q = StringField(
        _l("transaction_id or custom_code"), validators=[Optional(), Length(max=64, message=TOO_LONG), NO_NUL]
    )
    payee = StringField(
        _l("Payee name or document"),
        validators=[Optional(), Length(max=128, message=TOO_LONG), NO_NUL],
        filters=[lambda value: value.strip() if isinstance(value, str) else value],
    )
    amount = AmountField(_l("Amount"))

    def validate_last_day(self, field) -> None:
        first, last = self.first_day.day, self.last_day.day
        if first and last and last < first:
            raise ValidationError(_l("The last day must not be before the first."))


class VoidForm(FlaskForm):
    confirm = BooleanField(
        _l("I understand that this card can no longer be charged."),
        validators=[DataRequired(_l("Tick this box to void the card."))],
    )


class RefundForm(FlaskForm):
    """The recipient's bank's refund: an amount in major units of the arrival currency, or empty for the rest."""

    amount = StringField(
        _l("Amount (empty: all that is left)"),
        validators=[Optional(), Length(max=24, message=TOO_LONG)],
        filters=[lambda value: value.strip() if isinstance(value, str) else value],
        render_kw={"inputmode": "decimal"},
    )

    def validate_amount(self, field) -> None:
        try:
            money.parse_decimal(field.data)
        except money.MoneyError:
            raise ValidationError(_l("Enter an amount such as 12.34.")) from None

    def decimal(self) -> Decimal | None:
        return money.parse_decimal(self.amount.data) if self.amount.data else None
