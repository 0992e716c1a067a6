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
    "TRANSFIYA": Fee(Decimal("0.50"), Decimal("1.0")),
    "WALLET": Fee(Decimal("0.30"), Decimal("1.5")),
}

# Sandbox taxes by country, as a percentage, shaped after each country's own (the sandbox's values, not
# advice): on the gross amount, IOF in Brazil and ITF in Peru; on the fee, the VAT of Mexico, Argentina,
# Guatemala, Uruguay and Turkey. Colombia, Chile, Ecuador, Panama, Russia and the external wallets: none.
GROSS_TAX = {"BRA": Decimal("0.38"), "PER": Decimal("0.005")}
FEE_TAX = {"MEX": Decimal("16"), "ARG": Decimal("21"), "GTM": Decimal("12"), "URY": Decimal("22"), "TUR": Decimal("20")}
