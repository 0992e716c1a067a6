"""QR images (inline SVG) and what the PIX Automático page shows of the payer and the code."""

from __future__ import annotations

from ..brazil import brcode, qrimage
from ..vaults.models import Vault


def svg(code: str) -> str:
    return qrimage.svg(code)


def authorization_code(vault: Vault, config) -> str:
    """The BR Code the payer's bank app reads to show and accept this PIX Automático authorization."""
    txid = vault.token.removeprefix("vt_")[:25]
    return brcode.build(
        key=config["COLLECTOR_PIX_KEY"],
        amount=None,
        merchant_name=config["COLLECTOR_NAME"],
        merchant_city=config["COLLECTOR_CITY"],
        txid=txid,
    )


def mask_document(vault: Vault) -> str:
    """Enough of the payer's CPF/CNPJ to recognise it, never all of it."""
    number = vault.customer_document or ""
    if vault.customer_document_type == "CPF" and len(number) == 11:
        return f"***.{number[3:6]}.{number[6:9]}-**"
    if len(number) == 14:
        return f"**.{number[2:5]}.{number[5:8]}/{number[8:12]}-**"
    return "***"
