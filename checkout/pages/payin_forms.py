"""The payin pages' forms: card entry, and the hosted checkout's customer data for each method."""

from __future__ import annotations

import re
from collections.abc import Mapping

from flask_babel import lazy_gettext as _l
from stdnum import luhn
from wtforms import EmailField, SelectField, StringField, TelField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional, Regexp, ValidationError

from .. import clock
from ..cards import service as cards
from .forms import REQUIRED, EmailAddress, PageForm, without_punctuation

# Typed as "MM/YY", "MM / YY", "MMYY" or "MM/YYYY" (the page's script adds the slash while typing).
EXPIRY = re.compile(r"^\s*([0-9]{2})\s*/?\s*([0-9]{2}|[0-9]{4})\s*$")
EXPIRY_YEARS = 20  # the card service refuses an expiry further away than this


def parse_expiry(text: str | None) -> tuple[int, int] | None:
    """(year, month) of a typed expiry date, the month unchecked; None when it is not shaped like one."""
    match = EXPIRY.match(text or "")
    if not match:
        return None
    month, year = int(match.group(1)), int(match.group(2))
    return (year + 2000 if year < 100 else year), month


class CardDataField(StringField):
    """A card number or security code: read from the form, never written back into a page (a refused form
    shows the field empty), so the HTML, a cache or a screenshot of it never holds one."""

    def _value(self) -> str:
        return ""


class CardForm(PageForm):
    # What identifies the card: never kept (see CardDataField), only its token.
    CARD_DATA = ("card_no", "exp", "cvv", "holder")

    card_no = CardDataField(
        _l("Card number"),
        validators=[DataRequired(REQUIRED), Length(max=23)],
        render_kw={
            "autocomplete": "cc-number",
            "inputmode": "numeric",
            "autocorrect": "off",
            "spellcheck": "false",
            # The service's Elo ranges, so the script names the brand by the same rules as the server.
            "data-elo": " ".join(cards.ELO_PREFIXES),
        },
    )
    exp = StringField(
        _l("Expiry date"),
        validators=[DataRequired(REQUIRED), Regexp(EXPIRY.pattern, message=_l("Enter the date as MM/YY."))],
        render_kw={"autocomplete": "cc-exp", "inputmode": "numeric", "maxlength": 9, "placeholder": _l("MM/YY")},
    )
    cvv = CardDataField(
        _l("Security code"),
        validators=[DataRequired(REQUIRED), Regexp(r"^[0-9]{3,4}$", message=_l("3 or 4 digits."))],
        render_kw={"autocomplete": "cc-csc", "inputmode": "numeric", "maxlength": 4},
    )
    holder = StringField(
        _l("Name on the card"),
        validators=[DataRequired(REQUIRED), Length(max=128)],
        render_kw={"autocomplete": "cc-name"},
    )

    NUMBER_INVALID = _l("This card number is not valid.")
    BRAND_REFUSED = _l("This card brand is not accepted.")
    MONTH_INVALID = _l("The month must be 01 to 12.")
    EXPIRED = _l("This card has expired.")
    TOO_FAR = _l("This date is too far in the future.")
    CVV_LENGTH = {"amex": _l("American Express codes have 4 digits."), None: _l("This card's code has 3 digits.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The script checks the date on the service's (sandbox) clock, not the device's, and says what the server says.
        today = clock.now().date()
        self.exp.render_kw = {
            **(self.exp.render_kw or {}),
            "data-today": f"{today.year:04d}-{today.month:02d}",
            "data-years": EXPIRY_YEARS,
            "data-msg-month": str(self.MONTH_INVALID),
            "data-msg-expired": str(self.EXPIRED),
            "data-msg-far": str(self.TOO_FAR),
        }
        self.card_no.render_kw = {
            **(self.card_no.render_kw or {}),
            "data-msg-invalid": str(self.NUMBER_INVALID),
            "data-msg-brand": str(self.BRAND_REFUSED),
        }
        self.cvv.render_kw = {
            **(self.cvv.render_kw or {}),
            "data-msg-amex": str(self.CVV_LENGTH["amex"]),
            "data-msg-other": str(self.CVV_LENGTH[None]),
        }

    @property
    def digits(self) -> str:
        return "".join((self.card_no.data or "").split()).replace("-", "")

    @property
    def brand(self) -> str | None:
        """The brand the service sees in the typed number (None while it is not a whole, known one)."""
        number = self.digits
        return cards.brand_of(number) if number.isascii() and number.isdigit() and len(number) >= 12 else None

    @property
    def expiry(self) -> tuple[int, int]:
        """(year, month) of a validated form."""
        parsed = parse_expiry(self.exp.data)
        assert parsed is not None  # validated
        return parsed

    def validate_card_no(self, field):
        number = self.digits
        if not (number.isascii() and number.isdigit() and 12 <= len(number) <= 19 and luhn.is_valid(number)):
            raise ValidationError(self.NUMBER_INVALID)
        if self.brand is None:
            raise ValidationError(self.BRAND_REFUSED)

    def validate_exp(self, field):
        parsed = parse_expiry(field.data)
        if parsed is None:
            return  # the Regexp said so
        year, month = parsed
        if not 1 <= month <= 12:
            raise ValidationError(self.MONTH_INVALID)
        today = clock.now().date()
        if (year, month) < (today.year, today.month):
            raise ValidationError(self.EXPIRED)
        if year > today.year + EXPIRY_YEARS:
            raise ValidationError(self.TOO_FAR)

    def validate_cvv(self, field):
        brand = self.brand
        if not field.errors and brand and len(field.data) != (4 if brand == "amex" else 3):
            raise ValidationError(self.CVV_LENGTH["amex" if brand == "amex" else None])


# 11 or 14 digits, with the punctuation people type between them ("390.533.447-05"): the browser checks the
# typed value with it (its pattern attribute), the server the digits left once the filter dropped the rest.
_SEP = r"[ .\-\/\(\)]*"
BRAZILIAN_DOCUMENT = rf"^{_SEP}([0-9]{_SEP}){{11}}(([0-9]{_SEP}){{3}})?$"


class CheckoutForm(CardForm):
    """The hosted checkout's customer data: every field a method may need; the view keeps only the
    chosen method's (`keep_for`), so that each field it shows is required."""

    name = StringField(
        _l("Full name"), validators=[DataRequired(REQUIRED), Length(max=128)], render_kw={"autocomplete": "name"}
    )
    email = EmailField(
        _l("E-mail"),
        validators=[DataRequired(REQUIRED), Length(max=128), EmailAddress()],
        render_kw={"autocomplete": "email"},
    )
    phone = TelField(
        _l("Phone"),
        validators=[DataRequired(REQUIRED), Length(max=32)],
        render_kw={"autocomplete": "tel", "placeholder": "+5511987654321"},
    )
    document_type = SelectField(_l("Document"), choices=[SelectChoice("CPF"), SelectChoice("CNPJ")])
    document_number = StringField(
        _l("CPF or CNPJ"),
        filters=[without_punctuation],  # typed as printed, checked as its digits
        validators=[DataRequired(REQUIRED), Regexp(BRAZILIAN_DOCUMENT, message=_l("11 or 14 digits."))],
        render_kw={"inputmode": "numeric"},
    )
    zip_code = StringField(
        _l("CEP"), validators=[DataRequired(REQUIRED), Length(max=16)], render_kw={"autocomplete": "postal-code"}
    )
    state = StringField(_l("State"), validators=[DataRequired(REQUIRED), Length(max=64)])
    city = StringField(_l("City"), validators=[DataRequired(REQUIRED), Length(max=64)])
    street = StringField(_l("Street"), validators=[DataRequired(REQUIRED), Length(max=128)])
    street_number = StringField(_l("Number"), validators=[DataRequired(REQUIRED), Length(max=16)])
    bank = SelectField(_l("Bank"), validate_choice=True)
    channel = SelectField(_l("Wallet"), validate_choice=True)
    # Wallet Todito only (the service requires them for that channel and says so).
    account_number = StringField(
        _l("Wallet account number (Todito)"),
        validators=[Optional(), Length(max=18)],
        render_kw={"inputmode": "numeric"},
    )
    account_verification_code = StringField(
        _l("Verification code (Todito)"), validators=[Optional(), Length(max=4)], render_kw={"inputmode": "numeric"}
    )

    # The payer's own bank account, where the method's page asks for it (Argentina, Bolivia, Paraguay, Uruguay).
    payer_account = StringField(
        _l("Your bank account number"),
        validators=[DataRequired(REQUIRED), Regexp(r"^[0-9]{1,22}$", message=_l("Digits only."))],
        render_kw={"inputmode": "numeric"},
    )
    payer_account_type = SelectField(_l("Account type"), validate_choice=True)
    # A Brazilian card's instalments (payins.instalments decides which counts an amount is offered).
    installments = SelectField(_l("Instalments"), validate_choice=True, coerce=int, default=1)

    CARD = ("card_no", "exp", "cvv", "holder", "installments")
    BRAZIL = ("phone", "document_type", "document_number")
    ADDRESS = ("zip_code", "state", "city", "street", "street_number")
    DOCUMENT = ("document_type", "document_number")
    NEEDS = {
        "PIX": BRAZIL,
        "Boleto": BRAZIL + ADDRESS,
        "Lottery": BRAZIL,
        "DepositExpress": (*BRAZIL, "bank"),
        "OpenFinance": (*BRAZIL, "bank"),
        "Wallet": ("channel",),
        "CreditCard": CARD,
    }

    def keep_for(
        self,
        method: str,
        banks: list[tuple[str, str]],
        channels: list[str],
        documents: Mapping[str, str] | None = None,
        bank: bool = False,
        account: bool = False,
        payer_account: tuple[str, ...] | None = None,
        instalments: list[tuple[str, str]] | None = None,
    ) -> None:
        """Keep the fields `method` needs: its NEEDS, else (the country pages' methods) the `documents` it
        takes and the bank list's bank where it needs one; `account`: a wallet's account (Todito);
        `payer_account`: the account types of the payer's bank account a page asks for (() when no type);
        `instalments`: a card's instalment options (none: a single payment, no select)."""
        own = self.NEEDS.get(method, ("bank",) if bank else ())
        if not instalments:
            own = tuple(name for name in own if name != "installments")
        if documents and method not in self.NEEDS:
            own = (*own, *self.DOCUMENT)
        needed = {"name", "email", *own}
        if not channels:
            needed.discard("channel")
        if account:
            needed |= {"account_number", "account_verification_code"}
        if payer_account is not None:
            needed |= {"payer_account", *(("payer_account_type",) if payer_account else ())}
        for name in [field.name for field in self]:
            if name not in needed:
                del self[name]
        if "payer_account_type" in needed and payer_account:
            self.payer_account_type.choices = [SelectChoice(kind) for kind in payer_account]
        if "bank" in needed:
            self.bank.choices = [SelectChoice(bank_id, label) for bank_id, label in banks]
        if "channel" in needed:
            self.channel.choices = [SelectChoice(channel) for channel in channels]
        if "installments" in needed and instalments:
            self.installments.choices = [SelectChoice(int(value), label) for value, label in instalments]
        if documents and "document_type" in needed and method not in self.NEEDS:
            # Their forms are the service's to check (countries.COUNTRY_DOCUMENTS); its message lands on the form.
            self.document_type.choices = [SelectChoice(kind) for kind in documents]
            self.document_number.label.text = _l("Document number")
            self.document_number.validators = [DataRequired(REQUIRED), Length(max=32)]
            typed = (self.document_number.raw_data or [""])[0].strip()
            if any(form and re.fullmatch(form, typed) for form in documents.values()):
                # Already in a form its page takes (Panama's RUC with its hyphens): sent as the customer wrote it.
                self.document_number.data = typed
