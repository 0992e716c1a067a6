"""Card tokenization: brand detection, Luhn, expiry; no card data kept in clear (test cards: providers.sandbox)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session
from stdnum import luhn

from .. import clock
from ..errors import InvalidField
from ..merchants.models import Merchant
from ..validation import is_digits
from .models import CardToken

ELO_PREFIXES = (
    "401178",
    "401179",
    "431274",
    "438935",
    "451416",
    "457393",
    "457631",
    "457632",
    "504175",
    "506699",
    "5067",
    "509",
    "627780",
    "636297",
    "636368",
    "6500",
    "6504",
    "6505",
    "6507",
    "6509",
    "6516",
    "6550",
)


def brand_of(number: str) -> str | None:
    if number.startswith(("606282", "3841")):
        return "hipercard"
    if number.startswith(ELO_PREFIXES):
        return "elo"
    if number[:2] in ("34", "37") and len(number) == 15:
        return "amex"
    if number.startswith("4") and len(number) in (13, 16, 19):
        return "visa"
    if len(number) == 16 and (51 <= int(number[:2]) <= 55 or 2221 <= int(number[:4]) <= 2720):
        return "mastercard"
    if number[:2] in ("36", "38") or 300 <= int(number[:3]) <= 305:
        return "diners"
    if number.startswith(("6011", "65")):
        return "discover"
    if 3528 <= int(number[:4]) <= 3589:
        return "jcb"
    return None


def _int_field(value, field: str, digits: tuple[int, ...]) -> int:
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str) or not is_digits(text) or len(text) not in digits:
        raise InvalidField(field, f"must be {' or '.join(map(str, digits))} digits")
    return int(text)


@dataclass(frozen=True)
class CardInput:
    """A card as the customer typed it (the API's `card` object, the card form), not yet checked."""

    card_no: str = field(repr=False)  # never in a log or a traceback's locals
    cvv: str = field(repr=False)
    exp_year: int | str
    exp_month: int | str
    holder_name: str


class CardNotes(Protocol):
    """What tokenization asks the acquirer about a card (providers.Acquirer answers it)."""

    def outcome_for(self, card_no: str, holder_name: str = "") -> str: ...

    def published_expiry(self, card_no: str) -> tuple[int, int] | None: ...


@dataclass(frozen=True)
class Tokenizer:
    """Card tokenization as one app runs it, built once at its start: its acquirer, the key of the card
    fingerprints and how long a token lives."""

    acquirer: CardNotes
    fingerprint_key: str = field(repr=False)  # the app's secret key
    ttl_seconds: int

    def tokenize(self, session: Session, merchant: Merchant, card: CardInput) -> CardToken:
        """Check the card and keep a token of it. The acquirer's note on the card (Acquirer.outcome_for) is
        kept with the token, as the acquirer's answer recorded: the card number is not kept, so the acquirer
        gets its note back with the token; the services never read it. A past expiry the acquirer still takes
        for this card (a published test card) is accepted."""
        card_no = card.card_no
        if not is_digits(card_no) or not 12 <= len(card_no) <= 19:
            raise InvalidField("card.card_no", "must be 12 to 19 digits")
        if not luhn.is_valid(card_no):
            raise InvalidField("card.card_no", "fails the Luhn check")
        brand = brand_of(card_no)
        if brand is None:
            raise InvalidField("card.card_no", "card brand is not supported")
        if not is_digits(card.cvv) or len(card.cvv) != (4 if brand == "amex" else 3):
            raise InvalidField("card.cvv", f"must be {4 if brand == 'amex' else 3} digits for {brand}")
        year, month = _expiry(card, self.acquirer.published_expiry(card_no))
        now = clock.now()
        token = CardToken(
            token="tok_" + secrets.token_hex(16),
            merchant_id=merchant.id,
            brand=brand,
            first_six=card_no[:6],
            last_four=card_no[-4:],
            exp_month=month,
            exp_year=year,
            holder_name=card.holder_name,
            fingerprint=hmac.new(
                self.fingerprint_key.encode(), b"card:" + card_no.encode(), hashlib.sha256
            ).hexdigest(),
            sandbox_outcome=self.acquirer.outcome_for(card_no, card.holder_name),
            created_at=now,
            expires_at=now + timedelta(seconds=self.ttl_seconds),
        )
        session.add(token)
        session.flush()
        return token


def _expiry(card: CardInput, published: tuple[int, int] | None) -> tuple[int, int]:
    """(year, month) of a card that has not expired, or whose past expiry is the one `published`."""
    year = _int_field(card.exp_year, "card.valid_thru_year", (4, 2))
    year = year + 2000 if year < 100 else year
    month = _int_field(card.exp_month, "card.valid_thru_month", (1, 2))
    if not 1 <= month <= 12:
        raise InvalidField("card.valid_thru_month", "must be 1 to 12")
    today = clock.now().date()
    if (year, month) < (today.year, today.month) and (year, month) != published:
        raise InvalidField("card.valid_thru_year", "card has expired")
    if year > today.year + 20:
        raise InvalidField("card.valid_thru_year", "must be within 20 years")
    return year, month


def usable_token(session: Session, merchant: Merchant, token: str, field: str) -> CardToken:
    """A card token of this merchant that has not expired; anything else is an invalid parameter."""
    card = session.scalar(select(CardToken).where(CardToken.token == token, CardToken.merchant_id == merchant.id))
    if card is None:
        raise InvalidField(field, "unknown card token", reason="invalid-card-token")
    if clock.as_utc(card.expires_at) <= clock.now():
        raise InvalidField(field, "card token has expired; tokenize the card again", reason="invalid-card-token")
    return card
