"""The provider's sandbox test data (payin/data/data-for-test-sandbox.md) give its documented outcome here."""

import pytest

from checkout import clock
from tests import builders

# Card NO., CVV, expiry year ("current year" where the page says so), month, holder: all "APRO", approved.
PUBLISHED_CARDS = [
    ("4000000000000002", "123", None, "12"),
    ("5555555555554444", "123", None, "12"),
    ("4242424242424242", "222", "2025", "2"),
    ("4075595716483764", "123", None, "12"),
    ("5474925432670366", "123", None, "12"),
    ("5413330089020011", "123", "2025", "12"),
    ("4005520000000129", "986", "2027", "12"),
    ("4012001037141112", "212", "2027", "12"),
    ("5455460920094260", "305", "2023", "4"),
]


@pytest.mark.parametrize("card_no, cvv, year, month", PUBLISHED_CARDS)
def test_every_published_card_tokenizes_and_is_approved(api, work, card_no, cvv, year, month):
    year = year or str(clock.now().year)
    card = {"card_no": card_no, "cvv": cvv, "valid_thru_year": year, "valid_thru_month": month}
    token = api.post("/card/token", {"card": {**card, "holder": {"name": "APRO"}}}, expect=200)
    assert (token["first_six_digits"], token["last_four_digits"]) == (card_no[:6], card_no[-4:])
    paid = api.post(
        "/trade/pay",
        builders.direct("CreditCard", token=token["token"], fingerprint="fp", issuer="visa", user_ip="198.51.100.1"),
        expect=200,
    )
    assert paid["trade_status"] == "PROCESSING"
    work()
    assert api.post("/trade/query", {"trade_no": paid["trade_no"]}, expect=200)["trade_status"] == "SUCCESS"


def test_a_lapsed_date_is_taken_only_for_the_card_published_with_it(api):
    other_date = {"card_no": "4242424242424242", "cvv": "222", "valid_thru_year": "2025", "valid_thru_month": "3"}
    body = api.post("/card/token", {"card": {**other_date, "holder": {"name": "APRO"}}}, expect=400)
    assert body["sub_msg"] == "card.valid_thru_year: card has expired"
    ours = builders.card(builders.APPROVED_CARD, card={"valid_thru_year": "2025", "valid_thru_month": "2"})
    assert api.post("/card/token", ours, expect=400)["sub_msg"] == "card.valid_thru_year: card has expired"


def test_the_brazilian_test_user_pays_by_pix(api):
    # The interface requires the address's state, city, street and number for a direct payment.
    user = {
        "customer": {
            "name": "Test User Name",
            "phone": "5511987654321",
            "email": "test@pagsmile.com",
            "identify": {"type": "CPF", "number": "11032341882"},
        },
        "address": {"zip_code": "38082365"},
    }
    body = builders.direct("PIX", **user)
    answer = api.post("/trade/pay", body, expect=200)
    assert (answer["code"], answer["trade_status"]) == ("10000", "PROCESSING")
