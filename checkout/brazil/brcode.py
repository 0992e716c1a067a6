"""EMV "BR Code" for PIX (copia e cola): building, parsing and CRC16-CCITT-FALSE."""

from __future__ import annotations

import binascii
import unicodedata
from decimal import Decimal

GUI = "br.gov.bcb.pix"


class BRCodeError(ValueError):
    pass


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR.

    binascii's CRC-CCITT is that polynomial, unreflected; started at 0xFFFF it is CCITT-FALSE, in C
    (the bit loop in Python cost about a millisecond per PIX code).
    """
    return binascii.crc_hqx(data, 0xFFFF)


def _tlv(tag: str, value: str) -> str:
    if len(value) > 99:
        raise BRCodeError(f"field {tag} is longer than 99 characters")
    return f"{tag}{len(value):02d}{value}"


def _ascii(text: str, limit: int) -> str:
    """Names and cities are restricted to plain ASCII in a BR Code."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.split())[:limit]


def build(*, key: str, amount: Decimal | None, merchant_name: str, merchant_city: str, txid: str) -> str:
    """A one-time PIX payload (point of initiation 12) for `amount` BRL (None: no amount field)."""
    if not txid.isalnum() or len(txid) > 25:
        raise BRCodeError("txid must be 1 to 25 letters or digits")
    body = (
        "".join(
            [
                _tlv("00", "01"),
                _tlv("01", "12"),
                _tlv("26", _tlv("00", GUI) + _tlv("01", key)),
                _tlv("52", "0000"),
                _tlv("53", "986"),
                _tlv("54", f"{amount:.2f}") if amount is not None else "",
                _tlv("58", "BR"),
                _tlv("59", _ascii(merchant_name, 25)),
                _tlv("60", _ascii(merchant_city, 15)),
                _tlv("62", _tlv("05", txid)),
            ]
        )
        + "6304"
    )
    return body + f"{crc16(body.encode('ascii')):04X}"


def _fields(text: str) -> dict[str, str]:
    fields, pos = {}, 0
    while pos < len(text):
        tag, size = text[pos : pos + 2], text[pos + 2 : pos + 4]
        if len(tag) < 2 or not (size.isascii() and size.isdigit()) or pos + 4 + int(size) > len(text):
            raise BRCodeError(f"malformed field at position {pos}")
        fields[tag] = text[pos + 4 : pos + 4 + int(size)]
        pos += 4 + int(size)
    return fields


def parse(code: str) -> dict:
    """The top-level fields, with 26 and 62 expanded; raises BRCodeError on a bad CRC or layout."""
    if len(code) < 8 or code[-8:-4] != "6304":
        raise BRCodeError("missing CRC field 63")
    if f"{crc16(code[:-4].encode('utf-8')):04X}" != code[-4:].upper():
        raise BRCodeError("CRC mismatch")
    fields: dict = _fields(code[:-8])
    for template in ("26", "62"):
        if template in fields:
            fields[template] = _fields(fields[template])
    return fields
