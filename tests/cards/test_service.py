"""Card tokens: tokenization through the API, and the app's Tokenizer on its own."""

from datetime import timedelta

import pytest
from sqlalchemy import select

from checkout import clock
from checkout.cards.models import CardToken
from checkout.cards.service import CardInput, Tokenizer
from checkout.errors import InvalidField
from checkout.merchants import service as merchants
from tests import builders


def test_tokenize_returns_token_and_masked_digits(api):
    body = api.post("/card/token", builders.card(), expect=200)
    assert body["code"] == "10000" and body["msg"] == "Success"
    assert body["token"].startswith("tok_")
    assert (body["first_six_digits"], body["last_four_digits"], body["brand"]) == ("411111", "1111", "visa")


def test_card_number_and_cvv_are_never_stored(api, session):
    api.post("/card/token", builders.card("5555555555554444", card={"cvv": "987"}), expect=200)
    stored = session.scalars(select(CardToken)).one()
    # Random and derived columns (token, HMAC fingerprint, times) may contain any digits by chance.
    random = {"id", "token", "fingerprint", "created_at", "expires_at", "merchant_id"}
    values = [str(getattr(stored, c.key)) for c in CardToken.__table__.columns if c.key not in random]
    assert not any("5555555555554444" in v or "987" in v for v in values), values
    assert (stored.brand, stored.first_six, stored.last_four, stored.exp_month, stored.exp_year) == (
        "mastercard",
        "555555",
        "4444",
        12,
        2031,
    )
    assert len(stored.fingerprint) == 64


def test_same_card_same_fingerprint(api, session):
    api.post("/card/token", builders.card(), expect=200)
    api.post("/card/token", builders.card(card={"cvv": "321"}), expect=200)
    assert len({t.fingerprint for t in session.scalars(select(CardToken))}) == 1


def test_luhn_failure(api):
    body = api.post("/card/token", builders.card("4111111111111112"), expect=400)
    assert (body["code"], body["sub_code"], body["sub_msg"]) == (
        "40002",
        "invalid-parameter",
        "card.card_no: fails the Luhn check",
    )


def test_expired_card(api):
    body = api.post("/card/token", builders.card(card={"valid_thru_year": "2020"}), expect=400)
    assert body["sub_msg"] == "card.valid_thru_year: card has expired"


def test_amex_needs_four_digit_cvv(api):
    body = api.post("/card/token", builders.card("378282246310005"), expect=400)
    assert body["sub_msg"] == "card.cvv: must be 4 digits for amex"
    ok = api.post("/card/token", builders.card("378282246310005", card={"cvv": "1234"}), expect=200)
    assert ok["brand"] == "amex" and ok["last_four_digits"] == "0005"


def test_missing_holder_name(api):
    body = api.post("/card/token", builders.card(card={"holder": {"name": ...}}), expect=400)
    assert (body["code"], body["msg"], body["sub_code"], body["sub_msg"]) == (
        "40001",
        "Missing Required Arguments",
        "missing-arguments",
        "missing required argument: card.holder.name",
    )


def test_month_out_of_range(api):
    body = api.post("/card/token", builders.card(card={"valid_thru_month": "13"}), expect=400)
    assert body["sub_msg"] == "card.valid_thru_month: must be 1 to 12"


class _Notes:
    """An acquirer that notes every card alike and still takes one past expiry."""

    def outcome_for(self, card_no: str, holder_name: str = "") -> str:
        return f"noted:{holder_name}"

    def published_expiry(self, card_no: str) -> tuple[int, int] | None:
        return (2020, 1)


def test_the_tokenizer_keeps_its_acquirers_note_and_takes_its_published_expiry(session):
    owner = merchants.create(session, name="Tokens")
    tokenizer = Tokenizer(_Notes(), fingerprint_key="not-in-logs", ttl_seconds=60)
    card = tokenizer.tokenize(session, owner, CardInput("4111111111111111", "123", "2020", "1", "Ana"))
    assert (card.sandbox_outcome, card.exp_year, card.exp_month) == ("noted:Ana", 2020, 1)
    assert clock.as_utc(card.expires_at) - clock.as_utc(card.created_at) == timedelta(seconds=60)
    with pytest.raises(InvalidField, match="card has expired"):
        tokenizer.tokenize(session, owner, CardInput("4111111111111111", "123", "2020", "2", "Ana"))
    assert "not-in-logs" not in repr(tokenizer)
