"""What every page form shares: text rules, messages, the e-mail rule (CSRF: page token and Origin, security.py)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext as _ln
from flask_wtf import FlaskForm
from wtforms.validators import Length, ValidationError

from .. import jsonbody
from ..validation import check_email

REQUIRED = _l("This field is required.")

# What people type around a document's or a phone's characters as they print it ("390.533.447-05",
# "12.345.678/0001-95", "12.345.678-5", "(11) 98765-4321"). The provider takes documents as alphanumeric
# values only, so a page drops these before checking one.
PUNCTUATION = str.maketrans("", "", " .-/()")


def without_punctuation(value: str | None) -> str | None:
    """A WTForms filter: the typed document without its punctuation (PUNCTUATION)."""
    return value.translate(PUNCTUATION) if isinstance(value, str) else value


# The same punctuation as a browser's pattern allows it, anywhere between the characters.
_SEP = r"[ .\-\/\(\)]*"


def printed(unit: str, low: int, high: int | None = None) -> str:
    """A pattern of `low` to `high` characters of `unit` (a regex class) with the usual punctuation around
    any of them: the browser checks the typed value with it, the server the value left by the filter."""
    return rf"{_SEP}(?:{unit}{_SEP}){{{low},{low if high is None else high}}}"


@dataclass(frozen=True)
class PrintedDocument:
    """A country's document as its owner reads it off the card or certificate: `example` is shown as the
    field's hint, `pattern` takes it typed that way (or bare)."""

    example: str
    pattern: str


# Documents a page may ask for, by country and type (the payout API's names), each as people print it. The
# payout API takes them bare (alphanumeric): a page drops the punctuation before checking one. Panama's RUC
# is left out: its hyphens are part of the number.
PRINTED_DOCUMENTS: dict[str, dict[str, PrintedDocument]] = {
    "BRA": {
        "CPF": PrintedDocument("123.456.789-09", printed("[0-9]", 11)),
        "CNPJ": PrintedDocument("12.345.678/0001-95", printed("[0-9]", 14)),
    },
    "MEX": {
        "RFC": PrintedDocument("GODE-561231-GR8", printed("[A-Za-z&Ññ0-9]", 12, 13)),
        "CURP": PrintedDocument("GODE561231HDFRRN09", printed("[A-Za-z0-9]", 18)),
    },
    "ARG": {"CUIT": PrintedDocument("20-12345678-9", printed("[0-9]", 11))},
    "CHL": {"RUT": PrintedDocument("12.345.678-5", printed("[0-9Kk]", 8, 9))},
    "COL": {
        "CC": PrintedDocument("1.020.304.050", printed("[0-9]", 6, 10)),
        "NIT": PrintedDocument("900.123.456-7", printed("[0-9]", 9, 10)),
    },
    "PER": {
        "DNI": PrintedDocument("45678912", printed("[0-9]", 8)),
        "RUC": PrintedDocument("20123456789", printed("[0-9]", 11)),
    },
    "URY": {
        "CI": PrintedDocument("1.234.567-2", printed("[0-9]", 8)),
        "RUT": PrintedDocument("21 234567 0018", printed("[0-9]", 12)),
    },
}


def document_pattern(country: str) -> str:
    """Any of `country`'s documents, typed as printed: the pattern attribute and the server's Regexp."""
    return "^(?:" + "|".join(d.pattern for d in PRINTED_DOCUMENTS[country].values()) + ")$"


TEXT_FAULTS = {
    "nul": _l("This field must not contain NUL characters."),
    "surrogate": _l("This field must be valid text."),
}


class PageForm(FlaskForm):
    class Meta:
        csrf = False  # cookies may be blocked inside a merchant's iframe

    def validate(self, extra_validators=None) -> bool:
        """The JSON APIs' text rules for every field too: no NUL (no PostgreSQL text can hold one) and no
        unpaired surrogate, each refused on its field before anything else looks at it."""
        faults = {}
        for field in self:
            values = field.data if isinstance(field.data, list) else [field.data]
            fault = next(
                (jsonbody.text_fault(v) for v in values if isinstance(v, str) and jsonbody.text_fault(v)), None
            )
            if fault:
                faults[field] = fault
        if faults:
            # Alone: other fields' checks may read the faulty one (a card's month reads its year).
            for field in self:
                field.errors = [TEXT_FAULTS[faults[field]]] if field in faults else []
            # Said above the form too: the field may be one the page does not show (a hostile client's).
            self.form_errors = list(dict.fromkeys(TEXT_FAULTS[fault] for fault in faults.values()))
            return False
        return super().validate(extra_validators)


EMAIL_INVALID = _l("Enter a valid e-mail address.")


class EmailAddress:
    """The service's own e-mail rule; `type_message` is what the page's script says for a malformed address."""

    def __init__(self, message=EMAIL_INVALID):
        self.message = self.type_message = message

    def __call__(self, form, field):
        try:
            check_email(field.data)
        except ValueError:
            raise ValidationError(self.message) from None


def at_most(count: int) -> Length:
    return Length(max=count, message=_ln("At most %(num)d character.", "At most %(num)d characters.", count))
