"""Sandbox catalogue: banks per method (the bank list), DepositExpress accounts, wallet channels."""

from __future__ import annotations

from dataclasses import dataclass


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

    def as_dict(self) -> dict:
        return {
            "bank_id": self.bank_id,
            "bank_name": self.name,
            "country": self.country,
            "currency": self.currency,
            "language_codes": list(self.language_codes),
        }


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
        Bank("banco_de_chile", "Banco de Chile", "CHL", "CLP", ("es",)),
        Bank("bancoestado", "BancoEstado", "CHL", "CLP", ("es",)),
        Bank("santander_cl", "Banco Santander Chile", "CHL", "CLP", ("es",)),
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


def bank(method: str, bank_id: str) -> Bank | None:
    """The listed bank, whatever the case of its id (the provider's DepositExpress example sends "Bradesco")."""
    wanted = bank_id.casefold()
    return next((b for b in BANKS.get(method, ()) if b.bank_id.casefold() == wanted), None)
