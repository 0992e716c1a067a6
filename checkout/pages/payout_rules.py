"""What the payout page says for each payout rule it can meet: a translated, human message, never the API's English."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from .forms import REQUIRED

DOCUMENT = _l("Enter a valid CPF (11 digits) or CNPJ (14 digits).")
CHOOSE = _l("Choose one of the options.")

# (payout API field, start of its rule) -> message; the first match wins. The rules are those of
# payouts/accounts (brazil, north, wallets) and corridors.beneficiary for the methods the page offers.
MESSAGES = (
    ("account", "must be a valid CPF key", _l("This CPF is not valid: enter its 11 digits.")),
    ("account", "must be a valid CNPJ key", _l("This CNPJ is not valid: enter its 14 digits.")),
    (
        "account",
        "must be a random key",
        _l("A random key has 32 letters and digits in 5 groups, as your bank shows it."),
    ),
    ("account", "must be a Brazilian phone key", _l("Enter a Brazilian mobile number with its area code.")),
    ("account", "must be an e-mail key", _l("Enter a valid e-mail address.")),
    ("account", "an e-mail key has at most", _l("An e-mail key has at most 77 characters.")),
    ("account", "must be 4 to 18 digits", _l("Enter the account number: 4 to 18 digits.")),
    ("account", "must be a CLABE of 18 digits", _l("A CLABE has 18 digits.")),
    ("account", "CLABE check digit is wrong", _l("This CLABE's last digit does not match: check the 18 digits.")),
    ("account", "CLABE bank prefix", _l("The first 3 digits of this CLABE are not a bank's.")),
    ("account", "must be the PayPal account's e-mail", _l("Enter the e-mail address of your PayPal account.")),
    ("account_type", "must be CHECKING or SAVINGS", CHOOSE),
    ("account_type", "must be one of", CHOOSE),
    ("bank_code", "must be one of", _l("Choose your bank from the list.")),
    ("branch", "must be 4 digits", _l("Enter the branch's 4 digits, without its check digit.")),
    ("account_digit", "must be 1 or 2 digits", _l("Enter the check digit: 1 or 2 digits, or X.")),
    ("document_id", "must be a valid", DOCUMENT),
    ("document_type", "must be CPF or CNPJ", DOCUMENT),
    ("channel", "must be one of", CHOOSE),
    ("name", "must be", _l("Enter your full name.")),
    ("phone", "must be", _l("Enter a phone number: up to 15 digits, + optional.")),
)


def message(field: str, rule: str) -> str:
    """The page's words for a broken payout rule: a known one's own message, else a required field's, else a
    general request to check the field (translated all)."""
    for known_field, start, text in MESSAGES:
        if field == known_field and rule.startswith(start):
            return str(text)
    if rule in ("is required for this method", "is required"):
        return str(REQUIRED)
    return str(_l("Please check this field."))
