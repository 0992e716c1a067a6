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
from . import brazil, catalog, latam
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
    if bank is None:
        ids = ", ".join(b.bank_id for b in catalog.BANKS[req.method])
        raise InvalidField("bank", f"must be one of {ids} for {req.method}")
    _currency(req, (bank.currency,))
    if bank.min_minor is not None:
        try:
            minor = money.to_minor(req.order_amount, bank.currency)
        except money.MoneyError as exc:
            raise InvalidField("order_amount", str(exc)) from None
        if minor < bank.min_minor:
            minimum = money.format_minor(bank.min_minor, bank.currency)
            raise InvalidField("order_amount", f"must be at least {minimum} {bank.currency} for {bank.bank_id}")
    if req.language_code and req.language_code not in bank.language_codes:
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
    latam.check_amount(req.order_amount, "BRL", req.method, minimum, maximum, integer=False)
    return {}


def _check_deposit_express(req: DirectPayment) -> dict:
    _check_brazil(req)
    return {"bank": _listed_bank(req).bank_id}


def _check_wallet(req: DirectPayment) -> dict:
    if not req.channel:
        raise MissingField("channel")
    channel = catalog.channel(req.channel)
    if channel is None:
        raise InvalidField("channel", f"must be one of {', '.join(catalog.WALLET_CHANNELS)}")
    _currency(req, channel.currencies)
    latam.check_amount(
        req.order_amount, req.order_currency, channel.name, channel.minimum, channel.maximum, channel.integer
    )
    if channel.account:
        _wallet_account(req)
    return {"channel": channel.name}


def _wallet_account(req: DirectPayment) -> None:
    """Todito's page: the payer's wallet account_number (10 to 18 digits) and its 4-digit verification code."""
    for name, low, high in (("account_number", 10, 18), ("account_verification_code", 4, 4)):
        value = getattr(req, name)
        if not value:
            raise MissingField(name)
        if not (value.isascii() and value.isdigit() and low <= len(value) <= high):
            raise InvalidField(name, f"must be {low} digits" if low == high else f"must be {low} to {high} digits")


def _check_local(req: DirectPayment) -> dict:
    """A method of the provider's country pages: its currency picks the page (Cash is three), whose rules
    apply. Cash, BankTransfer and Khipu with a `bank` from the bank list keep the bank's own rules."""
    assert req.method is not None  # lookup() refuses a request without one
    v = latam.variant(req.method, req.order_currency)
    listed = req.method in catalog.BANKS
    if req.bank and listed:
        bank = _listed_bank(req)
        if v is not None and v.bank:  # Khipu, OpenFinance: the page's rules too
            latam.check(req, v)
        elif v is not None:  # Cash, BankTransfer: the amount limits of the currency's page
            latam.check_amount(req.order_amount, v.currency, v.method, v.minimum, v.maximum, v.integer)
        return {"bank": bank.bank_id, "language_code": req.language_code}
    if v is None:
        if listed and any(b.currency == req.order_currency for b in catalog.BANKS[req.method]):
            raise MissingField("bank")
        _currency(req, sorted(currencies(req.method)))
    assert v is not None  # _currency() refuses any other
    if v.bank:
        raise MissingField("bank")
    latam.check(req, v)
    return {}


def _check_card(req: DirectPayment) -> dict:
    for name in ("token", "fingerprint", "issuer", "user_ip"):
        if getattr(req, name) is None:
            raise MissingField(name)
    if req.order_currency == "BRL":
        minimum, maximum = BRAZIL_LIMITS["CreditCard"]
        latam.check_amount(req.order_amount, "BRL", "CreditCard", minimum, maximum, integer=False)
    return {
        "issuer": req.issuer,
        "installments": req.installments,
        "user_ip": req.user_ip,
        "fingerprint": req.fingerprint,
    }


# --- what each method answers ----------------------------------------------------------------------


def _wallet(trade: Trade, links: Links, collector: Collector) -> dict:
    assert trade.channel is not None  # _check_wallet requires one
    channel = catalog.channel(trade.channel)
    documented = {name: latam.field(name, trade, links) for name in (channel.answer if channel else ())}
    return {
        **documented,
        "wallet_url": links.wallet_page(trade.trade_no),
        "app_link_url": f"checkout-sandbox://wallet/{trade.channel.lower()}/pay?trade_no={trade.trade_no}",
    }


def _local(trade: Trade, links: Links, collector: Collector) -> dict:
    """The page's answer for the trade's currency; a bank-list payment without one: its page and reference."""
    v = latam.variant(trade.method, trade.currency)
    if v is None:
        return {"pay_url": links.pay_page(trade.trade_no), "reference": trade.trade_no[-8:]}
    return latam.present(trade, links, v)


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

    def __post_init__(self) -> None:
        rules = self.check

        def check(req: DirectPayment) -> dict:
            return rules(replace(req, method=self.name))

        object.__setattr__(self, "check", check)


# The provider's country pages' methods beyond Brazil's (latam.VARIANTS has their rules), in its order.
LOCAL_METHODS = (
    "Cash", "BankTransfer", "Khipu", "SPEI", "CoDi", "OXXO", "OXXOPay",
    "PSE", "Efecty", "Bancolombia", "SuRed", "Gana", "WebPay", "Pago46",
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
        Method("CreditCard", _check_card, _nothing, refund_needs_bank_data=False, settles_in_sandbox=False),
    )
}
_BY_FOLDED = {name.casefold(): name for name in METHODS} | latam.ALIASES


def lookup(name: str | None, channel: str | None = None) -> Method:
    if name is None:
        raise MissingField("method")
    method = METHODS.get(_BY_FOLDED.get(name.casefold(), name))
    if method is None:
        raise InvalidField("method", f"must be one of {', '.join(METHODS)}")
    if channel and method.name != "Wallet":
        raise InvalidField("channel", "only with method Wallet")
    return method


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
        return frozenset(c for allowed in catalog.WALLET_CHANNELS.values() for c in allowed)
    if name in METHODS and name != "CreditCard":
        listed = {bank.currency for bank in catalog.BANKS.get(name, ())}
        return frozenset(listed | {v.currency for v in latam.variants(name)})
    return frozenset(money.CURRENCIES)  # CreditCard


def for_currency(currency: str) -> list[str]:
    """The methods a customer may choose for an order in `currency`, in the catalogue's order."""
    return [name for name in METHODS if currency in currencies(name)]


def channels_for(currency: str) -> list[str]:
    return [channel for channel, allowed in catalog.WALLET_CHANNELS.items() if currency in allowed]


def banks_for(name: str, currency: str) -> list[catalog.Bank]:
    return [bank for bank in catalog.BANKS.get(name, ()) if bank.currency == currency]


def needs_bank(name: str, currency: str) -> bool:
    """Whether a payment of this method in this currency must name a bank (the hosted checkout asks one)."""
    v = latam.variant(name, currency)
    return (v is None or v.bank) and bool(banks_for(name, currency))


def documents(name: str, currency: str) -> tuple[str, ...]:
    """The identity documents the method's page takes in this currency (none: not checked)."""
    v = latam.variant(name, currency)
    return tuple(kind for kind in v.documents if kind != "RUT/RUN") if v is not None and not v.bank else ()
