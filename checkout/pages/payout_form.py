"""The payout checkout page's form: the beneficiary's data for each method the session allows."""

from __future__ import annotations

from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import EmailField, RadioField, SelectField, StringField, TelField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Optional, Regexp, ValidationError

from ..brazil.banks import BR_BANKS
from ..payouts.accounts import PIX_KEY_TYPES
from ..payouts.corridors import WALLET_CHANNELS
from ..validation import check_email
from . import payout_rules
from .forms import PRINTED_DOCUMENTS, PUNCTUATION, REQUIRED, PageForm, at_most, document_pattern, without_punctuation

# PIX key types in people's words (the values are the payout API's), and an example of each.
PIX_KEY_LABELS = {
    "CPF": "CPF",
    "CNPJ": "CNPJ",
    "PHONE": _l("Mobile phone"),
    "EMAIL": _l("E-mail"),
    "EVP": _l("Random key"),
}
PIX_KEY_EXAMPLES = {
    "CPF": "123.456.789-09",
    "CNPJ": "12.345.678/0001-95",
    "PHONE": "+55 11 98765-4321",
    "EMAIL": _l("name@example.com"),
    "EVP": "123e4567-e89b-12d3-a456-426614174000",
}
assert set(PIX_KEY_LABELS) == set(PIX_KEY_TYPES) == set(PIX_KEY_EXAMPLES)  # every type the rules know
# Wallets whose own spelling is not their channel's in title case.
PAYOUT_WALLET_NAMES = {"PAYPAL": "PayPal"}  # the payout wallets; payin wallets are in method_names.py


class PayoutForm(PageForm):
    """Beneficiary data for each method the session allows; only the chosen method's fields are used."""

    method = RadioField(_l("How do you want to receive it?"), validators=[DataRequired(REQUIRED)])
    name = StringField(
        _l("Full name"), validators=[DataRequired(REQUIRED), at_most(128)], render_kw={"autocomplete": "name"}
    )
    # Brazil's, the one country whose page asks for a document: typed as printed, checked as its digits.
    document_id = StringField(
        _l("CPF or CNPJ"),
        filters=[without_punctuation],
        validators=[Optional(), at_most(32), Regexp(document_pattern("BRA"), message=payout_rules.DOCUMENT)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )
    email = EmailField(
        _l("E-mail (optional)"), validators=[Optional(), at_most(128)], render_kw={"autocomplete": "email"}
    )
    phone = TelField(
        _l("Phone (optional)"),
        validators=[Optional(), at_most(32)],
        render_kw={"autocomplete": "tel", "placeholder": "+5511987654321"},
    )
    # The method-specific fields are checked by the payout rules (corridors.problems), for the chosen method
    # only: required there, they would be required of every method.
    pix_key_type = SelectField(
        _l("Pix key type"),
        validate_choice=False,
        choices=[SelectChoice(value, label) for value, label in PIX_KEY_LABELS.items()],
    )
    pix_key = StringField(_l("Pix key"), validators=[Optional(), at_most(77)], render_kw={"autocomplete": "off"})
    bank_code = SelectField(
        _l("Bank"),
        validate_choice=False,
        choices=[SelectChoice(code, f"{code} · {name}") for code, (_, name) in BR_BANKS.items()],
    )
    branch = StringField(
        _l("Branch (4 digits)"), validators=[Optional(), at_most(16)], render_kw={"inputmode": "numeric"}
    )
    account_number = StringField(
        _l("Account number"), validators=[Optional(), at_most(18)], render_kw={"inputmode": "numeric"}
    )
    account_digit = StringField(_l("Check digit"), validators=[Optional(), at_most(4)])
    account_type = SelectField(
        _l("Account type"),
        validate_choice=False,
        choices=[SelectChoice("CHECKING", _l("Checking")), SelectChoice("SAVINGS", _l("Savings"))],
    )
    clabe = StringField(
        _l("CLABE (18 digits)"), validators=[Optional(), at_most(18)], render_kw={"inputmode": "numeric"}
    )
    wallet_channel = SelectField(
        _l("Wallet"),
        validate_choice=False,
        choices=[SelectChoice(c, PAYOUT_WALLET_NAMES.get(c, c.title())) for c in WALLET_CHANNELS],
    )
    wallet_account = StringField(_l("Wallet account or e-mail"), validators=[Optional(), at_most(128)])

    # Where each payout API field comes from, per method (so API errors land on the right input).
    FIELDS = {
        "PIX": {"account": "pix_key", "account_type": "pix_key_type", "document_id": "document_id"},
        "BANKTRANSFER": {
            "account": "account_number",
            "account_type": "account_type",
            "bank_code": "bank_code",
            "branch": "branch",
            "account_digit": "account_digit",
            "document_id": "document_id",
        },
        "SPEI": {"account": "clabe"},
        "WALLET": {"account": "wallet_account", "channel": "wallet_channel"},
    }

    def document_hint(self, country: str) -> str:
        """The field's hint: how `country`'s documents are printed ("such as 123.456.789-09 or ...")."""
        examples = [document.example for document in PRINTED_DOCUMENTS[country].values()]
        listed = format_list(examples, style="or", locale=str(get_locale() or "en"))
        return _("With or without dots, dashes and slashes, such as %(examples)s.", examples=listed)

    def validate_email(self, field):
        try:
            check_email(field.data)
        except ValueError:
            raise ValidationError(_l("Enter a valid e-mail address.")) from None

    def payout_fields(self) -> dict:
        method = self.method.data
        fields = {"name": self.name.data, "email": self.email.data or None, "phone": self.phone.data or None}
        for api_field, form_field in self.FIELDS.get(method, {}).items():
            fields[api_field] = (getattr(self, form_field).data or "").strip() or None
        # A CPF, CNPJ or phone as people write them ("123.456.789-09", "(11) 98765-4321"): their digits.
        if fields.get("document_id"):
            fields["document_id"] = fields["document_id"].translate(PUNCTUATION) or None
        if method == "PIX" and fields.get("account") and fields.get("account_type") in ("CPF", "CNPJ", "PHONE"):
            fields["account"] = fields["account"].translate(PUNCTUATION) or None
        return fields

    def input_of(self, api_field: str):
        """The form field a payout API field comes from, for the chosen method (None: not on the form)."""
        target = getattr(self, self.FIELDS.get(self.method.data, {}).get(api_field, api_field), None)
        return target if hasattr(target, "errors") else None

    def attach_error(self, api_field: str, message: str) -> None:
        """Show a payout API rule on the input it concerns (or on the form when none matches); one message an
        input: what its own validators said first."""
        target = self.input_of(api_field)
        if target is None:
            self.form_errors.append(message)
        elif not target.errors:
            target.errors = [message]
