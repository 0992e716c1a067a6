"""CLABE, Mexico's 18-digit interbank account number: bank prefix, check digit."""

from __future__ import annotations

WEIGHTS = (3, 7, 1)

# SPEI banks by CLABE prefix: the first three digits of a CLABE, the last three of the bank's SPEI code.
# From the provider's list of Mexican bank codes.
BANKS = {
    "001": "BANXICO",
    "002": "Banamex",
    "006": "BANCOMEXT",
    "009": "BANOBRAS",
    "012": "BBVA México",
    "014": "Santander",
    "019": "BANJERCITO",
    "021": "HSBC",
    "030": "BanBajío",
    "036": "Inbursa",
    "042": "MIFEL",
    "044": "Scotiabank",
    "058": "Banregio",
    "059": "INVEX",
    "060": "BANSI",
    "062": "AFIRME",
    "072": "Banorte",
    "106": "BANK OF AMERICA",
    "108": "MUFG",
    "110": "JP MORGAN",
    "112": "BMONEX",
    "113": "VE POR MAS",
    "127": "Banco Azteca",
    "128": "AUTOFIN",
    "129": "BARCLAYS",
    "130": "COMPARTAMOS",
    "132": "MULTIVA BANCO",
    "133": "ACTINVER",
    "135": "NAFIN",
    "136": "INTERCAM BANCO",
    "137": "BanCoppel",
    "138": "ABC CAPITAL",
    "140": "CONSUBANCO",
    "141": "VOLKSWAGEN",
    "143": "CIBANCO",
    "145": "BBASE",
    "147": "BANKAOOL",
    "148": "PAGATODO",
    "150": "INMOBILIARIO",
    "151": "DONDE",
    "152": "BANCREA",
    "154": "BANCO COVALTO",
    "155": "ICBC",
    "156": "SABADELL",
    "157": "SHINHAN",
    "158": "MIZUHO BANK",
    "159": "BANK OF CHINA",
    "160": "BANCO S3",
    "166": "BaBien",
    "168": "HIPOTECARIA FED",
    "600": "MONEXCB",
    "601": "GBM",
    "602": "MASARI",
    "605": "VALUE",
    "608": "VECTOR",
    "616": "FINAMEX",
    "617": "VALMEX",
    "620": "PROFUTURO",
    "630": "CB INTERCAM",
    "631": "CI BOLSA",
    "634": "FINCOMUN",
    "638": "Nu México",
    "646": "STP",
    "652": "CREDICAPITAL",
    "653": "KUSPIT",
    "656": "UNAGRA",
    "659": "ASP INTEGRA OPC",
    "661": "ALTERNATIVOS",
    "670": "LIBERTAD",
    "677": "CAJA POP MEXICA",
    "680": "CRISTOBAL COLON",
    "683": "CAJA TELEFONIST",
    "684": "TRANSFER",
    "685": "FONDO (FIRA)",
    "686": "INVERCAP",
    "688": "CREDICLUB",
    "689": "FOMPED",
    "706": "ARCUS",
    "710": "NVIO",
    "722": "Mercado Pago W",
    "723": "Cuenca",
    "901": "CLS",
    "902": "INDEVAL",
    "903": "CoDi Valida",
}


def check_digit(first17: str) -> int:
    total = sum((int(d) * WEIGHTS[i % 3]) % 10 for i, d in enumerate(first17))
    return (10 - total % 10) % 10


def validate(clabe: str) -> str:
    """The bank name of a valid CLABE; raises ValueError naming the broken rule."""
    if len(clabe) != 18 or not (clabe.isascii() and clabe.isdigit()):
        raise ValueError("must be a CLABE of 18 digits")
    if int(clabe[17]) != check_digit(clabe[:17]):
        raise ValueError("CLABE check digit is wrong")
    bank = BANKS.get(clabe[:3])
    if bank is None:
        raise ValueError(f"CLABE bank prefix {clabe[:3]} is not a known bank")
    return bank


def build(bank: str, plaza: str, account: str) -> str:
    """A CLABE from its bank prefix (3 digits), plaza (3) and account (11), with its check digit."""
    first17 = f"{bank}{plaza}{account}"
    if len(first17) != 17 or not (first17.isascii() and first17.isdigit()):
        raise ValueError("bank, plaza and account must be 3, 3 and 11 digits")
    return first17 + str(check_digit(first17))
