"""What the country pages' methods and the wallets answer: each documented field, made from the trade alone."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass

from ... import clock, money
from ...brazil import qrimage
from ...brazil.brcode import crc16
from ...links import Links
from ...mexico import clabe
from ..models import Trade
from .countries import Variant

# The sandbox's SPEI collection account: STP (646), plaza 180; each trade gets its own CLABE.
SPEI_BANK, SPEI_PLAZA = "646", "180"


@dataclass(frozen=True)
class Beneficiary:
    """The sandbox's collection account in a country whose bank transfer page answers `instruction`: where the
    customer transfers to, as the page's example shapes it. `name` is the account holder the customer's bank
    shows: the collector's local entity, in the country's language (every one of these is Spanish-speaking)."""

    bank_code: str
    bank_name: str
    account: str
    account_type: str
    document: str
    document_type: str
    name: str = "Checkout Sandbox Pagos S.A."


BENEFICIARIES = {
    "ARG": Beneficiary("0015", "ICBC Argentina", "0150000000000000003082", "Checking", "30716132028", "CUIT"),
    "BOL": Beneficiary("0039", "Banco Ganadero", "1310825187", "C", "419326025", "NIT"),
    "PRY": Beneficiary("0040", "Banco Itaú Paraguay S.A.", "215559", "C", "80121508-0", "RUC"),
    "PAN": Beneficiary("0079", "Banco LAFISE Panamá", "201020008603", "C", "155714930-2-2021", "RUC"),
    "URY": Beneficiary("0013", "BROU", "110309016-00001", "C", "218730880015", "RUT"),
}

# The code values of the QR wallets (Alipay+ and its partners): the prefix their page's example starts with.
QR_PREFIXES = {"AlipayCN": "281666040", "AlipayHK": "281666040", "KakaoPay": "281666040", "GCash": "201234560"}
QR_DEFAULT_PREFIX = "201111000"  # Thailand's wallets, and any other


def digits(trade: Trade, n: int) -> str:
    """n digits of the trade's number (its last ten are random), left-padded from its timestamp."""
    return trade.trade_no[-n:]


def _codi_code(trade: Trade) -> str:
    """A CoDi message as the provider's example shapes it (JSON text): type 20, device, payment id, data."""
    data = base64.b64encode(f"{trade.trade_no}|{trade.amount_minor}|{trade.currency}".encode()).decode()
    return json.dumps(
        {
            "TYP": 20,
            "v": {"DEV": f"{digits(trade, 20)}/0"},
            "ic": {"IDC": digits(trade, 10), "SER": int(digits(trade, 7)), "ENC": data},
            "CRY": base64.b64encode(hashlib.sha256(data.encode()).digest()).decode(),
        },
        separators=(",", ":"),
    )


def _tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def qrph_code(trade: Trade) -> str:
    """A dynamic QR Ph (EMVCo merchant-presented) code: the P2M network's id, the collecting acquirer and
    merchant, PHP (608) and the amount, the trade's reference, and the CRC-16 every EMV code ends with."""
    account = _tlv("00", "ph.ppmi.p2m") + _tlv("01", "CHKSPHM1XXX") + _tlv("03", f"CHK{digits(trade, 10)}")
    body = (
        _tlv("00", "01")
        + _tlv("01", "12")
        + _tlv("27", account)
        + _tlv("52", "5999")
        + _tlv("53", "608")
        + _tlv("54", money.format_minor(trade.amount_minor, trade.currency))
        + _tlv("58", "PH")
        + _tlv("59", "CHECKOUT SANDBOX")
        + _tlv("60", "MANILA")
        + _tlv("62", _tlv("05", digits(trade, 10)))
        + "6304"
    )
    return body + f"{crc16(body.encode()):04X}"


def wallet_code(trade: Trade) -> str:
    """A QR wallet's code value: its network's prefix, then 27 characters drawn from the trade's number."""
    assert trade.channel is not None  # a wallet trade has its channel
    prefix = QR_PREFIXES.get(trade.channel, QR_DEFAULT_PREFIX)
    tail = base64.b32encode(hashlib.sha256(trade.trade_no.encode()).digest()).decode()
    return prefix + tail[: 36 - len(prefix)]


def instruction(trade: Trade, v: Variant) -> str:
    """The bank details the customer transfers to, as JSON text (the pages' `instruction`)."""
    b = BENEFICIARIES[v.country]
    return json.dumps(
        {
            "beneficiary": {
                "bank": {
                    "code": b.bank_code,
                    "name": b.bank_name,
                    "branch": {"code": "null"},
                    "account": {"number": b.account, "type": b.account_type},
                },
                "document": {"id": b.document, "type": b.document_type},
                "name": b.name,
                "type": "INDIVIDUAL",
            },
            "referenceCode": digits(trade, v.reference_digits),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def field(name: str, trade: Trade, links: Links, v: Variant | None = None) -> str:
    """One answer field of a country page's method or a wallet, made from the trade (nothing outside is reached)."""
    if name == "pay_url":
        return links.pay_page(trade.trade_no)
    if name == "wallet_url":
        return links.wallet_page(trade.trade_no)
    if name == "app_link_url":
        assert trade.channel is not None  # only wallets answer it
        return f"checkout-sandbox://wallet/{trade.channel.lower()}/pay?trade_no={trade.trade_no}"
    if name == "prepay_id":
        return trade.prepay_id or ""
    if name == "reference":
        return digits(trade, v.reference_digits if v else 8)
    if name == "clabe":
        return clabe.build(SPEI_BANK, SPEI_PLAZA, digits(trade, 11))
    if name == "bank_name":
        return clabe.BANKS[SPEI_BANK]
    if name == "partner_code":
        return v.partner_code if v else ""
    if name == "barcode":  # issuer prefix, the trade, the amount in minor units, to the voucher's length
        prefix, length = v.barcode if v else ("", 0)
        room = length - len(prefix) - 10
        return f"{prefix}{digits(trade, 10)}{trade.amount_minor % 10**room:0{room}d}"
    if name == "qr_code":
        if v is None:
            return wallet_code(trade)
        return qrph_code(trade) if v.method == "QRPH" else _codi_code(trade)
    if name == "qr_code_img":
        return qrimage.data_uri(links.pay_page(trade.trade_no))
    if name == "due_date":
        return clock.format_utc(trade.expires_at) if trade.expires_at else ""
    if name == "instruction":
        assert v is not None  # only bank transfer pages answer it
        return instruction(trade, v)
    raise ValueError(f"no answer field {name}")


def present(trade: Trade, links: Links, v: Variant) -> dict:
    """The page's fields in its order; where it answers no `pay_url`, ours after them: the customer's page."""
    answer = {name: field(name, trade, links, v) for name in v.answer}
    return answer if "pay_url" in answer else {**answer, "pay_url": links.pay_page(trade.trade_no)}
