"""CLABE, Mexico's 18-digit interbank account number: bank prefix, check digit."""

from __future__ import annotations

WEIGHTS = (3, 7, 1)

# Bank prefixes (first three digits) of the banks SPEI payouts reach in the sandbox.
BANKS = {
    "002": "Banamex",
    "012": "BBVA México",
    "014": "Santander",
    "021": "HSBC",
    "030": "BanBajío",
    "036": "Inbursa",
    "044": "Scotiabank",
    "058": "Banregio",
    "072": "Banorte",
    "127": "Banco Azteca",
    "137": "BanCoppel",
    "638": "Nu México",
    "646": "STP",
    "722": "Mercado Pago W",
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
