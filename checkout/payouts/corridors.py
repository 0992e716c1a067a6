"""Payout corridors, one registry: country x method (x wallet channel), currencies, refunds, account check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
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
    local_source: bool = True  # the arrival currency may also be the source (when the page lists it)
    whole_amounts: bool = False  # the page: the amount "should be an Integer" in the arrival currency
    name_lengths: tuple[int, int] | None = None  # the page's bounds on the beneficiary's name, when given

    @property
    def api_sources(self) -> tuple[str, ...]:
        local = self.local_source and self.arrival_currency not in FOREIGN_SOURCES
        return (*FOREIGN_SOURCES, self.arrival_currency) if local else FOREIGN_SOURCES


C = Corridor
# The corridors whose pages bound the name, 5 to 100 characters ("Length must between 5 and 100",
# "Min.5 Max.100"), and whose checks honour it (those served before keep theirs unchecked).
N = partial(Corridor, name_lengths=(5, 100))
# In the order error messages list them. GLOBAL is the external wallet, paid in USD; CHECKOUT is the
# service's own wallet, and PAGSMILE the provider's (the same thing in this drop-in): the wallets that send
# money back. Every corridor's values are its submit page's; the refunds are the seed's (its rules 2 and 3).
CORRIDORS: tuple[Corridor, ...] = (
    C("BRA", "PIX", "BRL", accounts.pix, full_refunds=True, partial_refunds=True, page_sources=("USD", "BRL")),
    C(
        "BRA",
        "BANKTRANSFER",
        "BRL",
        accounts.bank_transfer_brazil,
        full_refunds=True,
        partial_refunds=True,
        page_sources=("USD", "BRL"),
    ),
    C("BRA", "QRCODE", "BRL", accounts.qrcode, full_refunds=True, partial_refunds=True),
    N("BRA", "WALLET", "BRL", accounts.pagsmile, channel="PAGSMILE", full_refunds=True, local_source=False),
    C("MEX", "SPEI", "MXN", accounts.spei, full_refunds=True, page_sources=("USD", "MXN")),
    C("MEX", "CASH", "MXN", accounts.cash),
    C("MEX", "CASHPICKUP", "MXN", accounts.cash),
    N("MEX", "WALLET", "MXN", accounts.pagsmile, channel="PAGSMILE", full_refunds=True, local_source=False),
    C("COL", "CASHOUT", "COP", accounts.cashout, full_refunds=True),
    N("COL", "BANKTRANSFER", "COP", accounts.bank_transfer_colombia, whole_amounts=True),
    N("COL", "TRANSFIYA", "COP", accounts.transfiya, whole_amounts=True),
    N("COL", "WALLET", "COP", accounts.tpaga, channel="TPAGA", whole_amounts=True),
    C("CHL", "BANKTRANSFER", "CLP", accounts.bank_transfer_chile, full_refunds=True),
    N("CHL", "WALLET", "CLP", accounts.vita, channel="VITA", whole_amounts=True),
    N("ARG", "BANKTRANSFER", "ARS", accounts.bank_transfer_argentina),
    N("ARG", "WALLET", "ARS", accounts.mercadopago, channel="MERCADOPAGO"),
    N("ECU", "BANKTRANSFER", "USD", accounts.bank_transfer_ecuador),
    N("GTM", "BANKTRANSFER", "GTQ", accounts.bank_transfer_guatemala, local_source=False),
    N("PAN", "BANKTRANSFER", "USD", accounts.bank_transfer_panama),
    N("PER", "BANKTRANSFER", "PEN", accounts.bank_transfer_peru),
    N("RUS", "WALLET", "RUB", accounts.qiwi, channel="QIWI", local_source=False),
    N("TUR", "BANKTRANSFER", "TRY", accounts.bank_transfer_turkey),
    N("TUR", "WALLET", "TRY", accounts.papara, channel="PAPARA"),
    N("URY", "BANKTRANSFER", "UYU", accounts.bank_transfer_uruguay, local_source=False),
    C("GLOBAL", "WALLET", "USD", accounts.wallet, channel="PAYPAL", page_sources=("USD",)),
    C("GLOBAL", "WALLET", "USD", accounts.wallet, channel="SKRILL", page_sources=("USD",)),
    C("GLOBAL", "WALLET", "USD", accounts.wallet, channel="CHECKOUT", full_refunds=True, page_sources=("USD",)),
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


# Other spellings of a corridor's country: the Guatemalan page's "country": "GTQ" (its currency) for GTM.
COUNTRY_ALIASES = {"GTQ": "GTM"}


def route(country: str, method: str, channel: str | None) -> str:
    """The corridor's country of a payout to `country`: GLOBAL for PayPal, the country itself otherwise."""
    if (method, channel) == ("WALLET", "PAYPAL") and country in PAYPAL_COUNTRIES:
        return "GLOBAL"
    return COUNTRY_ALIASES.get(country, country)


# Country -> arrival currency.
COUNTRIES: dict[str, str] = {c.country: c.arrival_currency for c in CORRIDORS}


def methods(country: str, *, page: bool = False) -> tuple[str, ...]:
    """The country's methods (on the checkout page only, with `page`), each once, in registry order."""
    return tuple(dict.fromkeys(c.method for c in CORRIDORS if c.country == country and (c.page_sources or not page)))


def channels(country: str, method: str) -> tuple[str, ...]:
    return tuple(c.channel for c in CORRIDORS if (c.country, c.method) == (country, method) and c.channel)


WALLET_CHANNELS = channels("GLOBAL", "WALLET")


def find(country: str, method: str, channel: str | None = None) -> Corridor | None:
    """The corridor of a payout; without a channel, a wallet's first (the hosted page's quotes)."""
    country = route(country, method, channel)
    of_method = [c for c in CORRIDORS if (c.country, c.method) == (country, method)]
    return next((c for c in of_method if c.channel in (None, channel)), of_method[0] if of_method else None)


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


def _phone(phone: str | None) -> None:
    if phone and not accounts.PHONE.match(phone):
        raise InvalidField("phone", "must be up to 15 digits, + optional, such as 5511987654321")


def _name_length(name: str | None, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if name and not low <= len(name) <= high:
        raise InvalidField("name", f"must be {low} to {high} characters")


def _channel(channel: str | None, wallets: tuple[str, ...]) -> None:
    if accounts.required(channel, "channel") not in wallets:
        raise InvalidField("channel", f"must be one of {', '.join(wallets)}")


def beneficiary(req) -> accounts.Beneficiary:
    """Validate the account fields `req` carries for its country and method."""
    country = route(req.country, req.method, req.channel)
    corridor = find(country, req.method, req.channel)
    if corridor is None:
        raise InvalidField("method", f"{req.method} is not offered in {req.country}")
    accounts.each(_phone, req.phone)
    if req.method != "WALLET":
        accounts.each(accounts.named, req)
    if corridor.name_lengths:
        accounts.each(_name_length, req.name, corridor.name_lengths)
    wallets = channels(country, req.method)
    if wallets:
        accounts.each(_channel, req.channel, wallets)
    return corridor.check(req)


def problems(req) -> list[InvalidField]:
    """Every beneficiary rule `req` breaks, one per field, in the order `beneficiary` (submit) checks them:
    the hosted page answers them all at once."""
    return accounts.collect(beneficiary, req)
