"""The names customers read for each payin method and wallet, one table for the checkout's picker and the pay pages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

# Methods as people call them, in their language; brands as they write themselves (the provider's method names
# run them together). A method not listed keeps the API's name (Boleto, SPEI, OXXO, PSE...).
METHOD_NAMES = {
    "PIX": _l("Pix"),
    "Lottery": _l("Lotérica"),
    "DepositExpress": _l("Bank deposit"),
    "OpenFinance": _l("Open Finance"),
    "Wallet": _l("Wallet"),
    "Cash": _l("Cash payment"),
    "BankTransfer": _l("Bank transfer"),
    "OXXOPay": _l("OXXO Pay"),
    "OTC": _l("ATM transfer"),  # Taiwan's: at a bank's ATM or WebATM
    "CreditCard": _l("Card"),
    "QRPH": "QR Ph",
    "AlipayPlus": "Alipay+",
    "PagoFacil": "Pago Fácil",
    "PIXAutomatic": "Pix Automático",  # the Central Bank's name for it, in every language
}

# Wallets as they write their own names, where the channel's spelling differs (never translated: callbacks and
# hand-off pages say them too).
WALLET_NAMES = {
    "AlipayCN": "Alipay",
    "BOOST": "Boost",
    "TNG": "Touch 'n Go eWallet",
    "TOSS": "Toss",
    "NaverPay": "Naver Pay",
    "SamsungPay": "Samsung Pay",
    "LINEPay": "LINE Pay",
    "RabbitLinePay": "Rabbit LINE Pay",
}


def method_name(method: str | None, channel: str | None = None) -> str:
    """`method` as people call it; a wallet by its own name once the customer's channel is known."""
    if method == "Wallet" and channel:
        return WALLET_NAMES.get(channel, channel)
    return str(METHOD_NAMES.get(method or "", method or ""))
