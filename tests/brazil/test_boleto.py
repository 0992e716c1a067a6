"""Boleto: due factor, barcode and linha digitável check digits; what Boleto trades hand out."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkout.brazil import boleto
from checkout.config import Defaults
from checkout.links import Links
from checkout.payins.methods import METHODS, Collector
from checkout.payins.models import Trade
from tests.strategies import PROPERTY, digits, single_digit_corruptions

# A real Santander boleto's linha digitável (033991614.0 0700000191.2 8155600101.4 4 11370000038936).
PUBLISHED = "03399161400700000191281556001014411370000038936"


def test_published_linha_digitavel_validates_and_maps_to_its_barcode():
    assert boleto.barcode_from_linha(PUBLISHED) == "03394113700000389369161407000001918155600101"


# The provider's Boleto page answers a bar code and, in bank_code, a typed line (of another boleto); its
# Lottery page answers a typed line as barcode. Each is a valid one, and the codec reads them as such.
PROVIDER_BOLETO_BARCODE = "23793864800029999003380260980157275200633330"
PROVIDER_BOLETO_BANK_CODE = "21890010070215182080679309377384187050000001125"
PROVIDER_LOTTERY_BARCODE = "10499647359216218774123156548721787200000011649"


def test_the_providers_bar_code_round_trips_through_its_typed_line():
    code = PROVIDER_BOLETO_BARCODE
    assert int(code[4]) == boleto.mod11(code[:4] + code[5:])
    linha = boleto.linha_digitavel(code)
    assert linha == "23793380296098015727952006333307386480002999900"
    assert boleto.barcode_from_linha(linha) == code


@pytest.mark.parametrize(
    "linha, barcode",
    [
        (PROVIDER_BOLETO_BANK_CODE, "21891870500000011250010002151820807930937738"),
        (PROVIDER_LOTTERY_BARCODE, "10497872000000116499647392162187742315654872"),
    ],
)
def test_the_providers_typed_lines_map_to_their_bar_codes(linha, barcode):
    assert boleto.barcode_from_linha(linha) == barcode
    assert boleto.linha_digitavel(barcode) == linha


@pytest.mark.parametrize(
    "due, factor",
    [
        (date(2000, 7, 3), 1000),
        (date(2025, 2, 21), 9999),
        (date(2025, 2, 22), 1000),
        (date(2026, 11, 21), 1637),
    ],
)
def test_due_date_factor_restarts_at_1000_after_february_2025(due, factor):
    assert boleto.due_factor(due) == factor


def test_generated_boleto_round_trips_with_amount_and_factor():
    code = boleto.barcode(
        bank="001", due=date(2026, 11, 24), amount_minor=10050, free_field="0000002871953000000004217"
    )
    linha = boleto.linha_digitavel(code)
    assert len(linha) == 47
    assert boleto.barcode_from_linha(linha) == code
    assert linha[33:37] == "1640" and linha[37:47] == "0000010050"


@pytest.mark.parametrize("position", range(47))
def test_any_single_digit_change_is_detected(position):
    digit = int(PUBLISHED[position])
    corrupted = PUBLISHED[:position] + str((digit + 1) % 10) + PUBLISHED[position + 1 :]
    with pytest.raises(boleto.BoletoError):
        boleto.barcode_from_linha(corrupted)


def test_mod10_and_mod11_by_hand():
    # 0019 + 00000: weights 2,1 from the right give 1*2=2 and 9*1=9 -> 11 -> check 9
    assert boleto.mod10("001900000") == 9
    assert boleto.mod11("0" * 42 + "1") == 9


# --- properties ----------------------------------------------------------------------------------------

COLLECTOR = Collector(
    name=Defaults.COLLECTOR_NAME,
    city=Defaults.COLLECTOR_CITY,
    cnpj=Defaults.COLLECTOR_CNPJ,
    pix_key=Defaults.COLLECTOR_PIX_KEY,
    boleto_due_days=Defaults.BOLETO_DUE_DAYS,
)
LINKS = Links(base_url="http://checkout.test", secret_key="test-secret-key")
BRAZIL = timezone(timedelta(hours=-3))


def febraban_general_digit(barcode_without_digit: str) -> int:
    """FEBRABAN's mod 11 over the 43 other barcode digits, weights 2..9 from the right; 0, 10, 11 become 1."""
    total = sum(int(d) * (2 + i % 8) for i, d in enumerate(reversed(barcode_without_digit)))
    return 1 if 11 - total % 11 in (0, 10, 11) else 11 - total % 11


def febraban_factor(due: date) -> int:
    """Days since 1997-10-07; from 2025-02-22 it counts again from 1000, wrapping after 9999."""
    if due < date(2025, 2, 22):
        return (due - date(1997, 10, 7)).days
    return 1000 + (due - date(2025, 2, 22)).days % 9000


trade_ids = st.integers(min_value=1, max_value=2**53)
order_amounts = st.integers(min_value=1, max_value=99_999_999_99)
expiries = st.datetimes(min_value=datetime(2025, 3, 1), max_value=datetime(2060, 12, 31), timezones=st.just(UTC))


def boleto_answer(trade_id: int, amount_minor: int, expires_at: datetime) -> dict:
    """What the Boleto method answers for a new trade (the same call payins.service makes)."""
    trade = Trade(
        id=trade_id,
        trade_no=f"T{trade_id}",
        amount_minor=amount_minor,
        currency="BRL",
        method="Boleto",
        expires_at=expires_at,
    )
    return METHODS["Boleto"].present(trade, LINKS, COLLECTOR)


@PROPERTY
@given(trade_ids, order_amounts, expiries)
def test_boleto_trades_hand_out_a_valid_linha_for_the_amount_and_due_date(trade_id, amount_minor, expires_at):
    answer = boleto_answer(trade_id, amount_minor, expires_at)
    linha = answer["bank_code"]
    # Due on the last Brazil day the trade is open: an expiry at Brazil midnight belongs to the day before.
    due = (expires_at.astimezone(BRAZIL) - timedelta(microseconds=1)).date()
    assert answer["due_date"] == due.isoformat()
    code = boleto.barcode_from_linha(linha)
    assert len(linha) == 47 and linha.isdigit()
    assert code[0:3] == "001" and code[3] == "9"  # Banco do Brasil, in reais
    assert code[5:9] == f"{febraban_factor(due):04d}" and code[9:19] == f"{amount_minor:010d}"
    assert code[19:44] == f"0000002871953{trade_id % 10**10:010d}17"  # agreement, our-number, wallet 17
    assert int(code[4]) == febraban_general_digit(code[:4] + code[5:])
    assert boleto.linha_digitavel(code) == linha
    assert answer["barcode"] == code
    assert boleto.formatted(linha).replace(".", "").replace(" ", "") == linha


@settings(PROPERTY, max_examples=15)  # each example checks 423 corrupted linhas
@given(digits(3), digits(25), order_amounts, expiries.map(lambda at: at.date()))
def test_single_digit_corruptions_are_caught_except_where_febraban_mod11_is_blind(bank, free_field, amount_minor, due):
    linha = boleto.linha_digitavel(boleto.barcode(bank=bank, due=due, amount_minor=amount_minor, free_field=free_field))
    for position, corrupted in single_digit_corruptions(linha):
        if position <= 32:
            # The three fields carry mod-10 check digits, which catch any one changed digit; position 32 is
            # the general check digit itself.
            with pytest.raises(boleto.BoletoError):
                boleto.barcode_from_linha(corrupted)
            continue
        # Due factor and amount (positions 33-46) are covered by the general mod-11 digit alone, which
        # folds three remainders (0, 1, 10) into the digit 1: a typo there goes unseen exactly when the
        # typed number's own general digit comes out the same.
        typed = corrupted[0:4] + corrupted[33:47] + corrupted[4:9] + corrupted[10:20] + corrupted[21:31]
        unseen = febraban_general_digit(typed) == int(corrupted[32])
        if unseen:
            assert boleto.barcode_from_linha(corrupted) == typed[:4] + corrupted[32] + typed[4:]
        else:
            with pytest.raises(boleto.BoletoError, match="general check digit is wrong"):
                boleto.barcode_from_linha(corrupted)


def test_febraban_mod11_misses_some_typos_in_the_amount():
    """Why the property above has an exception: a real one: 100.02 BRL read back as 30,000,100.02 BRL."""
    linha = boleto.linha_digitavel(
        boleto.barcode(bank="001", due=date(2026, 11, 24), amount_minor=10002, free_field="0000002871953000000004217")
    )
    assert linha == "00190000090287195300200000042176116400000010002"
    typo = linha[:37] + "3" + linha[38:]
    assert boleto.barcode_from_linha(typo)[9:19] == "3000010002"
