"""Sandbox catalogue: banks per method (the bank list), DepositExpress accounts, wallet channels."""

from __future__ import annotations

from dataclasses import dataclass

from ... import money


@dataclass(frozen=True)
class Bank:
    bank_id: str
    name: str
    country: str
    currency: str
    language_codes: tuple[str, ...]
    # DepositExpress only: the collection account the customer deposits into.
    agency: str = ""
    account: str = ""
    # Khipu only: the smallest order the bank takes, in minor units of its currency.
    min_minor: int | None = None

    def as_dict(self) -> dict:
        """The bank as the bank list answers it: the provider's fields (`detail` it leaves empty), then ours."""
        listed = {
            "bank_id": self.bank_id,
            "bank_name": self.name,
            "detail": "",
            "country": self.country,
            "currency": self.currency,
            "language_codes": list(self.language_codes),
        }
        if self.min_minor is not None:
            listed["min_amount"] = money.format_minor(self.min_minor, self.currency)
        return listed


BANKS: dict[str, tuple[Bank, ...]] = {
    "DepositExpress": (
        Bank("itau", "Itaú Unibanco", "BRA", "BRL", ("pt",), "0001", "98765-4"),
        Bank("santander", "Banco Santander (Brasil)", "BRA", "BRL", ("pt",), "2271", "13004512-7"),
        Bank("bradesco", "Banco Bradesco", "BRA", "BRL", ("pt",), "3381", "0184522-1"),
        Bank("banco-do-brasil", "Banco do Brasil", "BRA", "BRL", ("pt",), "1897", "44512-X"),
        Bank("caixa", "Caixa Econômica Federal", "BRA", "BRL", ("pt",), "0630", "00034011-2"),
    ),
    "Cash": (
        Bank("oxxo", "OXXO", "MEX", "MXN", ("es", "en")),
        Bank("seven_eleven", "7-Eleven", "MEX", "MXN", ("es", "en")),
        Bank("pagoefectivo", "PagoEfectivo", "PER", "PEN", ("es",)),
        Bank("efecty", "Efecty", "COL", "COP", ("es",)),
    ),
    "BankTransfer": (
        Bank("spei", "SPEI", "MEX", "MXN", ("es", "en")),
        Bank("bcp", "Banco de Crédito del Perú", "PER", "PEN", ("es",)),
        Bank("pse", "PSE", "COL", "COP", ("es",)),
    ),
    "Khipu": (
        # 200 CLP: the minimum the provider's bank-list example shows.
        Bank("banco_de_chile", "Banco de Chile", "CHL", "CLP", ("es",), min_minor=200),
        Bank("bancoestado", "BancoEstado", "CHL", "CLP", ("es",), min_minor=200),
        Bank("santander_cl", "Banco Santander Chile", "CHL", "CLP", ("es",), min_minor=200),
    ),
}

# Wallet channels and the currencies each accepts.
WALLET_CHANNELS: dict[str, tuple[str, ...]] = {
    "PicPay": ("BRL",),
    "MercadoPago": ("BRL", "MXN"),
    "Todito": ("MXN",),
    "Yape": ("PEN",),
    "Nequi": ("COP",),
}


def listing(method: str) -> dict:
    """The bank list's answer: `data`, one entry per bank, and for Khipu the top-level `min_amount` the
    provider's page shows (the smallest any of its banks takes)."""
    banks = BANKS[method]
    answer: dict = {"data": [b.as_dict() for b in banks]}
    minimums = [b for b in banks if b.min_minor is not None]
    if minimums:
        lowest = min(minimums, key=lambda b: b.min_minor or 0)
        answer["min_amount"] = lowest.as_dict()["min_amount"]
    return {**answer, "method": method}


def bank(method: str, bank_id: str) -> Bank | None:
    """The listed bank, whatever the case of its id (the provider's DepositExpress example sends "Bradesco")."""
    wanted = bank_id.casefold()
    return next((b for b in BANKS.get(method, ()) if b.bank_id.casefold() == wanted), None)
