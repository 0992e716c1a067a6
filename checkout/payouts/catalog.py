"""The sandbox's payout fee and tax tables (countries, methods and currencies: corridors)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Fee:
    fixed: Decimal  # in the source currency's units
    percent: Decimal  # of the gross source amount


FEES: dict[str, Fee] = {
    "PIX": Fee(Decimal("0.50"), Decimal("0.5")),
    "BANKTRANSFER": Fee(Decimal("1.00"), Decimal("0.5")),
    "QRCODE": Fee(Decimal("0.50"), Decimal("0.5")),
    "SPEI": Fee(Decimal("0.75"), Decimal("0.6")),
    "CASH": Fee(Decimal("1.50"), Decimal("1.0")),
    "CASHPICKUP": Fee(Decimal("2.00"), Decimal("1.0")),
    "CASHOUT": Fee(Decimal("1.50"), Decimal("1.0")),
    "WALLET": Fee(Decimal("0.30"), Decimal("1.5")),
}

# Taxes by country, as a percentage: IOF on the gross amount in Brazil, IVA on the fee in Mexico.
GROSS_TAX = {"BRA": Decimal("0.38")}
FEE_TAX = {"MEX": Decimal("16")}
