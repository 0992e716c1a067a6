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
        # The provider's Khipu page: "Bawdf": "Only this bank works in test env".
        Bank("Bawdf", "Khipu test bank", "CHL", "CLP", ("es",), min_minor=200),
    ),
    # The provider's OpenFinance page takes a bank id from the bank list; its example's id is the first.
    "OpenFinance": (
        Bank("75e2b9f4-4f60-4d07-916c-fde1163d43bc", "Nubank", "BRA", "BRL", ("pt",)),
        Bank("0b7f6a1e-3c5d-4e8f-9a21-6d4c8b2e1f37", "Itaú Unibanco", "BRA", "BRL", ("pt",)),
        Bank("c2d94b8a-57e1-4f0c-b3a6-91e8d7f25c40", "Banco Bradesco", "BRA", "BRL", ("pt",)),
    ),
}


@dataclass(frozen=True)
class Channel:
    """A Wallet channel: the currencies it takes, the provider's amount limits (payment-method page) and the
    fields its page answers beside ours (`wallet_url`, `app_link_url`)."""

    name: str
    currencies: tuple[str, ...]
    minimum: str | None = None
    maximum: str | None = None
    answer: tuple[str, ...] = ()
    integer: bool = False  # "Only Integer" on the provider's page
    account: bool = False  # Todito: the payer's wallet account_number and account_verification_code


# The first five are ours from before (MercadoPago also in MXN, Yape in PEN, where the pages name neither);
# the rest are the provider's Brazil, Colombia, Chile and Peru wallet pages' channels.
CHANNELS: tuple[Channel, ...] = (
    Channel("PicPay", ("BRL",), "0.01", "5000"),
    Channel("MercadoPago", ("BRL", "MXN"), "0.01", "10000"),
    Channel("Todito", ("MXN",), "1", "190000", account=True),
    Channel("Yape", ("PEN",)),
    Channel("Nequi", ("COP",), "1000", "3000000", ("prepay_id",), integer=True),
    Channel("AME", ("BRL",), "0.1", "15000"),
    Channel("Astropay", ("BRL",), "4", "27500"),
    Channel("TPaga", ("COP",), "1", "2000000", ("prepay_id",), integer=True),
    Channel("ClaroPay", ("COP",), "1000", "3000000", ("prepay_id", "pay_url"), integer=True),
    Channel("Dale", ("COP",), "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Daviplata", ("COP",), "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Movii", ("COP",), "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Rappipay", ("COP",), "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Mach", ("CLP",), "1", "500000", integer=True),
    Channel("Chek", ("CLP",), "1", "500000", ("pay_url",), integer=True),
    Channel("Tupay", ("PEN",), "8", "3750", ("due_date", "pay_url", "qr_code_img", "reference")),
)

# Wallet channels and the currencies each accepts.
WALLET_CHANNELS: dict[str, tuple[str, ...]] = {c.name: c.currencies for c in CHANNELS}


def channel(name: str) -> Channel | None:
    """The channel, whatever the case of its name (the provider's Brazil page writes "Mercadopago")."""
    wanted = name.casefold()
    return next((c for c in CHANNELS if c.name.casefold() == wanted), None)


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
