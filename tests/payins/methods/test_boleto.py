from datetime import date

import pytest

from checkout.payins.methods import boleto

# A real Santander boleto's linha digitável (033991614.0 0700000191.2 8155600101.4 4 11370000038936).
PUBLISHED = "03399161400700000191281556001014411370000038936"


def test_published_linha_digitavel_validates_and_maps_to_its_barcode():
    assert boleto.barcode_from_linha(PUBLISHED) == "03394113700000389369161407000001918155600101"


@pytest.mark.parametrize("due, factor", [
    (date(2000, 7, 3), 1000), (date(2025, 2, 21), 9999), (date(2025, 2, 22), 1000), (date(2026, 11, 21), 1637),
])
def test_due_date_factor_restarts_at_1000_after_february_2025(due, factor):
    assert boleto.due_factor(due) == factor


def test_generated_boleto_round_trips_with_amount_and_factor():
    code = boleto.barcode(bank="001", due=date(2026, 11, 24), amount_minor=10050,
                          free_field="0000002871953000000004217")
    linha = boleto.linha_digitavel(code)
    assert len(linha) == 47
    assert boleto.barcode_from_linha(linha) == code
    assert linha[33:37] == "1640" and linha[37:47] == "0000010050"


@pytest.mark.parametrize("position", range(47))
def test_any_single_digit_change_is_detected(position):
    digit = int(PUBLISHED[position])
    corrupted = PUBLISHED[:position] + str((digit + 1) % 10) + PUBLISHED[position + 1:]
    with pytest.raises(boleto.BoletoError):
        boleto.barcode_from_linha(corrupted)


def test_mod10_and_mod11_by_hand():
    # 0019 + 00000: weights 2,1 from the right give 1*2=2 and 9*1=9 -> 11 -> check 9
    assert boleto.mod10("001900000") == 9
    assert boleto.mod11("0" * 42 + "1") == 9
