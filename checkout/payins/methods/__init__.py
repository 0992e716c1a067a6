"""Direct-payment methods: what each one checks in a request and what it hands back to the merchant."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from ...brazil import qrimage
from ...errors import InvalidField, MissingField
from ...links import Links
from ..models import Trade
from ..schemas import DirectPayment
from . import answers, brazil, cards, catalog, countries
from .brazil import Collector, collector
from .checks import (
    ALIPAY_PLUS_LIMITS,
    BRAZIL_LIMITS,
    check_alipay_plus,
    check_brazil,
    check_card,
    check_deposit_express,
    check_local,
    check_wallet,
    local_currencies,
)

__all__ = ["BRAZIL_METHODS", "METHODS", "Collector", "Method", "collector", "lookup"]

BRAZIL_METHODS = ("PIX", "Boleto", "Lottery", "DepositExpress")


# --- what each method answers ----------------------------------------------------------------------


def _wallet(trade: Trade, links: Links, collector: Collector) -> dict:
    assert trade.channel is not None  # check_wallet requires one
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
            return rules(req.model_copy(update={"method": self.name}))

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
        Method("PIX", check_brazil, brazil.pix, refund_needs_bank_data=False),
        Method("Boleto", check_brazil, brazil.boleto_answer, numbered=True),  # nosso número: the trade's id
        Method("Lottery", check_brazil, brazil.lottery, numbered=True),  # its our-number and bank_no: the trade's id
        Method("DepositExpress", check_deposit_express, brazil.deposit_express),
        Method("OpenFinance", check_local, _local),
        Method("Wallet", check_wallet, _wallet, refund_needs_bank_data=False),
        # SPEI refunds go back to the paying CLABE (the interface: no user_info for SPEI).
        *(Method(name, check_local, _local, refund_needs_bank_data=name != "SPEI") for name in LOCAL_METHODS),
        Method("AlipayPlus", check_alipay_plus, _alipay_plus, refund_needs_bank_data=False, channels=("AlipayPlus",)),
        Method("CreditCard", check_card, _nothing, refund_needs_bank_data=False, settles_in_sandbox=False),
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
        return frozenset(cards.CURRENCIES)
    return local_currencies(name) if name in METHODS else frozenset()


def takes(name: str, currency: str, amount: Decimal) -> bool:
    """Whether a method's pages take `amount` in `currency` (a wallet: any of its channels there; a method paid at
    a listed bank without a page in that currency: any amount)."""
    if name in BRAZIL_LIMITS:
        return countries.within(amount, *BRAZIL_LIMITS[name])
    if name == "Wallet":
        return any(
            countries.within(amount, c.minimum, c.maximum, c.integer)
            for c in catalog.CHANNELS
            if c.currency == currency
        )
    if name == "AlipayPlus":
        return countries.within(amount, *ALIPAY_PLUS_LIMITS)
    if name == "CreditCard":
        return cards.takes(amount, currency)
    pages = countries.variants(name, currency)
    return not pages or any(countries.within(amount, v.minimum, v.maximum, v.integer) for v in pages)


def for_currency(currency: str, amount: Decimal | None = None) -> list[str]:
    """The methods a customer may choose for an order in `currency` (of `amount`, where given), in the catalogue's
    order. A method that several countries' pages take in it (Cash and BankTransfer in USD) is left out: the order
    names no country."""
    return [
        name
        for name in METHODS
        if currency in currencies(name)
        and not countries.ambiguous(name, currency)
        and (amount is None or takes(name, currency, amount))
    ]


def channels_for(currency: str, amount: Decimal | None = None) -> list[str]:
    """The wallet channels of `currency` (that take `amount`, where given)."""
    return [
        c.name
        for c in catalog.CHANNELS
        if c.currency == currency and (amount is None or countries.within(amount, c.minimum, c.maximum, c.integer))
    ]


def banks_for(name: str, currency: str) -> list[catalog.Bank]:
    return catalog.banks(name, currency)


def needs_bank(name: str, currency: str) -> bool:
    """Whether a payment of this method in this currency must name a bank (the hosted checkout asks one)."""
    v = countries.variant(name, currency)
    return (v is None or v.bank) and bool(banks_for(name, currency))


def documents(name: str, currency: str) -> dict[str, str]:
    """The identity documents the method's page takes in this currency, each with its form (a regex; empty for
    Brazil's, checked by their digits); none: not checked."""
    v = countries.variant(name, currency)
    if v is None:
        return {}
    return {kind: v.document_form(kind) for kind in v.documents if kind not in ("RUT/RUN", "CD")}


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
