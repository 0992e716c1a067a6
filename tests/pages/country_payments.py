"""Direct payments of the country pages' methods beyond Brazil and Mexico, one per page kind: the request a merchant
sends (a customer and address of the country, valid for its page) and the journey its payment page offers.

The provider's examples leave out parts of the customer and address that the interface requires: they are filled
with plausible values of each country (names, phones, streets), and the documents are valid of their page's form."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Country:
    customer: dict
    address: dict


def _country(name: str, phone: str, kind: str, number: str, zip_code: str, state: str, city: str, street: str):
    return Country(
        {"name": name, "email": "cliente@example.com", "phone": phone, "identify": {"type": kind, "number": number}},
        {"zip_code": zip_code, "state": state, "city": city, "street_number": "100", "street": street},
    )


COUNTRIES = {
    "ARG": _country("Lucía Gómez", "+5491123456789", "DNI", "30123456", "C1043", "CABA", "Buenos Aires", "Av. Corrientes"),
    "BOL": _country("Juan Quispe", "+59171234567", "CI", "1234567", "0000", "La Paz", "La Paz", "Av. Arce"),
    "PRY": _country("Ana Benítez", "+595981123456", "CI", "1234567", "1209", "Asunción", "Asunción", "Av. Mcal. López"),
    "URY": _country("Sofía Pereira", "+59894123456", "CI", "12345678", "11300", "Montevideo", "Montevideo", "Bulevar Artigas"),
    "PAN": _country("Carlos Pérez", "+5076123456", "RUC", "155714930-2", "0801", "Panamá", "Panamá", "Vía España"),
    "PAN-CASH": _country("Carlos Pérez", "+5076123456", "CIP", "812345", "0801", "Panamá", "Panamá", "Vía España"),
    "CRI": _country("María Mora", "+50688123456", "CDI", "112345678", "10101", "San José", "San José", "Avenida Central"),
    "CRI-ID": _country("María Mora", "+50688123456", "ID", "112345678", "10101", "San José", "San José", "Avenida Central"),
    "ECU": _country("Diego Andrade", "+593991234567", "CI", "1712345678", "170150", "Pichincha", "Quito", "Av. Amazonas"),
    "SLV": _country("Rosa Martínez", "+50371234567", "DUI", "012345678", "1101", "San Salvador", "San Salvador", "Calle Arce"),
    "GTM": _country("Luis Castillo", "+50251234567", "DPI", "1234567890101", "01001", "Guatemala", "Guatemala", "6a Avenida"),
    "GTM-9": _country("Luis Castillo", "+50251234567", "DPI", "123456789", "01001", "Guatemala", "Guatemala", "6a Avenida"),
    "PER": _country("Rosa Huamán", "+51912345678", "DNI", "12345678", "15001", "Lima", "Lima", "Av. Arequipa"),
    "COL": _country("Andrés Gómez", "+573001234567", "CC", "12345678", "110111", "Bogotá D.C.", "Bogotá", "Carrera 7"),
    "EGY": _country("Omar Hassan", "+201001234567", "ID", "29001011234567", "11511", "Cairo", "Cairo", "Tahrir Street"),
    "IDN": _country("Budi Santoso", "+6281234567890", "KTP", "3171234567890001", "10110", "DKI Jakarta", "Jakarta", "Jalan Thamrin"),
    "TWN": _country("Wang Mei", "+886912345678", "ID", "A123456789", "100", "Taipei", "Taipei", "Zhongshan S. Rd."),
    "PHL": _country("Jose Santos", "+639171234567", "ID", "123456789012", "1000", "Metro Manila", "Manila", "Roxas Blvd."),
    "MYS": _country("Nurul Aziz", "+60123456789", "ID", "900101145678", "50000", "Kuala Lumpur", "Kuala Lumpur", "Jalan Ampang"),
    "THA": _country("Somchai Dee", "+66812345678", "ID", "1101234567890", "10110", "Bangkok", "Bangkok", "Sukhumvit Road"),
    "CHN": _country("Li Wei", "+8613812345678", "ID", "110101199001011234", "100000", "Beijing", "Beijing", "Chang'an Avenue"),
    "HKG": _country("Chan Tai Man", "+85291234567", "ID", "A1234563", "999077", "Hong Kong", "Hong Kong", "Queen's Road"),
    "KOR": _country("Kim Minji", "+821012345678", "ID", "9001011234567", "04524", "Seoul", "Seoul", "Sejong-daero"),
    "RUS": _country("Ivan Petrov", "+79161234567", "ID", "4510123456", "101000", "Moscow", "Moscow", "Tverskaya"),
    "BRA": _country("Ana Souza", "+5511987654321", "CPF", "50284414727", "01310100", "SP", "São Paulo", "Avenida Paulista"),
    "MEX": _country("María López", "+525512345678", "RFC", "MAMB780915969", "06600", "CDMX", "Ciudad de México", "Paseo de la Reforma"),
    "CHL": _country("Camila Rojas", "+56912345678", "RUT", "36987747K", "8320000", "Santiago", "Santiago", "Av. Libertador B. O'Higgins"),
    "TUR": _country("Ayşe Yılmaz", "+905321234567", "ID", "10000000146", "34000", "İstanbul", "İstanbul", "İstiklal Caddesi"),
}  # fmt: skip

VOUCHER, BANK, QR, HANDOFF = "voucher", "bank", "qr", "handoff"
# A page of its own (Brazil's and Mexico's methods), or a wallet opened by our app link (the sandbox plays it).
OWN, APP = "own", "app"


@dataclass(frozen=True)
class Case:
    """One method in one country: what it is sent with (beside its customer and address) and its page's journey."""

    country: str
    method: str
    currency: str
    amount: str
    journey: str
    extra: dict = field(default_factory=dict)

    def body(self, out_trade_no: str, **more) -> dict:
        country = COUNTRIES[self.country]
        return {
            "out_trade_no": out_trade_no,
            "method": self.method,
            "order_currency": self.currency,
            "order_amount": self.amount,
            "subject": "Order 42",
            "notify_url": "http://127.0.0.1:9/notify",
            "buyer_id": "buyer-42",
            "customer": country.customer,
            "address": country.address,
            **self.extra,
            **more,
        }


def _wallet(country: str, channel: str, currency: str, amount: str, journey: str, **extra) -> Case:
    return Case(country, "Wallet", currency, amount, journey, {"channel": channel, **extra})


CASES: dict[str, Case] = {
    # Argentina
    "ar-pagofacil": Case("ARG", "PagoFacil", "ARS", "1500.50", VOUCHER),
    "ar-rapipago": Case("ARG", "Rapipago", "ARS", "1500", VOUCHER),
    "ar-khipu": Case("ARG", "Khipu", "ARS", "1500", HANDOFF, {"bank": "Si9wa"}),
    "ar-astropay": _wallet("ARG", "Astropay", "ARS", "1500", HANDOFF),
    "ar-transfer": Case(
        "ARG",
        "BankTransfer",
        "ARS",
        "1500",
        BANK,
        {
            "bank": "191",
            "account_number": "1910000123456789",
            "account_type": "C",
            "customer": {**COUNTRIES["ARG"].customer, "identify": {"type": "CUIT", "number": "20301234567"}},
        },
    ),
    # Bank details in Bolivia, Paraguay, Uruguay and Panama
    "bo-transfer": Case(
        "BOL",
        "BankTransfer",
        "BOB",
        "250.75",
        BANK,
        {"bank": "004", "account_number": "1234567890", "account_type": "CHECKING"},
    ),
    "py-transfer": Case(
        "PRY",
        "BankTransfer",
        "PYG",
        "150000",
        BANK,
        {"bank": "015", "account_number": "123456", "account_type": "SAVINGS"},
    ),
    "uy-transfer": Case(
        "URY",
        "BankTransfer",
        "UYU",
        "980",
        BANK,
        {"bank": "1001", "account_number": "123456", "account_type": "SAVINGS"},
    ),
    "pa-transfer": Case("PAN", "BankTransfer", "USD", "45.10", BANK, {"bank": "1805"}),
    "pa-cash": Case("PAN-CASH", "Cash", "USD", "45", VOUCHER),
    # Costa Rica
    "cr-bncr": Case("CRI", "BNCR", "CRC", "15000", VOUCHER),
    "cr-cash": Case("CRI", "Cash", "CRC", "15000", VOUCHER),
    "cr-transfer": Case("CRI-ID", "BankTransfer", "CRC", "15000", VOUCHER, {"bank": "1021", "language_code": "es"}),
    # Ecuador, El Salvador, Guatemala
    "ec-transfer": Case("ECU", "BankTransfer", "USD", "20", HANDOFF),
    "ec-cash": Case("ECU", "Cash", "USD", "20", HANDOFF),
    "sv-cash": Case("SLV", "Cash", "USD", "20", VOUCHER, {"bank": "8300", "language_code": "es"}),
    "gt-cash": Case("GTM", "Cash", "GTQ", "120", VOUCHER),
    "gt-transfer": Case("GTM-9", "BankTransfer", "GTQ", "120", VOUCHER, {"bank": "8404", "language_code": "es"}),
    # Peru, Colombia
    "pe-pagoefectivo": Case("PER", "PagoEfectivo", "PEN", "80", VOUCHER),
    "co-baloto": Case("COL", "Baloto", "COP", "25000", VOUCHER),
    # Egypt
    "eg-cash": Case("EGY", "Cash", "EGP", "350", VOUCHER),
    "eg-fawrypay": _wallet("EGY", "FawryPay", "EGP", "350", VOUCHER),
    # Asia
    "id-transfer": Case("IDN", "BankTransfer", "IDR", "150000", VOUCHER, {"bank": "BANK BNI"}),
    "id-dana": _wallet("IDN", "DANA", "IDR", "150000", HANDOFF),
    "tw-transfer": Case("TWN", "BankTransfer", "TWD", "600", HANDOFF, {"bank": "PD-STORE-FAMI"}),
    "tw-otc": Case("TWN", "OTC", "TWD", "600", HANDOFF, {"bank": "PD-ATM-CTCB"}),
    "tw-linepay": _wallet("TWN", "LINEPay", "TWD", "600", HANDOFF, bank="PD-EPOINT-LINEPAY"),
    "ph-qrph": Case("PHL", "QRPH", "PHP", "250", QR),
    "ph-alipayplus": Case("PHL", "AlipayPlus", "PHP", "250", HANDOFF),
    "ph-gcash": _wallet("PHL", "GCash", "PHP", "250", QR),
    "ph-bpi": _wallet("PHL", "BPI", "PHP", "250", HANDOFF),
    "my-tng": _wallet("MYS", "TNG", "MYR", "35", HANDOFF),
    "th-truemoney": _wallet("THA", "TrueMoney", "THB", "300", QR),
    "cn-alipay": _wallet("CHN", "AlipayCN", "CNY", "88", QR),
    "hk-alipayhk": _wallet("HKG", "AlipayHK", "HKD", "88", QR),
    "kr-kakaopay": _wallet("KOR", "KakaoPay", "KRW", "15000", QR),
    "kr-naverpay": _wallet("KOR", "NaverPay", "KRW", "15000", HANDOFF),
    # Russia, Türkiye
    "ru-qiwi": _wallet("RUS", "QIWI", "RUB", "1200", HANDOFF),
    "tr-papara": _wallet("TUR", "Papara", "TRY", "400", HANDOFF),
}


# Every other method of the payin table and every other wallet channel, so that with CASES each can be paid from its
# page: Brazil's and Mexico's pages of their own, Colombia's, Chile's and Peru's, and the app-link wallets.
MORE_CASES: dict[str, Case] = {
    "br-pix": Case("BRA", "PIX", "BRL", "120.00", OWN),
    "br-boleto": Case("BRA", "Boleto", "BRL", "120.00", OWN),
    "br-lottery": Case("BRA", "Lottery", "BRL", "120.00", OWN),
    "br-deposit": Case("BRA", "DepositExpress", "BRL", "120.00", OWN, {"bank": "itau"}),
    "br-openfinance": Case("BRA", "OpenFinance", "BRL", "120.00", HANDOFF, {"bank": "75e2b9f4-4f60-4d07-916c-fde1163d43bc"}),
    "br-picpay": _wallet("BRA", "PicPay", "BRL", "120.00", APP),
    "br-mercadopago": _wallet("BRA", "MercadoPago", "BRL", "120.00", APP),
    "br-ame": _wallet("BRA", "AME", "BRL", "120.00", APP),
    "br-astropay": _wallet("BRA", "Astropay", "BRL", "120.00", APP),
    "mx-spei": Case("MEX", "SPEI", "MXN", "2000.00", OWN),
    "mx-codi": Case("MEX", "CoDi", "MXN", "350.00", OWN),
    "mx-oxxo": Case("MEX", "OXXO", "MXN", "350.00", OWN),
    "mx-oxxopay": Case("MEX", "OXXOPay", "MXN", "350.00", OWN),
    "mx-cash": Case("MEX", "Cash", "MXN", "350.00", VOUCHER),
    "mx-mercadopago": _wallet("MEX", "MercadoPago", "MXN", "350.00", APP),
    "mx-todito": _wallet("MEX", "Todito", "MXN", "350.00", APP, account_number="2660893978", account_verification_code="1322"),
    "co-pse": Case("COL", "PSE", "COP", "25000", HANDOFF),
    "co-efecty": Case("COL", "Efecty", "COP", "25000", VOUCHER),
    "co-bancolombia": Case("COL", "Bancolombia", "COP", "25000", VOUCHER),
    "co-sured": Case("COL", "SuRed", "COP", "25000", VOUCHER),
    "co-gana": Case("COL", "Gana", "COP", "25000", VOUCHER),
    **{f"co-{c.lower()}": _wallet("COL", c, "COP", "25000", APP) for c in ("Nequi", "TPaga", "Dale", "Daviplata", "Movii", "Rappipay")},
    "co-claropay": _wallet("COL", "ClaroPay", "COP", "25000", HANDOFF),
    "cl-webpay": Case("CHL", "WebPay", "CLP", "25000", HANDOFF),
    "cl-khipu": Case("CHL", "Khipu", "CLP", "25000", HANDOFF, {"bank": "Bawdf"}),
    "cl-pago46": Case("CHL", "Pago46", "CLP", "25000", HANDOFF),
    "cl-transfer": Case("CHL", "BankTransfer", "CLP", "25000", HANDOFF),
    "cl-cash": Case("CHL", "Cash", "CLP", "25000", VOUCHER),
    "cl-mach": _wallet("CHL", "Mach", "CLP", "25000", APP),
    "cl-chek": _wallet("CHL", "Chek", "CLP", "25000", HANDOFF),
    "pe-transfer": Case("PER", "BankTransfer", "PEN", "80", VOUCHER),
    "pe-cash": Case("PER", "Cash", "PEN", "80", VOUCHER),
    "pe-yape": _wallet("PER", "Yape", "PEN", "80", APP),
    "pe-tupay": _wallet("PER", "Tupay", "PEN", "80", VOUCHER),
    "kr-payco": _wallet("KOR", "Payco", "KRW", "15000", HANDOFF),
    "kr-samsungpay": _wallet("KOR", "SamsungPay", "KRW", "15000", HANDOFF),
    "kr-toss": _wallet("KOR", "TOSS", "KRW", "15000", HANDOFF),
    "my-boost": _wallet("MYS", "BOOST", "MYR", "35", HANDOFF),
    "th-rabbitlinepay": _wallet("THA", "RabbitLinePay", "THB", "300", QR),
}  # fmt: skip

# Every method of the payin table but the card (paid on the hosted checkout) and every wallet channel.
EVERY_METHOD: dict[str, Case] = {**CASES, **MORE_CASES}
