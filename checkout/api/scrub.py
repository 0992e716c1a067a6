"""The request log's rules for any text, whatever its field: card numbers masked, secret link parameters redacted."""

from __future__ import annotations

import functools
import re
import unicodedata

from stdnum import luhn

from ..brazil import boleto, brcode

REDACTED = "[redacted]"

# A field whose name contains one of these is never stored (its value becomes "[redacted]").
SECRET_WORDS = ("key", "secret", "password", "passwd", "token", "signature", "authorization", "credential")
# Fields that contain a secret word but name no secret: kept as they are.
NOT_SECRET = {"token_type", "key_type", "pix_key_type"}

# In any text, a run of digits (any script's: full-width ones too), alone or grouped by up to three of
# these between two digits: spaces, dashes, dots, underscores, slashes, middle dots, and their full-width
# forms. Not `:` or `,`, which join the parts of a timestamp or an amount into a run of a card's length.
_SEPARATOR = r"[\s\-._/\u00b7\u2010-\u2015\u2212\u30fb\ufe58\ufe63\uff0d\uff0e\uff0f\uff3f\uff65]"
# 12 digits or more, each match a whole run. Possessive, since a separator is never a digit: trying fewer
# separators, or a later start in the same run, can make no match, so the search never backtracks into a run.
_DIGIT_RUN = re.compile(rf"(?<!\d)\d(?:{_SEPARATOR}{{0,3}}+\d){{11,}}+")
_SEPARATORS = re.compile(rf"{_SEPARATOR}+")
_NOT_DIGIT = re.compile(r"[^0-9]")
_SHORTEST_RUN = 12  # characters: no shorter text holds a run
_LONGEST_CARD = 19  # digits; a longer run may hide a card glued to other digits, and is masked whole
# The service's own identifiers, in which a run is kept when the identifier is whole: a payin's trade_no
# (date and time, then ten digits), a payout's transaction_id, a Pix end-to-end id (a bank's `bank_id`), and
# the random hex of a merchant's app_id and a trade's prepay_id (whose digits pass the Luhn check by chance).
_DATE = r"20[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])"
_TIME = r"(?:[01][0-9]|2[0-3])[0-5][0-9]"
_ISSUED = re.compile(
    rf"(?<![0-9A-Za-z])(?:{_DATE}{_TIME}[0-5][0-9][0-9]{{10}}"
    rf"|TS{_DATE}[0-9]{{12}}"
    rf"|E[0-9]{{8}}{_DATE}{_TIME}[0-9A-F]{{11}}|app_[0-9a-f]{{28}}|pp_[0-9a-f]{{24}})(?![0-9A-Za-z])"
)
# A URL or query parameter, also percent-encoded inside another URL (`%3Ftoken%3D...`): its value is
# redacted when its name is a secret's (a hosted page's `?token=`).
_PARAMETER = re.compile(r"(?:(?<=[?&#;\s])|^)(?P<name>[\w.\-\[\]]+)=(?P<value>[^&#;\s\"'<>]*)")
_ENCODED_PARAMETER = re.compile(
    r"(?<=%3[fF]|%26|%23)(?P<name>[\w.\-\[\]]+)%3[dD](?P<value>(?:(?!%2[36])[^&#;\s\"'<>])*)"
)


def _luhn(digits: str) -> bool:
    return luhn.checksum(digits) == 0  # python-stdnum's: the same check card validation makes


def _digits(text: str) -> str:
    """The decimal digits of a text, in ASCII (a full-width four, U+FF14, reads as 4)."""
    if text.isascii():
        return _NOT_DIGIT.sub("", text)
    return "".join(str(unicodedata.decimal(char)) for char in text if char.isdecimal())


def mask_card_number(value: str) -> str:
    """The digits with the middle masked: the first six and last four kept of 15 digits or more
    (4111111111111111 -> 411111******1111), only the last four of 12 to 14 (six and four would leave two
    digits to guess), none of fewer."""
    digits = _digits(value)
    if len(digits) < 12:
        return "*" * len(digits)
    first = 6 if len(digits) >= 15 else 0
    return digits[:first] + "*" * (len(digits) - first - 4) + digits[-4:]


SECURITY_CODE_FIELDS = {
    "cvv", "cvc", "cvv2", "cvc2", "cid", "security_code", "securitycode", "card_cvv", "cardcvv", "cvn", "card_cvc",
    "cardcvc",
}  # fmt: skip


def field_name(key: str) -> str:
    humps = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key.strip())
    return humps.lower().replace("-", "_").replace(" ", "_")


def is_secret(name: str) -> bool:
    return name not in NOT_SECRET and any(word in name for word in SECRET_WORDS)


def plain(text: str) -> bool:
    """No text rule changes it: most texts, kept as they are without a call of their own (only a text with no
    `=`, no `%3`-escape and no run of digits as long as a card number's)."""
    if "=" in text or "%3" in text:
        return False
    return len(text) < _SHORTEST_RUN or _DIGIT_RUN.search(text) is None


def scrub_text(text: str) -> str:
    """A text with a secret parameter's value redacted (`?token=[redacted]`) and its card numbers masked."""
    if _ISSUED.fullmatch(text):
        return text  # one of the service's own identifiers, whole (a trade_no): nothing to change, found at once
    linked = text
    if "%3" in text:  # first: an encoded link is the value of a parameter of its own
        linked = _ENCODED_PARAMETER.sub(_parameter, linked)
    if "=" in text:
        linked = _PARAMETER.sub(_parameter, linked)
    if len(linked) < _SHORTEST_RUN or _payment_code(linked):
        return linked
    return _mask_runs(linked)


def _parameter(found: re.Match) -> str:
    if not _secret_name(found.group("name")):
        return found.group(0)
    return found.group(0)[: found.start("value") - found.start()] + REDACTED


@functools.lru_cache(maxsize=1024)
def _secret_name(name: str) -> bool:
    """A parameter whose value is never kept: a secret's, or a security code's (`?cvv=123`)."""
    name = field_name(name)
    return is_secret(name) or name in SECURITY_CODE_FIELDS or name.replace("_", "") in SECURITY_CODE_FIELDS


def _mask_runs(text: str) -> str:
    """A run of 12 to 19 digits holding a number that passes the Luhn check (the whole run, or some of its
    groups in a row: `12 4111 1111 1111 1111`) masked whole, and any longer run, but inside the service's
    own identifiers. A run of 12 to 19 digits holding none is kept (a numeric `out_trade_no` of that length
    is masked by chance, about one time in ten)."""
    issued: list[tuple[int, int]] | None = None

    def masked(run: re.Match) -> str:
        nonlocal issued
        digits = _digits(run.group(0))
        if len(digits) <= _LONGEST_CARD and not _holds_card(run.group(0), digits):
            return run.group(0)
        if issued is None:  # looked for only once a run would be masked: rarely
            issued = [found.span() for found in _ISSUED.finditer(text)]
        if any(start <= run.start() and run.end() <= end for start, end in issued):
            return run.group(0)
        return mask_card_number(digits)

    return _DIGIT_RUN.sub(masked, text)


def _holds_card(run: str, digits: str) -> bool:
    """The run's digits pass the Luhn check, or those of some of its groups in a row, 12 digits or more."""
    if _luhn(digits):
        return True
    groups = _SEPARATORS.split(run)  # a run holds digits and separators only
    if not run.isascii():
        groups = [_digits(group) for group in groups]
    for first in range(len(groups)):
        number = ""
        for last in range(first, len(groups)):
            number += groups[last]
            if len(number) > _LONGEST_CARD or (first == 0 and last == len(groups) - 1):
                break
            if len(number) >= 12 and _luhn(number):
                return True
    return False


def _payment_code(text: str) -> bool:
    """A whole Pix BR Code whose CRC holds, or a boleto's barcode or typed line whose check digits hold:
    what a payment's answer hands out for the customer to pay, no card number. Kept as it is."""
    try:
        if text.startswith("000201"):  # the CRC alone decides, unparsed: any change to a code breaks it
            return text[-8:-4] == "6304" and f"{brcode.crc16(text[:-4].encode()):04X}" == text[-4:].upper()
        digits = text.replace(".", "").replace(" ", "")
        if not (digits.isascii() and digits.isdigit()):
            return False
        if len(digits) == 44:
            return boleto.mod11(digits[:4] + digits[5:]) == int(digits[4])
        if len(digits) == 47:
            boleto.barcode_from_linha(digits)
            return True
    except ValueError:  # boleto.BoletoError, a text no encoder takes
        return False
    return False
