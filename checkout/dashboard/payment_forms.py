"""The dashboard's payments forms: the list's GET filters, and the refund and capture forms of a trade's page."""

from __future__ import annotations

import re
from decimal import Decimal

from babel import numbers
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, Form, HiddenField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, DataRequired, Length, Optional, Regexp, ValidationError

from ..pages.method_names import METHOD_NAMES
from . import payments as payments_service
from . import search_forms
from .forms import NO_NUL
from .web import STATUS_LABELS


def _strip(value):
    return value.strip() if isinstance(value, str) else value


class FilterForm(Form):
    """The list's GET filters (no CSRF: a GET changes nothing)."""

    status = SelectField(
        _l("Status"),
        choices=[
            SelectChoice("", _l("Any status")),
            *(SelectChoice(s, STATUS_LABELS.get(s, s)) for s in payments_service.STATUSES),
        ],
        validators=[Optional(), AnyOf(payments_service.STATUSES, message=_l("Choose a status from the list."))],
        validate_choice=False,
    )
    method = SelectField(
        _l("Method"),
        choices=[
            SelectChoice("", _l("Any method")),
            *(SelectChoice(m, METHOD_NAMES.get(m, m)) for m in payments_service.METHODS),
        ],
        validators=[Optional(), AnyOf(payments_service.METHODS, message=_l("Choose a method from the list."))],
        validate_choice=False,
    )
    date_from = DateField(_l("From (UTC)"), validators=[Optional()])
    date_to = DateField(_l("To (UTC)"), validators=[Optional()])
    q = StringField(
        _l("trade_no or out_trade_no"),
        validators=[
            Optional(),
            Length(max=64, message=_l("At most 64 characters.")),
            NO_NUL,
        ],
        filters=[lambda value: value.strip() if isinstance(value, str) else value],
    )
    email = StringField(
        _l("Customer e-mail"),
        validators=[Optional(), Length(max=128, message=_l("At most 128 characters.")), NO_NUL],
        filters=[_strip],
    )
    document = StringField(
        _l("Customer document"),
        validators=[Optional(), Length(max=32, message=_l("At most 32 characters.")), NO_NUL],
        filters=[_strip],
    )
    amount = search_forms.AmountField(_l("Amount"))

    def validate(self, extra_validators=None) -> bool:
        ok = super().validate(extra_validators)
        for name in ("date_from", "date_to"):
            box = getattr(self, name)
            if box.errors:  # WTForms' own words are English only
                box.errors = [_("Enter a date as YYYY-MM-DD.")]
        if ok and self.date_from.data and self.date_to.data and self.date_to.data < self.date_from.data:
            self.date_to.errors = [_("The end date must not be before the start date.")]
            return False
        return ok

    def filters(self) -> payments_service.Filters:
        return payments_service.Filters(
            status=self.status.data or None,
            method=self.method.data or None,
            date_from=self.date_from.data,
            date_to=self.date_to.data,
            search=self.q.data or None,
            email=self.email.data or None,
            document=self.document.data or None,
            amount=self.amount.decimal,
        )

    def args(self) -> dict[str, str]:
        """The filters as the list's query values, for the paging links."""
        values = {
            "status": self.status.data or "",
            "method": self.method.data or "",
            "date_from": self.date_from.data.isoformat() if self.date_from.data else "",
            "date_to": self.date_to.data.isoformat() if self.date_to.data else "",
            "q": self.q.data or "",
            "email": self.email.data or "",
            "document": self.document.data or "",
            "amount": self.amount.data or "",
        }
        return {key: value for key, value in values.items() if value}


AMOUNT = Regexp(r"^[0-9]+(\.[0-9]+)?$", message=_l("Enter an amount like 10.50."))
REQUEST_ID = r"^[0-9a-f]{16}$"


class RefundForm(FlaskForm):
    """Empty at first; an amount as the user's language writes it ("50,00" in pt-BR) or as the API does
    ("50.00"). Sent without `confirm` it only asks to confirm: nothing is refunded."""

    amount = StringField(
        _l("Amount to refund"),
        validators=[
            DataRequired(_l("Enter the amount to refund.")),
            Length(max=24, message=_l("At most 24 characters.")),
        ],
        filters=[_strip],
    )
    reason = StringField(
        _l("Reason (optional)"), validators=[Optional(), Length(max=128, message=_l("At most 128 characters."))]
    )
    # The refund's out_request_no, made when the form is shown: sending the same form twice asks for the
    # same refund, which the API answers once.
    request_id = HiddenField(validators=[Regexp(REQUEST_ID)])
    confirm = BooleanField()  # its label names the amount and the customer, written by the page

    @property
    def decimal(self) -> Decimal | None:
        return search_forms.parse_amount(self.amount.data, str(get_locale() or "en")) if self.amount.data else None

    def validate_amount(self, field) -> None:
        # Babel would also read "1e3": only digits and the language's separators are an amount here.
        if not re.fullmatch(r"[0-9][0-9.,\s]*", field.data or "") or self.decimal is None:
            example = numbers.format_decimal(Decimal("50.00"), format="#,##0.00", locale=str(get_locale() or "en"))
            raise ValidationError(_("Enter an amount such as %(example)s.", example=example))


class CaptureForm(FlaskForm):
    amount = StringField(_l("Amount to capture (empty: all of it)"), validators=[Optional(), AMOUNT])
