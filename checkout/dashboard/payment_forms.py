"""The dashboard's payments forms: the list's GET filters, and the refund and capture forms of a trade's page."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, Form, HiddenField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, Length, Optional, Regexp

from . import payments as payments_service
from .forms import NO_NUL


class FilterForm(Form):
    """The list's GET filters (no CSRF: a GET changes nothing)."""

    status = SelectField(
        _l("Status"),
        choices=[SelectChoice("", _l("Any status")), *(SelectChoice(s) for s in payments_service.STATUSES)],
        validators=[Optional(), AnyOf(payments_service.STATUSES, message=_l("Choose a status from the list."))],
        validate_choice=False,
    )
    method = SelectField(
        _l("Method"),
        choices=[SelectChoice("", _l("Any method")), *(SelectChoice(m) for m in payments_service.METHODS)],
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
        )

    def args(self) -> dict[str, str]:
        """The filters as the list's query values, for the paging links."""
        values = {
            "status": self.status.data or "",
            "method": self.method.data or "",
            "date_from": self.date_from.data.isoformat() if self.date_from.data else "",
            "date_to": self.date_to.data.isoformat() if self.date_to.data else "",
            "q": self.q.data or "",
        }
        return {key: value for key, value in values.items() if value}


AMOUNT = Regexp(r"^[0-9]+(\.[0-9]+)?$", message=_l("Enter an amount like 10.50."))
REQUEST_ID = r"^[0-9a-f]{16}$"


class RefundForm(FlaskForm):
    amount = StringField(_l("Amount to refund"), validators=[AMOUNT])
    reason = StringField(
        _l("Reason (optional)"), validators=[Optional(), Length(max=128, message=_l("At most 128 characters."))]
    )
    # The refund's out_request_no, made when the form is shown: sending the same form twice asks for the
    # same refund, which the API answers once.
    request_id = HiddenField(validators=[Regexp(REQUEST_ID)])


class CaptureForm(FlaskForm):
    amount = StringField(_l("Amount to capture (empty: all of it)"), validators=[Optional(), AMOUNT])
