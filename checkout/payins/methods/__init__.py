"""Direct-payment methods: what each one checks in a request and what it hands back to the merchant."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ... import money
from ...brazil import qrimage
from ...errors import InvalidField, MissingField
from ...links import Links
from ..commands import DirectPayment
from ..models import Trade
from . import answers, brazil, catalog, countries
from .brazil import Collector, collector

__all__ = ["BRAZIL_METHODS", "METHODS", "Collector", "Method", "collector", "lookup"]

BRAZIL_METHODS = ("PIX", "Boleto", "Lottery", "DepositExpress")


def _currency(req: DirectPayment, allowed: tuple[str, ...] | list[str]) -> None:
    if req.order_currency not in allowed:
        raise InvalidField("order_currency", f"must be {' or '.join(allowed)} for {req.method}")


def _listed_bank(req: DirectPayment) -> catalog.Bank:
    if not req.bank:
        raise MissingField("bank")
    assert req.method is not None  # lookup() refuses a request without one
    bank = catalog.bank(req.method, req.bank)
    # The currency's own banks where it has some (each country's page has its table), else the method's.
    own = banks_for(req.method, req.order_currency)
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
    "CreditCard": ("0.5", "50000"),  # in BRL only: the Brazil card page's; other currencies name none
}


def _check_brazil(req: DirectPayment) -> dict:
    _currency(req, ("BRL",))
    brazil.brazilian_customer(req)
    assert req.method is not None  # lookup() refuses a request without one
    minimum, maximum = BRAZIL_LIMITS[req.method]
    countries.check_amount(req.order_amount, "BRL", req.method, minimum, maximum, integer=False)
    return {}


def _check_deposit_express(req: DirectPayment) -> dict:
    _check_brazil(req)
    return {"bank": _listed_bank(req).bank_id}


def _check_wallet(req: DirectPayment) -> dict:
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


def _check_alipay_plus(req: DirectPayment) -> dict:
    """AlipayPlus (the Philippines): its own method, whose page fixes `channel` to its name as well."""
    if req.channel and req.channel.casefold() != "alipayplus":
        raise InvalidField("channel", "must be AlipayPlus for AlipayPlus")
    _currency(req, ("PHP",))
    countries.check_amount(req.order_amount, "PHP", "AlipayPlus", "1", "50000", integer=False)
    return {"channel": "AlipayPlus"}


def _wallet_account(req: DirectPayment) -> None:
    """Todito's page: the payer's wallet account_number (10 to 18 digits) and its 4-digit verification code."""
    for name, low, high in (("account_number", 10, 18), ("account_verification_code", 4, 4)):
        value = getattr(req, name)
        if not value:
            raise MissingField(name)
        if not (value.isascii() and value.isdigit() and low <= len(value) <= high):
            raise InvalidField(name, f"must be {low} digits" if low == high else f"must be {low} to {high} digits")


def _check_local(req: DirectPayment) -> dict:
    """A method of the provider's country pages: its currency picks the page (the customer's document where
    several countries pay in it), whose rules apply. Cash, BankTransfer and Khipu with a `bank` from the bank
    list keep the bank's own rules, and the page's."""
    assert req.method is not None  # lookup() refuses a request without one
    v = countries.choose(req)
    listed = req.method in catalog.BANKS
    if req.bank and listed:
        bank = _listed_bank(req)
        if v is not None and v.bank:  # the page requires a listed bank: all its rules too
            countries.check(req, v)
        elif v is not None:  # Cash, BankTransfer: the amount limits of the currency's page
            countries.check_amount(req.order_amount, v.currency, v.method, v.minimum, v.maximum, v.integer)
        if v is not None and v.language_code and not req.language_code:
            raise MissingField("language_code")
        account = countries.check_account(req, v, bank.bank_id) if v is not None and v.bank else {}
        return {"bank": bank.bank_id, "language_code": req.language_code, **account}
    if v is None:
        if banks_for(req.method, req.order_currency):
            raise MissingField("bank")
        _currency(req, sorted(currencies(req.method)))
    assert v is not None  # _currency() refuses any other
    if v.bank:
        raise MissingField("bank")
    countries.check(req, v)
    return {}


# The card pages' currencies beyond ours from before, and their ranges (Bahrain, Kuwait, Oman, Qatar, Saudi Arabia,
# the UAE: 0.5 to 50,000; Russia, in the payment-method summary: 1 to 250,000).
CARD_LIMITS = {
    "BRL": BRAZIL_LIMITS["CreditCard"],
    **dict.fromkeys(("BHD", "KWD", "OMR", "QAR", "SAR", "AED"), ("0.5", "50000")),
    "RUB": ("1", "250000"),
}
CARD_CURRENCIES = ("BRL", "USD", "EUR", "GBP", "MXN", "CLP", "COP", "PEN", *list(CARD_LIMITS)[1:])


def card_currency(currency: str) -> None:
    """A card is charged only in the currencies a card page (or the payment-method summary) names."""
    if currency not in CARD_CURRENCIES:
        raise InvalidField("order_currency", f"must be one of {', '.join(CARD_CURRENCIES)} for a card")


def _check_card(req: DirectPayment) -> dict:
    for name in ("token", "fingerprint", "issuer", "user_ip"):
        if getattr(req, name) is None:
            raise MissingField(name)
    card_currency(req.order_currency)
    if req.order_currency in CARD_LIMITS:
        minimum, maximum = CARD_LIMITS[req.order_currency]
        countries.check_amount(req.order_amount, req.order_currency, "CreditCard", minimum, maximum, integer=False)
    return {
        "issuer": req.issuer,
        "installments": req.installments,
        "user_ip": req.user_ip,
        "fingerprint": req.fingerprint,
    }


# --- what each method answers ----------------------------------------------------------------------


def _wallet(trade: Trade, links: Links, collector: Collector) -> dict:
    assert trade.channel is not None  # _check_wallet requires one
    channel = catalog.channel(trade.channel, trade.currency) or catalog.channel(trade.channel)
    documented = {name: answers.field(name, trade, links) for name in (channel.answer if channel else ())}
    if "app_link_url" in documented:  # QIWI's is its payment form's address: ours is our wallet page
        documented["app_link_url"] = links.wallet_page(trade.trade_no)
    ours = {
        "wallet_url": links.wallet_page(trade.trade_no),
        "app_link_url": answers.field("app_link_url", trade, links),
    }
    return {**documented, **{name: value for name, value in ours.items() if name not in documented}}


def _alipay_plus(trade: Trade, links: Links, collector: Collector) -> dict:
    return {"wallet_url": links.wallet_page(trade.trade_no), "pay_url": links.pay_page(trade.trade_no)}


def _local(trade: Trade, links: Links, collector: Collector) -> dict:
    """The page's answer for the trade's currency; a bank-list payment without one: its page and reference."""
    v = page_of(trade)
    if v is None:
        return {"pay_url": links.pay_page(trade.trade_no), "reference": trade.trade_no[-8:]}
    return answers.present(trade, links, v)


def _nothing(trade: Trade, links: Links, collector: Collector) -> dict:
    return {}


def answer(fields: dict) -> dict:
    """What a direct payment answers: the method's kept fields, and the PIX QR image drawn from its code
    (derived, so not kept with the trade)."""
    if "qr_code" not in fields or "qr_code_img" in fields:
        return fields
    # After the method's fields and before web_url, where the answers have always had it.
    answered = {name: value for name, value in fields.items() if name != "web_url"}
    answered["qr_code_img"] = qrimage.data_uri(fields["qr_code"])
    return answered | ({"web_url": fields["web_url"]} if "web_url" in fields else {})


@dataclass(frozen=True)
class Method:
    name: str
    check: Callable[[DirectPayment], dict]  # sees the request's method as `name` spells it (any case is taken)
    present: Callable[[Trade, Links, Collector], dict]
    # Refunds of these need the customer's identity and bank data (the seed's starred user_info).
    refund_needs_bank_data: bool = True
    settles_in_sandbox: bool = field(default=True)  # paid through /sandbox/trades/<no>/pay
    numbered: bool = False  # its answer embeds the trade's row id, so it is made once the row exists
    channels: tuple[str, ...] = ()  # a method other than Wallet whose page fixes `channel` (AlipayPlus)

    def __post_init__(self) -> None:
        rules = self.check

        def check(req: DirectPayment) -> dict:
            return rules(replace(req, method=self.name))

        object.__setattr__(self, "check", check)


# The provider's country pages' methods beyond Brazil's (countries.VARIANTS has their rules), in its order.
LOCAL_METHODS = (
    "Cash", "BankTransfer", "Khipu", "SPEI", "CoDi", "OXXO", "OXXOPay",
    "PSE", "Efecty", "Bancolombia", "SuRed", "Gana", "Baloto", "WebPay", "Pago46", "PagoEfectivo",
    "PagoFacil", "Rapipago", "BNCR", "OTC", "QRPH",
)  # fmt: skip

METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method("PIX", _check_brazil, brazil.pix, refund_needs_bank_data=False),
        Method("Boleto", _check_brazil, brazil.boleto_answer, numbered=True),  # nosso número: the trade's id
        Method("Lottery", _check_brazil, brazil.lottery, numbered=True),  # its our-number and bank_no: the trade's id
        Method("DepositExpress", _check_deposit_express, brazil.deposit_express),
        Method("OpenFinance", _check_local, _local),
        Method("Wallet", _check_wallet, _wallet, refund_needs_bank_data=False),
        # SPEI refunds go back to the paying CLABE (the interface: no user_info for SPEI).
        *(Method(name, _check_local, _local, refund_needs_bank_data=name != "SPEI") for name in LOCAL_METHODS),
        Method("AlipayPlus", _check_alipay_plus, _alipay_plus, refund_needs_bank_data=False, channels=("AlipayPlus",)),
        Method("CreditCard", _check_card, _nothing, refund_needs_bank_data=False, settles_in_sandbox=False),
    )
}
_BY_FOLDED = {name.casefold(): name for name in METHODS} | countries.ALIASES


def lookup(name: str | None, channel: str | None = None) -> Method:
    if name is None:
        raise MissingField("method")
    method = METHODS.get(_BY_FOLDED.get(name.casefold(), name))
    if method is None:
        raise InvalidField("method", f"must be one of {', '.join(METHODS)}")
    if channel and method.name != "Wallet" and not method.channels:
        raise InvalidField("channel", "only with method Wallet")
    return method


def page_of(trade: Trade) -> countries.Variant | None:
    """The country page a trade followed: by its method and currency, and its customer's document where the
    currency is several countries'."""
    identify = (trade.details.get("customer") or {}).get("identify") or {}
    return countries.variant(trade.method, trade.currency, identify.get("type"))


def refund_needs_bank_data(trade: Trade) -> bool:
    if trade.method == "BankTransfer" and trade.details.get("bank") == "spei":
        return False  # SPEI refunds go back to the paying CLABE
    method = METHODS.get(trade.method)
    return method.refund_needs_bank_data if method else False


def currencies(name: str) -> frozenset[str]:
    """The order currencies a method takes (its checks say the same; the hosted checkout offers by this)."""
    if name in BRAZIL_METHODS:
        return frozenset({"BRL"})
    if name == "Wallet":
        return frozenset(c.currency for c in catalog.CHANNELS)
    if name == "AlipayPlus":
        return frozenset({"PHP"})
    if name == "CreditCard":
        return frozenset(CARD_CURRENCIES)
    if name in METHODS:
        listed = {bank.currency for bank in catalog.BANKS.get(name, ())}
        return frozenset(listed | {v.currency for v in countries.variants(name)})
    return frozenset()


def for_currency(currency: str) -> list[str]:
    """The methods a customer may choose for an order in `currency`, in the catalogue's order. A method that
    several countries' pages take in it (Cash and BankTransfer in USD) is left out: the order names no country."""
    return [name for name in METHODS if currency in currencies(name) and not countries.ambiguous(name, currency)]


def channels_for(currency: str) -> list[str]:
    return [c.name for c in catalog.CHANNELS if c.currency == currency]


def banks_for(name: str, currency: str) -> list[catalog.Bank]:
    return [bank for bank in catalog.BANKS.get(name, ()) if bank.currency == currency]


def needs_bank(name: str, currency: str) -> bool:
    """Whether a payment of this method in this currency must name a bank (the hosted checkout asks one)."""
    v = countries.variant(name, currency)
    return (v is None or v.bank) and bool(banks_for(name, currency))


def documents(name: str, currency: str) -> tuple[str, ...]:
    """The identity documents the method's page takes in this currency (none: not checked)."""
    v = countries.variant(name, currency)
    return tuple(kind for kind in v.documents if kind not in ("RUT/RUN", "CD")) if v is not None else ()


def payer_account(name: str, currency: str) -> tuple[str, ...] | None:
    """The account types of the payer's own bank account the page asks for (() when it asks no type; None when
    it asks no account): what the hosted checkout's form asks."""
    v = countries.variant(name, currency)
    if v is None or v.account is None or not v.account.required:
        return None
    return tuple(kind for kind in v.account.types if len(kind) > 1) or v.account.types


def bank_language(name: str, bank_id: str | None) -> str | None:
    """The first language of a listed bank (what a page that asks none sends as `language_code`)."""
    bank = catalog.bank(name, bank_id) if bank_id else None
    return bank.language_codes[0] if bank else None
