from decimal import Decimal

import pytest

from checkout.config import Defaults
from checkout.errors import InvalidField
from checkout.payouts import pricing
from tests import builders


def quote(**overrides):
    args = {
        "source_currency": "USD",
        "arrival_currency": "BRL",
        "amount": Decimal("100.00"),
        "amount_type": "source",
        "fee_bear": "merchant",
        "method": "PIX",
        "country": "BRA",
        "mid_rates": Defaults.PAYOUT_MID_RATES,
        "markup_bps": 50,
        **overrides,
    }
    return pricing.quote(**args)


def test_merchant_bears_the_fee_on_top():
    q = quote()
    # fee 0.50 + 0.5% of 100.00 = 1.00; IOF 0.38% of 100.00 = 0.38; rate 5.40 less 0.5% = 5.373
    assert (q.fee, q.tax, q.settlement_amount, q.source_amount) == (
        Decimal("1.00"),
        Decimal("0.38"),
        Decimal("100.00"),
        Decimal("101.38"),
    )
    assert (q.exchange_rate, q.arrival_amount) == (Decimal("5.373000"), Decimal("537.30"))


def test_beneficiary_bears_the_fee_from_what_arrives():
    q = quote(fee_bear="beneficiary")
    assert (q.source_amount, q.settlement_amount) == (Decimal("100.00"), Decimal("98.62"))
    assert q.arrival_amount == Decimal("529.88")  # 98.62 x 5.373 = 529.88526, rounded down


def test_arrival_amount_type_delivers_exactly_what_was_asked():
    q = quote(amount=Decimal("537.31"), amount_type="arrival")
    assert q.arrival_amount == Decimal("537.31")
    assert q.settlement_amount == Decimal("100.01")  # 537.31 / 5.373 = 100.0018..., rounded up
    assert q.source_amount == q.settlement_amount + q.fee + q.tax


def test_mexico_taxes_the_fee():
    q = quote(arrival_currency="MXN", method="SPEI", country="MEX")
    assert (q.fee, q.tax) == (Decimal("1.35"), Decimal("0.22"))  # IVA 16% of 1.35 = 0.216


def test_local_currency_has_no_rate_and_no_markup():
    q = quote(source_currency="BRL", amount=Decimal("50.00"))
    assert q.exchange_rate == Decimal(1) and q.arrival_amount == Decimal("50.00")


def test_zero_decimal_arrival_currency():
    q = quote(arrival_currency="CLP", method="BANKTRANSFER", country="CHL")
    assert q.exchange_rate == Decimal("945.250000")  # 950 less 0.5%
    assert q.arrival_amount == Decimal("94525")  # 100.00 x 945.25, no decimals in CLP


@pytest.mark.parametrize(
    "overrides, field, rule",
    [
        ({"method": "SPEI"}, "method", "must be one of PIX, BANKTRANSFER, QRCODE, WALLET for BRA"),
        ({"arrival_currency": "MXN"}, "arrival_currency", "must be BRL for BRA"),
        (
            {"country": "BOL"},
            "country",
            "must be one of BRA, MEX, COL, CHL, ARG, ECU, GTM, PAN, PER, RUS, TUR, URY, GLOBAL",
        ),
        ({"amount": Decimal("0.50"), "fee_bear": "beneficiary"}, "amount", "does not cover the fee and tax"),
        ({"amount": Decimal("1.001")}, "amount", "at most 2 decimal places for USD"),
        ({"source_currency": "MXN"}, "source_currency", "must be one of USD, EUR, GBP or BRL"),
    ],
)
def test_route_and_amount_rules(overrides, field, rule):
    with pytest.raises(InvalidField) as error:
        quote(**overrides)
    assert (error.value.field, error.value.rule) == (field, rule)


def test_rates_given_as_json_numbers_are_read_exactly(app, payout_api):
    app.config["PAYOUT_MID_RATES"] = {**app.config["PAYOUT_MID_RATES"], "EUR/BRL": 5.85}
    try:
        data = payout_api.post("/payout/dry-run", builders.dry_run(source_currency="EUR"), expect=200)["data"]
    finally:
        app.config["PAYOUT_MID_RATES"] = {**app.config["PAYOUT_MID_RATES"], "EUR/BRL": "5.85"}
    assert data["exchange_rate"] == "5.820750"
    assert Decimal(data["exchange_rate"]) == Decimal("5.85") * Decimal("0.995")
