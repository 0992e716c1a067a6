"""Direct-payment methods: what each one checks in a request and what it hands back to the merchant."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from ... import clock, money
from ...brazil import boleto, brcode, qrimage
from ...brazil.documents import brazilian_document
from ...errors import InvalidField, MissingField
from ...links import Links
from ..commands import DirectPayment
from ..models import Trade
from . import catalog

BRAZIL_METHODS = ("PIX", "Boleto", "Lottery", "DepositExpress")


@dataclass(frozen=True)
class Collector:
    """Who the customer pays in the sandbox: printed in BR Codes and deposit instructions."""

    name: str
    city: str
    cnpj: str
    pix_key: str
    boleto_due_days: int


def collector(config: Mapping[str, Any]) -> Collector:
    """The sandbox collector the configuration names."""
    return Collector(
        name=config["COLLECTOR_NAME"],
        city=config["COLLECTOR_CITY"],
        cnpj=config["COLLECTOR_CNPJ"],
        pix_key=config["COLLECTOR_PIX_KEY"],
        boleto_due_days=config["BOLETO_DUE_DAYS"],
    )


def _brazilian_customer(req: DirectPayment) -> None:
    identify = req.customer.identify
    if identify.type not in ("CPF", "CNPJ"):
        raise InvalidField("customer.identify.type", f"must be CPF or CNPJ for {req.method}")
    if not brazilian_document(identify.type, identify.number):
        raise InvalidField("customer.identify.number", f"must be a valid {identify.type} (digits only)")


def _currency(req: DirectPayment, allowed: tuple[str, ...]) -> None:
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


def _check_brazil(req: DirectPayment) -> dict:
    _currency(req, ("BRL",))
    _brazilian_customer(req)
    return {}


def _check_deposit_express(req: DirectPayment) -> dict:
    _check_brazil(req)
    return {"bank": _listed_bank(req).bank_id}


def _check_wallet(req: DirectPayment) -> dict:
    if not req.channel:
        raise MissingField("channel")
    if req.channel not in catalog.WALLET_CHANNELS:
        raise InvalidField("channel", f"must be one of {', '.join(catalog.WALLET_CHANNELS)}")
    _currency(req, catalog.WALLET_CHANNELS[req.channel])
    return {"channel": req.channel}


def _check_listed_bank(req: DirectPayment) -> dict:
    return {"bank": _listed_bank(req).bank_id, "language_code": req.language_code}


def _check_card(req: DirectPayment) -> dict:
    for name in ("token", "fingerprint", "issuer", "user_ip"):
        if getattr(req, name) is None:
            raise MissingField(name)
    return {
        "issuer": req.issuer,
        "installments": req.installments,
        "user_ip": req.user_ip,
        "fingerprint": req.fingerprint,
    }


# --- what each method answers ----------------------------------------------------------------------


def _pay_url(trade: Trade, links: Links) -> str:
    return links.pay_page(trade.trade_no)


def _pix(trade: Trade, links: Links, collector: Collector) -> dict:
    code = brcode.build(
        key=collector.pix_key,
        amount=money.from_minor(trade.amount_minor, "BRL"),
        merchant_name=collector.name,
        merchant_city=collector.city,
        txid=trade.trade_no,
    )
    return {"pay_url": _pay_url(trade, links), "qr_code": code, "qr_code_url": links.qr_image(trade.trade_no)}


def _due_date(trade: Trade) -> date:
    """The last Brazil day the trade is open (an expiry at midnight belongs to the day before)."""
    assert trade.expires_at is not None  # direct trades always expire
    return (clock.as_utc(trade.expires_at).astimezone(clock.BRAZIL) - timedelta(microseconds=1)).date()


def _boleto(trade: Trade, links: Links, collector: Collector) -> dict:
    due = _due_date(trade)
    # Banco do Brasil layout of the free field: six zeros, 7-digit agreement, 10-digit our-number, wallet 17.
    free_field = f"000000{2871953:07d}{trade.id % 10**10:010d}17"
    code = boleto.barcode(bank="001", due=due, amount_minor=trade.amount_minor, free_field=free_field)
    return {
        "barcode": code,
        "bank_code": boleto.linha_digitavel(code),
        "pay_url": _pay_url(trade, links),
        "due_date": due.isoformat(),
    }


def _lottery(trade: Trade, links: Links, collector: Collector) -> dict:
    # Lotéricas take Caixa's (bank 104) collection slips: a free field of beneficiary code, our-number (the
    # trade's id) and collection type. The provider's Lottery page answers the 47-digit line as `barcode`.
    free_field = f"{1089341:07d}{trade.id % 10**16:016d}14"
    code = boleto.barcode(bank="104", due=_due_date(trade), amount_minor=trade.amount_minor, free_field=free_field)
    return {
        "barcode": boleto.linha_digitavel(code),
        "bank_no": f"{trade.id % 10**8:08d}",
        "pay_url": _pay_url(trade, links),
    }


def _deposit_express(trade: Trade, links: Links, collector: Collector) -> dict:
    bank = catalog.bank("DepositExpress", trade.details["bank"])
    assert bank is not None  # checked against the catalogue when the trade was made
    return {
        "web_url": _pay_url(trade, links),  # the provider's DepositExpress answers its page as both
        "pay_url": _pay_url(trade, links),
        "provider_owner": collector.name,
        "provider_owner_document": collector.cnpj,
        "provider_agency": bank.agency,
        "provider_number": bank.account,
        "bank_name": bank.name,
    }


def _wallet(trade: Trade, links: Links, collector: Collector) -> dict:
    assert trade.channel is not None  # _check_wallet requires one
    return {
        "wallet_url": links.wallet_page(trade.trade_no),
        "app_link_url": f"checkout-sandbox://wallet/{trade.channel.lower()}/pay?trade_no={trade.trade_no}",
    }


def _web(trade: Trade, links: Links, collector: Collector) -> dict:
    return {"web_url": _pay_url(trade, links)}


def _nothing(trade: Trade, links: Links, collector: Collector) -> dict:
    return {}


def answer(fields: dict) -> dict:
    """What a direct payment answers: the method's kept fields, and the PIX QR image drawn from its code
    (derived, so not kept with the trade)."""
    if "qr_code" in fields:
        return {**fields, "qr_code_img": qrimage.data_uri(fields["qr_code"])}
    return fields


@dataclass(frozen=True)
class Method:
    name: str
    check: Callable[[DirectPayment], dict]
    present: Callable[[Trade, Links, Collector], dict]
    # Refunds of these need the customer's identity and bank data (the seed's starred user_info).
    refund_needs_bank_data: bool = True
    settles_in_sandbox: bool = field(default=True)  # paid through /sandbox/trades/<no>/pay
    numbered: bool = False  # its answer embeds the trade's row id, so it is made once the row exists


METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method("PIX", _check_brazil, _pix, refund_needs_bank_data=False),
        Method("Boleto", _check_brazil, _boleto, numbered=True),  # nosso número: the trade's id
        Method("Lottery", _check_brazil, _lottery, numbered=True),  # its our-number and bank_no: the trade's id
        Method("DepositExpress", _check_deposit_express, _deposit_express),
        Method("Wallet", _check_wallet, _wallet, refund_needs_bank_data=False),
        Method("Cash", _check_listed_bank, _web),
        Method("BankTransfer", _check_listed_bank, _web),
        Method("Khipu", _check_listed_bank, _web),
        Method("CreditCard", _check_card, _nothing, refund_needs_bank_data=False, settles_in_sandbox=False),
    )
}


def lookup(name: str | None, channel: str | None = None) -> Method:
    if name is None:
        raise MissingField("method")
    method = METHODS.get(name)
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
    if name in catalog.BANKS:
        return frozenset(bank.currency for bank in catalog.BANKS[name])
    return frozenset(money.CURRENCIES)  # CreditCard


def for_currency(currency: str) -> list[str]:
    """The methods a customer may choose for an order in `currency`, in the catalogue's order."""
    return [name for name in METHODS if currency in currencies(name)]


def channels_for(currency: str) -> list[str]:
    return [channel for channel, allowed in catalog.WALLET_CHANNELS.items() if currency in allowed]


def banks_for(name: str, currency: str) -> list[catalog.Bank]:
    return [bank for bank in catalog.BANKS.get(name, ()) if bank.currency == currency]
