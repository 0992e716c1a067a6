"""What each direct-payment method checks in a request: its currency, amount range, documents, bank and account,
as its provider page states them; what a check returns is kept with the trade."""

from __future__ import annotations

from ... import money
from ...errors import InvalidField, MissingField, missing_fields
from ..schemas import CARD_REQUIRED, DirectPayment
from . import brazil, cards, catalog, countries


def _currency(req: DirectPayment, allowed: tuple[str, ...] | list[str]) -> None:
    if req.order_currency not in allowed:
        raise InvalidField("order_currency", f"must be {' or '.join(allowed)} for {req.method}")


def _listed_bank(req: DirectPayment) -> catalog.Bank:
    if not req.bank:
        raise MissingField("bank")
    assert req.method is not None  # lookup() refuses a request without one
    bank = catalog.bank(req.method, req.bank)
    # The currency's own banks where it has some (each country's page has its table), else the method's.
    own = catalog.banks(req.method, req.order_currency)
    if bank is None or (own and bank not in own):
        ids = ", ".join(b.bank_id for b in own or catalog.BANKS[req.method])
        several = len({b.currency for b in catalog.BANKS[req.method]}) > 1
        where = f"{req.method} in {req.order_currency}" if own and several else req.method
        raise InvalidField("bank", f"must be one of {ids} for {where}")
    _currency(req, (bank.currency,))
    if bank.min_minor is not None:
        try:
            minor = money.to_minor(req.order_amount, bank.currency)
        except money.MoneyError as exc:
            raise InvalidField("order_amount", str(exc)) from None
        if minor < bank.min_minor:
            minimum = money.format_minor(bank.min_minor, bank.currency)
            raise InvalidField("order_amount", f"must be at least {minimum} {bank.currency} for {bank.bank_id}")
    if req.language_code and req.language_code.lower() not in bank.language_codes:
        raise InvalidField("language_code", f"must be one of {', '.join(bank.language_codes)} for {bank.bank_id}")
    return bank


# The Brazil pages' amount ranges in BRL (PIX's page names none: the payment-method summary's).
BRAZIL_LIMITS = {
    "PIX": ("0.1", "50000"),
    "Boleto": ("5", "15000"),
    "Lottery": ("4", "2000"),
    "DepositExpress": ("1", "50000"),
}


# The AlipayPlus page's range in PHP.
ALIPAY_PLUS_LIMITS = ("1", "50000")


def local_currencies(method: str) -> frozenset[str]:
    """The currencies a country page's method takes: its pages' and its listed banks'."""
    listed = {bank.currency for bank in catalog.BANKS.get(method, ())}
    return frozenset(listed | {page.currency for page in countries.variants(method)})


def check_brazil(req: DirectPayment) -> dict:
    _currency(req, ("BRL",))
    brazil.brazilian_customer(req)
    assert req.method is not None  # lookup() refuses a request without one
    minimum, maximum = BRAZIL_LIMITS[req.method]
    countries.check_amount(req.order_amount, "BRL", req.method, minimum, maximum, integer=False)
    return {}


def check_deposit_express(req: DirectPayment) -> dict:
    check_brazil(req)
    return {"bank": _listed_bank(req).bank_id}


def check_wallet(req: DirectPayment) -> dict:
    if not req.channel:
        raise MissingField("channel")
    named = catalog.channel(req.channel)
    if named is None:
        raise InvalidField("channel", f"must be one of {', '.join(catalog.WALLET_CHANNELS)}")
    channel = catalog.channel(req.channel, req.order_currency)
    if channel is None:
        _currency(req, catalog.WALLET_CHANNELS[named.name])
    assert channel is not None  # _currency() refuses any other
    countries.check_amount(
        req.order_amount, req.order_currency, channel.name, channel.minimum, channel.maximum, channel.integer
    )
    if channel.account:
        _wallet_account(req)
    if channel.bank:
        if not req.bank:
            raise MissingField("bank")
        if req.bank.casefold() != channel.bank.casefold():
            raise InvalidField("bank", f"must be {channel.bank} for {channel.name}")
    return {"channel": channel.name}


def check_alipay_plus(req: DirectPayment) -> dict:
    """AlipayPlus (the Philippines): its own method, whose page fixes `channel` to its name as well."""
    if req.channel and req.channel.casefold() != "alipayplus":
        raise InvalidField("channel", "must be AlipayPlus for AlipayPlus")
    _currency(req, ("PHP",))
    countries.check_amount(req.order_amount, "PHP", "AlipayPlus", *ALIPAY_PLUS_LIMITS, integer=False)
    return {"channel": "AlipayPlus"}


def _wallet_account(req: DirectPayment) -> None:
    """Todito's page: the payer's wallet account_number (10 to 18 digits) and its 4-digit verification code."""
    for name, low, high in (("account_number", 10, 18), ("account_verification_code", 4, 4)):
        value = getattr(req, name)
        if not value:
            raise MissingField(name)
        if not (value.isascii() and value.isdigit() and low <= len(value) <= high):
            raise InvalidField(name, f"must be {low} digits" if low == high else f"must be {low} to {high} digits")


def check_local(req: DirectPayment) -> dict:
    """A method of the provider's country pages: its currency picks the page (the customer's document where
    several countries pay in it), whose rules apply. Cash, BankTransfer and Khipu with a `bank` from the bank
    list keep the bank's own rules, and the page's."""
    assert req.method is not None  # lookup() refuses a request without one
    listed = req.method in catalog.BANKS
    if req.bank and listed:
        bank = _listed_bank(req)
        # The bank's country picks the page (El Salvador's cash outlets are not Ecuador's or Panama's).
        found = countries.variants(req.method, req.order_currency)
        v = next((page for page in found if page.country == bank.country), None)
        if v is not None and v.bank:  # the page requires a listed bank: all its rules too
            countries.check(req, v)
        elif v is not None:  # Cash, BankTransfer: the amount limits of the currency's page
            countries.check_amount(req.order_amount, v.currency, v.method, v.minimum, v.maximum, v.integer)
        if v is not None and v.language_code and not req.language_code:
            raise MissingField("language_code")
        account = countries.check_account(req, v, bank.bank_id) if v is not None and v.bank else {}
        return {"bank": bank.bank_id, "language_code": req.language_code, **account}
    v = countries.choose(req)
    if v is None:
        if catalog.banks(req.method, req.order_currency):
            raise MissingField("bank")
        _currency(req, sorted(local_currencies(req.method)))
    assert v is not None  # _currency() refuses any other
    if v.bank:
        raise MissingField("bank")
    countries.check(req, v)
    return {}


def check_card(req: DirectPayment) -> dict:
    absent = [name for name in CARD_REQUIRED if getattr(req, name) is None]
    if absent:
        raise missing_fields(absent)
    cards.check(req.order_amount, req.order_currency)
    return {
        "issuer": req.issuer,
        "installments": req.installments,
        "user_ip": req.user_ip,
        "fingerprint": req.fingerprint,
    }
