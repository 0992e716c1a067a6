"""Sandbox catalogue: banks per method (the bank list), DepositExpress accounts, wallet channels."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

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
        # El Salvador's cash page: a bank id and its language code from the list (its example: 8300, ES)
        Bank("8300", "Punto Xpress", "SLV", "USD", ("es", "en")),
        Bank("8301", "Pronto Efectivo", "SLV", "USD", ("es", "en")),
    ),
    "BankTransfer": (
        Bank("spei", "SPEI", "MEX", "MXN", ("es", "en")),
        Bank("bcp", "Banco de Crédito del Perú", "PER", "PEN", ("es",)),
        Bank("pse", "PSE", "COL", "COP", ("es",)),
        # Argentina: the account's first three digits are the bank's code (its example: 191)
        Bank("191", "Banco Credicoop", "ARG", "ARS", ("es",)),
        Bank("007", "Banco de Galicia", "ARG", "ARS", ("es",)),
        Bank("011", "Banco de la Nación Argentina", "ARG", "ARS", ("es",)),
        Bank("072", "Banco Santander Argentina", "ARG", "ARS", ("es",)),
        Bank("004", "Banco Mercantil Santa Cruz", "BOL", "BOB", ("es",)),
        Bank("001", "Banco Nacional de Bolivia", "BOL", "BOB", ("es",)),
        Bank("015", "Banco Itaú Paraguay", "PRY", "PYG", ("es",)),
        Bank("002", "Banco Nacional de Fomento", "PRY", "PYG", ("es",)),
        Bank("1001", "Banco República (BROU)", "URY", "UYU", ("es",)),
        Bank("1137", "Itaú Uruguay", "URY", "UYU", ("es",)),
        Bank("1805", "Banco General", "PAN", "USD", ("es",)),
        Bank("1806", "Banistmo", "PAN", "USD", ("es",)),
        Bank("1021", "Banco Nacional de Costa Rica", "CRI", "CRC", ("es", "en")),
        Bank("1022", "Banco de Costa Rica", "CRI", "CRC", ("es", "en")),
        Bank("8404", "Banco Industrial", "GTM", "GTQ", ("es", "en")),
        Bank("8405", "Banrural", "GTM", "GTQ", ("es", "en")),
        # Indonesia's page: "One of support banks"
        Bank("BANK BNI", "Bank Negara Indonesia", "IDN", "IDR", ("id", "en")),
        Bank("BANK BRI", "Bank Rakyat Indonesia", "IDN", "IDR", ("id", "en")),
        Bank("BANK CIMB", "CIMB Niaga", "IDN", "IDR", ("id", "en")),
        Bank("BANK PERMATA", "Bank Permata", "IDN", "IDR", ("id", "en")),
        Bank("BANK MANDIRI", "Bank Mandiri", "IDN", "IDR", ("id", "en")),
        # Taiwan's bank transfer page lists convenience-store payment points (its OTC page, the ATMs)
        Bank("PD-STORE-FAMI", "FamilyMart FamiPort", "TWN", "TWD", ("zh", "en")),
        Bank("PD-STORE-HILIFEET", "Hi-Life Life-ET", "TWN", "TWD", ("zh", "en")),
        Bank("PD-STORE-IBON", "7-Eleven ibon", "TWN", "TWD", ("zh", "en")),
        Bank("PD-STORE-MBC", "Store barcode (7-Eleven, FamilyMart)", "TWN", "TWD", ("zh", "en")),
        Bank("PD-STORE-MBC-HILIFEET", "Store barcode (Hi-Life)", "TWN", "TWD", ("zh", "en")),
        Bank("PD-STORE-OKGO", "OK Mart OK-go", "TWN", "TWD", ("zh", "en")),
    ),
    "OTC": (
        Bank("PD-ATM-CTCB", "CTBC Bank ATM", "TWN", "TWD", ("zh", "en")),
        Bank("PD-ATM-HNCB", "Hua Nan Bank ATM", "TWN", "TWD", ("zh", "en")),
        Bank("PD-ATM-SCSB", "Shanghai Commercial and Savings Bank ATM", "TWN", "TWD", ("zh", "en")),
        Bank("PD-WEBATM-CTCB", "CTBC Bank WebATM", "TWN", "TWD", ("zh", "en")),
        Bank("PD-WEBATM-ESUN", "E.SUN Bank WebATM", "TWN", "TWD", ("zh", "en")),
        Bank("PD-WEBATM-HNCB", "Hua Nan Bank WebATM", "TWN", "TWD", ("zh", "en")),
    ),
    "Khipu": (
        # 200 CLP: the minimum the provider's bank-list example shows.
        Bank("banco_de_chile", "Banco de Chile", "CHL", "CLP", ("es",), min_minor=200),
        Bank("bancoestado", "BancoEstado", "CHL", "CLP", ("es",), min_minor=200),
        Bank("santander_cl", "Banco Santander Chile", "CHL", "CLP", ("es",), min_minor=200),
        # The provider's Khipu page: "Bawdf": "Only this bank works in test env".
        Bank("Bawdf", "Khipu test bank", "CHL", "CLP", ("es",), min_minor=200),
        # Argentina's Khipu page: its example's bank; the page's minimum, 50 ARS
        Bank("Si9wa", "Khipu test bank (Argentina)", "ARG", "ARS", ("es",), min_minor=5000),
        Bank("nacion_ar", "Banco de la Nación Argentina", "ARG", "ARS", ("es",), min_minor=5000),
        Bank("galicia_ar", "Banco Galicia", "ARG", "ARS", ("es",), min_minor=5000),
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
    """A Wallet channel in one currency: the provider's amount limits there (its page, else the payment-method
    summary) and the fields its page answers beside ours (`wallet_url`, `app_link_url`)."""

    name: str
    currency: str
    country: str
    minimum: str | None = None
    maximum: str | None = None
    answer: tuple[str, ...] = ()
    integer: bool = False  # "Only Integer" on the provider's page
    account: bool = False  # Todito: the payer's wallet account_number and account_verification_code
    bank: str = ""  # LINEPay: the page's fixed `bank`


_ALIPAY_PLUS = ("qr_code", "wallet_url")

# The first ones are ours from before (MercadoPago also in MXN, Yape in PEN, where the pages name neither);
# the rest are the provider's wallet pages' channels, country by country.
CHANNELS: tuple[Channel, ...] = (
    Channel("PicPay", "BRL", "BRA", "0.01", "5000"),
    Channel("MercadoPago", "BRL", "BRA", "0.01", "10000"),
    Channel("MercadoPago", "MXN", "MEX", "0.01", "10000"),
    Channel("Todito", "MXN", "MEX", "1", "190000", account=True),
    Channel("Yape", "PEN", "PER"),
    Channel("Nequi", "COP", "COL", "1000", "3000000", ("prepay_id",), integer=True),
    Channel("AME", "BRL", "BRA", "0.1", "15000"),
    Channel("Astropay", "BRL", "BRA", "4", "27500"),
    Channel("TPaga", "COP", "COL", "1", "2000000", ("prepay_id",), integer=True),
    Channel("ClaroPay", "COP", "COL", "1000", "3000000", ("prepay_id", "pay_url"), integer=True),
    Channel("Dale", "COP", "COL", "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Daviplata", "COP", "COL", "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Movii", "COP", "COL", "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Rappipay", "COP", "COL", "1000", "3000000", ("prepay_id",), integer=True),
    Channel("Mach", "CLP", "CHL", "1", "500000", integer=True),
    Channel("Chek", "CLP", "CHL", "1", "500000", ("pay_url",), integer=True),
    Channel("Tupay", "PEN", "PER", "8", "3750", ("due_date", "pay_url", "qr_code_img", "reference")),
    # Argentina, whose page says the minimum is 0.1 ARS and names no maximum
    Channel("Astropay", "ARS", "ARG", "0.1", None, ("prepay_id", "wallet_url")),
    # Asia: the Alipay+ wallets answer a code value to show as a QR and their cashier's address
    Channel("AlipayCN", "CNY", "CHN", "0.04", "300000", _ALIPAY_PLUS),
    Channel("AlipayHK", "HKD", "HKG", "0.1", "9999999", _ALIPAY_PLUS),
    Channel("DANA", "IDR", "IDN", "300", "25000000", ("wallet_url",)),
    Channel("KakaoPay", "KRW", "KOR", "100", "2000000", _ALIPAY_PLUS),
    Channel("NaverPay", "KRW", "KOR", "100", "2000000", ("pay_url", "wallet_url")),
    Channel("Payco", "KRW", "KOR", "100", "2000000", ("wallet_url",)),
    Channel("SamsungPay", "KRW", "KOR", "100", "2000000", ("wallet_url",)),
    Channel("TOSS", "KRW", "KOR", "100", "2000000", ("wallet_url",)),
    Channel("BOOST", "MYR", "MYS", "0.1", "9999999", ("wallet_url",)),
    Channel("TNG", "MYR", "MYS", "0.1", "9999999", ("wallet_url",)),
    Channel("BPI", "PHP", "PHL", "1", "50000", ("wallet_url",)),
    Channel("GCash", "PHP", "PHL", "1", "100000", _ALIPAY_PLUS),
    Channel("RabbitLinePay", "THB", "THA", "1", "50000", _ALIPAY_PLUS),
    Channel("TrueMoney", "THB", "THA", "1", None, _ALIPAY_PLUS),  # "1 ~ ∞"
    Channel("LINEPay", "TWD", "TWN", "50", "20000", ("pay_url",), bank="PD-EPOINT-LINEPAY"),
    # Russia, Türkiye, Egypt
    Channel("QIWI", "RUB", "RUS", "0.01", "500000", ("app_link_url",)),  # "0~500,000": the API's minimum
    Channel("Papara", "TRY", "TUR", "1", "500000", ("pay_url",)),
    Channel("FawryPay", "EGP", "EGY", "10", "60000", ("qr_code_img", "reference")),
)


def _wallet_channels() -> Mapping[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for entry in CHANNELS:
        found[entry.name] = (*found.get(entry.name, ()), entry.currency)
    return MappingProxyType(found)


# Wallet channels and the currencies each accepts, in the catalogue's order (read-only).
WALLET_CHANNELS = _wallet_channels()


def channel(name: str, currency: str | None = None) -> Channel | None:
    """The channel (in `currency`, else its first), whatever the case of its name (the provider's Brazil page
    writes "Mercadopago", Korea's "TOSS" and its summary "Toss")."""
    wanted = name.casefold()
    found = [c for c in CHANNELS if c.name.casefold() == wanted]
    return next((c for c in found if c.currency == currency), found[0] if found and currency is None else None)


def listing(method: str) -> dict:
    """The bank list's answer: `data`, one entry per bank, and for Khipu the top-level `min_amount` the
    provider's page shows (the smallest any of its banks in its first currency, CLP, takes)."""
    banks = BANKS[method]
    answer: dict = {"data": [b.as_dict() for b in banks]}
    minimums = [b for b in banks if b.min_minor is not None and b.currency == banks[0].currency]
    if minimums:
        lowest = min(minimums, key=lambda b: b.min_minor or 0)
        answer["min_amount"] = lowest.as_dict()["min_amount"]
    return {**answer, "method": method}


def banks(method: str, currency: str) -> list[Bank]:
    """The method's banks in `currency` (its country's table)."""
    return [b for b in BANKS.get(method, ()) if b.currency == currency]


def bank(method: str, bank_id: str) -> Bank | None:
    """The listed bank, whatever the case of its id (the provider's DepositExpress example sends "Bradesco")."""
    wanted = bank_id.casefold()
    return next((b for b in BANKS.get(method, ()) if b.bank_id.casefold() == wanted), None)
