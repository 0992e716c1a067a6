"""Payout corridors, one registry: country x method (x wallet channel), currencies, refunds, account check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidField
from . import accounts

# Source currencies of the payout API: the merchant's balance currencies, plus the local one for a local payout.
FOREIGN_SOURCES = ("USD", "EUR", "GBP")


@dataclass(frozen=True)
class Corridor:
    """Where a payout can go and how: what arrives, what may pay for it, what the recipient's bank may send back."""

    country: str
    method: str
    arrival_currency: str
    check: Callable[[Any], accounts.Beneficiary]  # validates and normalises the beneficiary's account
    channel: str | None = None  # WALLET only: which wallet
    full_refunds: bool = False  # the recipient's bank may send the whole payout back
    partial_refunds: bool = False  # ... or a part of it
    page_sources: tuple[str, ...] = ()  # source currencies on the hosted checkout page; () when not offered there

    @property
    def api_sources(self) -> tuple[str, ...]:
        return (
            FOREIGN_SOURCES if self.arrival_currency in FOREIGN_SOURCES else (*FOREIGN_SOURCES, self.arrival_currency)
        )


# In the order error messages list them. GLOBAL is the external wallet, paid in USD; CHECKOUT is the
# service's own wallet, the only one that sends money back.
CORRIDORS: tuple[Corridor, ...] = (
    Corridor("BRA", "PIX", "BRL", accounts.pix, full_refunds=True, partial_refunds=True, page_sources=("USD", "BRL")),
    Corridor(
        "BRA",
        "BANKTRANSFER",
        "BRL",
        accounts.bank_transfer_brazil,
        full_refunds=True,
        partial_refunds=True,
        page_sources=("USD", "BRL"),
    ),
    Corridor("BRA", "QRCODE", "BRL", accounts.qrcode, full_refunds=True, partial_refunds=True),
    Corridor("MEX", "SPEI", "MXN", accounts.spei, full_refunds=True, page_sources=("USD", "MXN")),
    Corridor("MEX", "CASH", "MXN", accounts.cash),
    Corridor("MEX", "CASHPICKUP", "MXN", accounts.cash),
    Corridor("COL", "CASHOUT", "COP", accounts.cashout, full_refunds=True),
    Corridor("CHL", "BANKTRANSFER", "CLP", accounts.bank_transfer_chile, full_refunds=True),
    Corridor("GLOBAL", "WALLET", "USD", accounts.wallet, channel="PAYPAL", page_sources=("USD",)),
    Corridor("GLOBAL", "WALLET", "USD", accounts.wallet, channel="SKRILL", page_sources=("USD",)),
    Corridor("GLOBAL", "WALLET", "USD", accounts.wallet, channel="CHECKOUT", full_refunds=True, page_sources=("USD",)),
)

# PayPal's countries (ISO 3166-1 alpha-3), all paid in USD, as its supported-countries page lists them: a
# PayPal payout names the beneficiary's country and goes by the external wallet corridor (GLOBAL).
_PAYPAL_COUNTRIES = (
    "ALB AND ARE ARG ATG AUS AUT BEL BGR BHR BHS BIH BLZ BMU BRA BRB BWA CAN CHE CHL COL CRI CYM CYP CZE "
    "DEU DMA DNK DOM DZA ECU EGY ESP EST FIN FJI FRA FRO GBR GEO GIB GLP GRC GRD GRL GTM GUF HKG HND HRV "
    "HUN IDN IND IRL ISL ISR ITA JAM JOR JPN KAZ KEN KNA KOR KWT LCA LIE LSO LTU LUX LVA MAR MDA MEX MLT "
    "MOZ MTQ MUS MWI MYS NCL NIC NLD NOR NZL OMN PAN PER PHL PLW POL PRT PYF QAT REU ROU SAU SEN SGP SLV "
    "SMR SRB SVK SVN SWE SYC TCA THA TTO TWN URY USA VEN VNM ZAF"
)
PAYPAL_COUNTRIES = frozenset(_PAYPAL_COUNTRIES.split())


def route(country: str, method: str, channel: str | None) -> str:
    """The corridor's country of a payout to `country`: GLOBAL for PayPal, the country itself otherwise."""
    return "GLOBAL" if (method, channel) == ("WALLET", "PAYPAL") and country in PAYPAL_COUNTRIES else country


# Country -> arrival currency.
COUNTRIES: dict[str, str] = {c.country: c.arrival_currency for c in CORRIDORS}


def methods(country: str, *, page: bool = False) -> tuple[str, ...]:
    """The country's methods (on the checkout page only, with `page`), each once, in registry order."""
    return tuple(dict.fromkeys(c.method for c in CORRIDORS if c.country == country and (c.page_sources or not page)))


def channels(country: str, method: str) -> tuple[str, ...]:
    return tuple(c.channel for c in CORRIDORS if (c.country, c.method) == (country, method) and c.channel)


WALLET_CHANNELS = channels("GLOBAL", "WALLET")


def find(country: str, method: str, channel: str | None = None) -> Corridor | None:
    country = route(country, method, channel)
    for corridor in CORRIDORS:
        if (corridor.country, corridor.method) == (country, method) and corridor.channel in (None, channel):
            return corridor
    return None


@dataclass(frozen=True)
class PageOffer:
    """What the hosted checkout page offers in a country."""

    methods: tuple[str, ...]
    sources: tuple[str, ...]
    payout_currency: str


PAGE: dict[str, PageOffer] = {
    c.country: PageOffer(methods(c.country, page=True), c.page_sources, c.arrival_currency)
    for c in CORRIDORS
    if c.page_sources
}
# The payout currency names the country when a checkout request does not.
PAGE_COUNTRY_OF = {offer.payout_currency: country for country, offer in PAGE.items()}


def beneficiary(req) -> accounts.Beneficiary:
    """Validate the account fields `req` carries for its country and method."""
    # Every channel of a method has the same account check: the first corridor of the method says it.
    country = route(req.country, req.method, req.channel)
    corridor = next((c for c in CORRIDORS if (c.country, c.method) == (country, req.method)), None)
    if corridor is None:
        raise InvalidField("method", f"{req.method} is not offered in {req.country}")
    if req.phone and not accounts.PHONE.match(req.phone):
        raise InvalidField("phone", "must be up to 15 digits, + optional, such as 5511987654321")
    if req.method != "WALLET":
        accounts.named(req)
    wallets = channels(country, req.method)
    if wallets:
        channel = accounts.required(req.channel, "channel")
        if channel not in wallets:
            raise InvalidField("channel", f"must be one of {', '.join(wallets)}")
    return corridor.check(req)
