"""The dashboard's forms: Flask-WTF with its session-bound CSRF token (unlike the hosted pages' forms)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, HiddenField, PasswordField, StringField
from wtforms.validators import AnyOf, DataRequired, Length, Regexp

from .passwords import MIN_LENGTH

REQUIRED = _l("This field is required.")
# Every free-text field and filter: PostgreSQL refuses a NUL in text, so one never reaches a query.
NO_NUL = Regexp(r"^[^\x00]*$", message=_l("This field must not contain NUL characters."))


class LoginForm(FlaskForm):
    email = EmailField(_l("E-mail"), validators=[DataRequired(REQUIRED), Length(max=254), NO_NUL])
    password = PasswordField(_l("Password"), validators=[DataRequired(REQUIRED), Length(max=1024)])


class SignupForm(FlaskForm):
    email = EmailField(
        _l("E-mail"),
        validators=[
            DataRequired(REQUIRED),
            Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message=_l("Enter a valid e-mail address.")),
            Length(max=254),
            NO_NUL,
        ],
    )
    password = PasswordField(
        _l("Password (at least 10 characters)"),
        validators=[
            DataRequired(REQUIRED),
            Length(min=MIN_LENGTH, max=1024, message=_l("Use at least 10 characters.")),
        ],
    )
    shop_name = StringField(_l("Shop name"), validators=[DataRequired(REQUIRED), Length(max=128), NO_NUL])


class LogoutForm(FlaskForm):
    """Only its CSRF token: logging out is a POST."""


class ActionForm(FlaskForm):
    """Only its CSRF token: a button that POSTs an action (send again, the customer pays, void...)."""


class ClockForm(FlaskForm):
    seconds = HiddenField(validators=[AnyOf(["3600", "86400"])])
