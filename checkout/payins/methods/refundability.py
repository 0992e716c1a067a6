"""Which payments can be refunded, by method, wallet channel and currency, as the provider's payment-method
summary lists them ("Refund": Yes, No, or "Only full amount refund")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refundability:
    allowed: bool
    partial: bool = True  # False: only the whole amount, at once


YES, NO, WHOLE_ONLY = Refundability(True), Refundability(False), Refundability(True, partial=False)

# (method, channel or None, currency) -> what the summary says. Colombia, Chile and Peru refund nothing, not
# even cards; Mexico refunds cards and SPEI (our bank-list BankTransfer in MXN is SPEI).
_BY_CURRENCY: dict[str, dict[tuple[str, str | None], Refundability]] = {
    "BRL": {
        ("CreditCard", None): YES,
        ("PIX", None): YES,
        ("PIXAutomatic", None): YES,  # a PIX debit: PIX's rule
        ("Boleto", None): YES,
        ("Lottery", None): YES,
        ("DepositExpress", None): YES,
        ("OpenFinance", None): NO,
        ("Wallet", "PicPay"): WHOLE_ONLY,
        ("Wallet", "AME"): YES,
        ("Wallet", "MercadoPago"): NO,
        ("Wallet", "Astropay"): NO,
    },
    "MXN": {
        ("CreditCard", None): YES,
        ("SPEI", None): YES,
        ("BankTransfer", None): YES,
    },
}
# Currencies the summary lists with every method non-refundable (Argentina, Bolivia, Paraguay, Uruguay, Guatemala
# and Costa Rica among the new pages).
_NOTHING_REFUNDED = frozenset({"COP", "CLP", "PEN", "ARS", "BOB", "PYG", "UYU", "GTQ", "CRC"})
# Currencies of the new pages whose methods the summary lists without a "Refund" column (Russia, Asia, Türkiye,
# Egypt) or with "No" beside our cards (USD: Ecuador, Panama, El Salvador): cards are refundable, nothing else.
_ONLY_CARDS_REFUNDED = frozenset(
    {"USD", "RUB", "TRY", "EGP", "CNY", "HKD", "IDR", "KRW", "MYR", "PHP", "THB", "TWD"}
    | {"BHD", "KWD", "OMR", "QAR", "SAR", "AED"}
)


def of(method: str, channel: str | None, currency: str) -> Refundability:
    """What the summary says of this payment; a currency it does not cover (a card in USD, EUR or GBP) is
    refundable."""
    if currency in _NOTHING_REFUNDED:
        return NO
    if currency in _ONLY_CARDS_REFUNDED:
        return YES if method == "CreditCard" else NO
    listed = _BY_CURRENCY.get(currency)
    if listed is None:
        return YES
    # A method the summary does not list in a currency it covers (our bank-list Cash in MXN, say) follows
    # the summary's word for the currency's other methods: there, No.
    return listed.get((method, channel if method == "Wallet" else None), NO)
