"""Card tokenization: brand detection, Luhn, expiry; no card data kept in clear (test cards: providers.sandbox)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

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


def tokenize(
    session: Session,
    merchant: Merchant,
    *,
    card_no: str,
    cvv: str,
    exp_year,
    exp_month,
    holder_name: str,
    fingerprint_key: str,
    ttl_seconds: int,
    sandbox_outcome: str,
    published_expiry: tuple[int, int] | None = None,
) -> CardToken:
    """`sandbox_outcome` is the acquirer's note on this card (Acquirer.outcome_for), kept with the token;
    `published_expiry` a past (year, month) the acquirer still takes for this card (a published test card)."""
    if not is_digits(card_no) or not 12 <= len(card_no) <= 19:
        raise InvalidField("card.card_no", "must be 12 to 19 digits")
    if not luhn.is_valid(card_no):
        raise InvalidField("card.card_no", "fails the Luhn check")
    brand = brand_of(card_no)
    if brand is None:
        raise InvalidField("card.card_no", "card brand is not supported")
    if not is_digits(cvv) or len(cvv) != (4 if brand == "amex" else 3):
        raise InvalidField("card.cvv", f"must be {4 if brand == 'amex' else 3} digits for {brand}")
    year = _int_field(exp_year, "card.valid_thru_year", (4, 2))
    year = year + 2000 if year < 100 else year
    month = _int_field(exp_month, "card.valid_thru_month", (1, 2))
    if not 1 <= month <= 12:
        raise InvalidField("card.valid_thru_month", "must be 1 to 12")
    today = clock.now().date()
    if (year, month) < (today.year, today.month) and (year, month) != published_expiry:
        raise InvalidField("card.valid_thru_year", "card has expired")
    if year > today.year + 20:
        raise InvalidField("card.valid_thru_year", "must be within 20 years")
    now = clock.now()
    token = CardToken(
        token="tok_" + secrets.token_hex(16),
        merchant_id=merchant.id,
        brand=brand,
        first_six=card_no[:6],
        last_four=card_no[-4:],
        exp_month=month,
        exp_year=year,
        holder_name=holder_name,
        fingerprint=hmac.new(fingerprint_key.encode(), b"card:" + card_no.encode(), hashlib.sha256).hexdigest(),
        sandbox_outcome=sandbox_outcome,
        created_at=now,
        expires_at=now + timedelta(seconds=ttl_seconds),
    )
    session.add(token)
    session.flush()
    return token


def usable_token(session: Session, merchant: Merchant, token: str, field: str) -> CardToken:
    """A card token of this merchant that has not expired; anything else is an invalid parameter."""
    card = session.scalar(select(CardToken).where(CardToken.token == token, CardToken.merchant_id == merchant.id))
    if card is None:
        raise InvalidField(field, "unknown card token", reason="invalid-card-token")
    if clock.as_utc(card.expires_at) <= clock.now():
        raise InvalidField(field, "card token has expired; tokenize the card again", reason="invalid-card-token")
    return card
