"""The card-data scanner the suites end with: it must see every way a number or a code is written."""

import pytest

from tests import cardscan


@pytest.mark.parametrize(
    "text",
    [
        '{"card_no": "4111111111111111"}',
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111.1111.1111.1111",
        "4111_1111_1111_1111",
        "4111/1111/1111/1111",
        "\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11",
        "card=5555555555554444&x=1",
        "pan 4012001037141112.",
    ],
)
def test_card_numbers_are_found_however_they_are_written(text):
    assert cardscan.card_numbers(text) in ({"4111111111111111"}, {"5555555555554444"}, {"4012001037141112"})


@pytest.mark.parametrize(
    "text",
    [
        "411111******1111",  # masked, as the request log keeps it
        "4111111111111112",  # fails the Luhn check
        "1732700000000",  # milliseconds, no card brand
        "9f0c304741107110ab",  # digits inside a hex key (a diners-like, Luhn-valid run)
        "1b9d6bcd-bbfd-4b2d-9b5d-356949929679",  # a UUID (a ledger entry's) ending in a JCB-like run
        "34191790010104351004791020150008884170026000",  # a boleto's barcode: a longer run
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR",
    ],
)
def test_what_is_not_a_card_number_is_not_reported(text):
    assert cardscan.card_numbers(text) == set()


def test_security_codes_are_found_under_their_names_unless_masked():
    text = '{"cvv": "123", "card": {"cvc": 4567, "cvv2": "***"}, "security_code": null} cvv=999 "cvv":"[redacted]"'
    assert cardscan.security_codes(text) == ['"cvv": "123', '"cvc": 4567', "cvv=999"]


def test_leaks_name_the_secret_found():
    assert cardscan.leaks("key sk_live_x in a line, 4111 1111 1111 1111", {"sk_live_x", "other"}) == [
        "4111111111111111",
        "sk_live_x",
    ]


def test_a_reference_cut_from_a_trade_number_is_not_card_data_but_a_card_still_is():
    trade_no = "202611272258271609672292"  # made at 22:58:27: its 16-digit tail passes for a Mastercard
    reference = trade_no[-16:]
    assert cardscan.card_numbers(f"reference {reference}") == {"2258271609672292"}
    text = f"reference {reference} card 5555555555554444"
    assert cardscan.card_numbers(text) - cardscan.own_references([trade_no]) == {"5555555555554444"}
