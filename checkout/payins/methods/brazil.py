"""Brazil's direct-payment methods: PIX, Boleto, Lottery and DepositExpress answers, and who collects them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from ... import clock, money
from ...brazil import boleto, brcode
from ...brazil.documents import brazilian_document
from ...errors import InvalidField
from ...links import Links
from ..models import Trade
from ..schemas import DirectPayment
from . import catalog


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


def brazilian_customer(req: DirectPayment) -> None:
    identify = req.customer.identify
    if identify.type not in ("CPF", "CNPJ"):
        raise InvalidField("customer.identify.type", f"must be CPF or CNPJ for {req.method}")
    if not brazilian_document(identify.type, identify.number):
        raise InvalidField("customer.identify.number", f"must be a valid {identify.type} (digits only)")


def _pay_url(trade: Trade, links: Links) -> str:
    return links.pay_page(trade.trade_no)


def pix(trade: Trade, links: Links, collector: Collector) -> dict:
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


def boleto_answer(trade: Trade, links: Links, collector: Collector) -> dict:
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


def lottery(trade: Trade, links: Links, collector: Collector) -> dict:
    # Lotéricas take Caixa's (bank 104) collection slips: a free field of beneficiary code, our-number (the
    # trade's id) and collection type. The provider's Lottery page answers the 47-digit line as `barcode`.
    free_field = f"{1089341:07d}{trade.id % 10**16:016d}14"
    code = boleto.barcode(bank="104", due=_due_date(trade), amount_minor=trade.amount_minor, free_field=free_field)
    return {
        "barcode": boleto.linha_digitavel(code),
        "bank_no": f"{trade.id % 10**8:08d}",
        "pay_url": _pay_url(trade, links),
    }


def deposit_express(trade: Trade, links: Links, collector: Collector) -> dict:
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
