"""How a payment page leads the customer beyond Brazil's and Mexico's own pages: a voucher paid at an outlet, bank
details to transfer to, a QR code to scan, or a hand-off to the bank or wallet where the payment is confirmed."""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask_babel import gettext as _

from ..payins import methods
from ..payins.methods import catalog
from ..payins.models import Trade
from ..payouts import banks as payout_banks
from . import method_names

VOUCHER, BANK, QR, HANDOFF = "voucher", "bank", "qr", "handoff"
# Pages of their own (pay.html's first branches): Brazil's, SPEI's CLABE, OXXO's slip, CoDi's QR and reference.
OWN_PAGES = frozenset({"PIX", "Boleto", "Lottery", "DepositExpress", "SPEI", "CoDi", "OXXO", "OXXOPay"})
# A wallet whose page answers one of these sends the customer to the wallet; one that answers none (PicPay and
# the other wallets from before) opens its app by our app link.
_WAYS_OUT = frozenset({"pay_url", "wallet_url", "app_link_url"})
# Brands where the customer chooses its bank or logs in: the hand-off goes to them, whatever bank was named.
_GATEWAYS = {"Khipu": "Khipu", "PSE": "PSE", "WebPay": "WebPay", "Pago46": "Pago46", "AlipayPlus": "Alipay+"}


def journey(trade: Trade) -> str | None:
    """The trade's journey, from what its method answered (None: a page of its own)."""
    fields = trade.details.get("response", {})
    method = methods.METHODS.get(trade.method or "")
    if method is None or not method.settles_in_sandbox:  # a card, or a checkout with no method yet
        return None
    if trade.method == "Wallet":
        channel = catalog.channel(trade.channel or "", trade.currency)
        documented = set(channel.answer) if channel else set()
        if "qr_code" in documented:
            return QR
        if "reference" in documented:
            return VOUCHER
        return HANDOFF if documented & _WAYS_OUT else None
    if trade.method in OWN_PAGES or fields.get("clabe"):
        return None
    if fields.get("instruction"):
        return BANK
    if fields.get("qr_code"):
        return QR
    if fields.get("reference") or fields.get("barcode"):
        return VOUCHER
    return HANDOFF


def hands_off(trade: Trade) -> bool:
    """Whether the customer confirms this payment at its bank or wallet, which the sandbox plays on a page of its
    own: a hand-off journey, or a wallet opened by our app link (no app to open in the sandbox)."""
    return journey(trade) == HANDOFF or (trade.method == "Wallet" and journey(trade) is None)


def banks_to_choose(trade: Trade) -> dict[str, str]:
    """Where the customer picks its bank at the gateway (PSE: every Colombian bank, by its code), the banks
    offered; empty where the bank is the merchant's choice or the wallet's own."""
    if trade.method == "PSE":
        return dict(sorted(payout_banks.BANKS["COL"].items(), key=lambda item: item[1].casefold()))
    return {}


def virtual_account(trade: Trade) -> bool:
    """Indonesia's bank transfer: its reference is a virtual account number the customer transfers to."""
    return trade.method == "BankTransfer" and trade.currency == "IDR"


def place(trade: Trade, label: str, bank_name: str | None) -> str:
    """Where a voucher is paid, as it reads after "Go to" (the bank the merchant named, else the network's
    outlets, else any participating store or the customer's own bank)."""
    places = {
        "PagoFacil": _("any Pago Fácil outlet"),
        "Rapipago": _("any Rapipago outlet"),
        "Baloto": _("any Baloto point"),
        "Efecty": _("any Efecty point"),
        "PagoEfectivo": _("a PagoEfectivo agent or your bank's app"),
        "BNCR": _("a Banco Nacional de Costa Rica branch or its app"),
    }
    if trade.method == "Wallet" and trade.channel == "FawryPay":
        return _("any Fawry outlet or the myFawry app")
    if virtual_account(trade):
        return _("your bank's app, internet banking or an ATM")
    if trade.method in places:
        return places[trade.method]
    if bank_name:
        return bank_name
    return {"Cash": _("a participating store"), "BankTransfer": _("your bank")}.get(trade.method, label)


def listed_bank_name(trade: Trade) -> str | None:
    """The name of the bank the merchant named (its id where the bank list no longer has it)."""
    bank = trade.details.get("bank")
    if not bank:
        return None
    listed = catalog.bank(trade.method, bank)
    return listed.name if listed else bank


def handed_to(trade: Trade) -> str | None:
    """The bank or wallet by its own name (not translated: it is said in callbacks too), if the trade names one."""
    if trade.method == "Wallet":
        return method_names.WALLET_NAMES.get(trade.channel or "", trade.channel)
    return _GATEWAYS.get(trade.method) or listed_bank_name(trade)


def destination(trade: Trade, label: str) -> str:
    """The bank or wallet a hand-off page sends the customer to, as the page names it."""
    named = handed_to(trade)
    if named:
        return named
    return {"BankTransfer": _("your bank"), "Cash": _("the cash payment network")}.get(trade.method, label)


@dataclass(frozen=True)
class BankDetails:
    """The account of a bank transfer page's `instruction`, as the customer types it into its bank's app."""

    bank: str
    account: str
    account_type: str
    document_type: str
    document: str
    name: str
    reference: str


def bank_details(trade: Trade) -> BankDetails | None:
    """The beneficiary the trade's `instruction` names (None where it answered none)."""
    text = trade.details.get("response", {}).get("instruction")
    if not text:
        return None
    given = json.loads(text)
    beneficiary = given.get("beneficiary", {})
    bank = beneficiary.get("bank", {})
    account = bank.get("account", {})
    document = beneficiary.get("document", {})
    kinds = {"C": _("Checking account"), "CHECKING": _("Checking account")}
    kinds |= {"S": _("Savings account"), "SAVINGS": _("Savings account")}
    kind = str(account.get("type", ""))
    return BankDetails(
        bank=bank.get("name", ""),
        account=account.get("number", ""),
        account_type=kinds.get(kind.upper(), kind),
        document_type=document.get("type", ""),
        document=document.get("id", ""),
        name=beneficiary.get("name", ""),
        reference=given.get("referenceCode", ""),
    )


def voucher_note(trade: Trade, label: str, bank_name: str | None) -> str:
    """What a printed voucher of these methods says under its bar code."""
    return _(
        "Pay at %(place)s with this reference or bar code, the exact amount, before the deadline.",
        place=place(trade, label, bank_name),
    )
