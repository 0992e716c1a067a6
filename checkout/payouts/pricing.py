"""Payout pricing: one function turns a request into fee, tax, rate and amounts, for quotes and payouts."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal

from .. import money
from ..errors import InvalidField
from . import catalog, corridors

RATE_PLACES = Decimal("0.000001")
SOURCE, ARRIVAL = "source", "arrival"


@dataclass(frozen=True)
class Quote:
    amount: Decimal  # the order amount, in the currency amount_type names
    source_currency: str
    arrival_currency: str
    fee: Decimal
    tax: Decimal
    settlement_amount: Decimal
    source_amount: Decimal
    arrival_amount: Decimal
    exchange_rate: Decimal

    def minor(self, name: str) -> int:
        currency = self.arrival_currency if name == "arrival_amount" else self.source_currency
        return money.to_minor(getattr(self, name), currency)

    def in_arrival_currency(self, value: Decimal) -> Decimal:
        """A source-currency figure (fee, tax) at this quote's own rate, rounded to the arrival currency's unit:
        what the beneficiary's page shows them in."""
        return _round(value * self.exchange_rate, self.arrival_currency)

    def sent_in_arrival_currency(self) -> Decimal:
        """What was sent, as the beneficiary's page shows it: what arrives plus the fee and tax as shown, so
        that the page's figures add up to the cent (each converted figure is rounded on its own, and the gross
        was rounded up in the source currency, so the amount asked for is not it)."""
        return self.arrival_amount + self.in_arrival_currency(self.fee) + self.in_arrival_currency(self.tax)

    def as_strings(self) -> dict[str, str]:
        """The dry-run's `data`: every figure as a string, in its currency's minor unit."""
        return {
            "fee": str(self.fee),
            "tax": str(self.tax),
            "amount": str(self.amount),
            "settlement_amount": str(self.settlement_amount),
            "arrival_currency": self.arrival_currency,
            "arrival_amount": str(self.arrival_amount),
            "source_currency": self.source_currency,
            "source_amount": str(self.source_amount),
            "exchange_rate": str(self.exchange_rate),
        }


def _unit(currency: str) -> Decimal:
    return Decimal(1).scaleb(-money.exponent(currency))


def _round(value: Decimal, currency: str, rounding=ROUND_HALF_UP) -> Decimal:
    return value.quantize(_unit(currency), rounding=rounding)


def exchange_rate(source: str, arrival: str, mid_rates: dict[str, str], markup_bps: int) -> Decimal:
    if source == arrival:
        return Decimal(1)
    mid = mid_rates.get(f"{source}/{arrival}")
    if mid is None:
        raise InvalidField("source_currency", f"{source} cannot be paid out in {arrival}")
    # str() first: a rate given as a JSON number in the environment arrives as a float.
    return (Decimal(str(mid)) * (1 - Decimal(markup_bps) / 10000)).quantize(RATE_PLACES, rounding=ROUND_DOWN)


def check_route(country: str, method: str, source: str, arrival: str, channel: str | None = None) -> corridors.Corridor:
    """The country/method(/channel)/currency combination must be a corridor."""
    if country not in corridors.COUNTRIES:
        raise InvalidField("country", f"must be one of {', '.join(corridors.COUNTRIES)}")
    local, methods = corridors.COUNTRIES[country], corridors.methods(country)
    if method not in methods:
        raise InvalidField("method", f"must be one of {', '.join(methods)} for {country}")
    if arrival != local:
        raise InvalidField("arrival_currency", f"must be {local} for {country}")
    corridor = corridors.find(country, method, channel)
    assert corridor is not None  # the country has the method
    sources = corridor.api_sources
    if source not in sources:
        raise InvalidField("source_currency", f"must be one of {', '.join(sources[:-1])} or {sources[-1]}")
    return corridor


def quote(
    *,
    source_currency: str,
    arrival_currency: str,
    amount: Decimal,
    amount_type: str,
    fee_bear: str,
    method: str,
    country: str,
    mid_rates: dict[str, str],
    markup_bps: int,
    channel: str | None = None,
) -> Quote:
    """Fee, tax, rate and amounts. `fee_bear` merchant adds fee and tax to what the merchant pays;
    beneficiary takes them from what arrives."""
    corridor = check_route(country, method, source_currency, arrival_currency, channel)
    rate = exchange_rate(source_currency, arrival_currency, mid_rates, markup_bps)
    order_currency = source_currency if amount_type == SOURCE else arrival_currency
    # "Payout amount, should be an Integer ... 1.00 is not available" (the Colombian pages, Chile's wallet).
    written_places = -int(amount.as_tuple().exponent)  # as written: "1.00" has 2
    if corridor.whole_amounts and order_currency == arrival_currency and written_places > 0:
        raise InvalidField("amount", f"must be a whole number of {arrival_currency}, such as 100 (not 100.00)")
    if money.decimals(amount) > money.exponent(order_currency):
        raise InvalidField("amount", f"at most {money.exponent(order_currency)} decimal places for {order_currency}")
    if amount <= 0:
        raise InvalidField("amount", "must be greater than 0")
    # The gross amount in the source currency, before fee and tax.
    if amount_type == SOURCE:
        gross = _round(amount, source_currency)
    else:
        gross = _round(amount / rate, source_currency, ROUND_UP)
    schedule = catalog.FEES[method]
    fee = _round(schedule.fixed + gross * schedule.percent / 100, source_currency)
    tax = _round(
        gross * catalog.GROSS_TAX.get(country, 0) / 100 + fee * catalog.FEE_TAX.get(country, 0) / 100, source_currency
    )
    if fee_bear == "merchant":
        settlement, source_amount = gross, gross + fee + tax
    else:
        settlement, source_amount = gross - fee - tax, gross
    if settlement <= 0:
        raise InvalidField("amount", "does not cover the fee and tax")
    arrival = _round(settlement * rate, arrival_currency, ROUND_DOWN)
    if corridor.whole_amounts:
        arrival = arrival.quantize(Decimal(1), rounding=ROUND_DOWN).quantize(_unit(arrival_currency))
    if amount_type == ARRIVAL and fee_bear == "merchant":
        arrival = _round(amount, arrival_currency)  # exactly what was asked; the gross was rounded up for it
    return Quote(
        amount=_round(amount, order_currency),
        source_currency=source_currency,
        arrival_currency=arrival_currency,
        fee=fee,
        tax=tax,
        settlement_amount=settlement,
        source_amount=source_amount,
        arrival_amount=arrival,
        exchange_rate=rate,
    )
