"""Instalments of a Brazilian card payment on the hosted checkout: which counts an amount is offered, and each one's amounts."""

from __future__ import annotations

from dataclasses import dataclass

# The provider's Brazilian card page takes `installments` (the API: 1 to 12); its instalment table
# (/trade/installments) has one stage per count. Brazilian stores offer up to 12x with each instalment
# no less than R$ 5,00 (below that the issuer's own minimum bites); the sandbox charges no interest.
CURRENCY = "BRL"
MAX_INSTALMENTS = 12
MIN_INSTALMENT_MINOR = 500


@dataclass(frozen=True)
class Instalment:
    """`count` instalments of `each_minor`; the last one is `last_minor` (it takes the cents a division leaves,
    so that the instalments add up to the amount exactly)."""

    count: int
    each_minor: int
    last_minor: int

    @property
    def even(self) -> bool:
        return self.each_minor == self.last_minor


def split(amount_minor: int, count: int) -> Instalment:
    each = amount_minor // count
    return Instalment(count, each, amount_minor - each * (count - 1))


def plan(amount_minor: int, currency: str) -> list[Instalment]:
    """The counts offered for an amount: 1 always; more for BRL, up to 12, while every instalment stays at
    least R$ 5,00. Nothing for another currency (its card pages take no instalments)."""
    if currency != CURRENCY:
        return []
    return [
        split(amount_minor, count)
        for count in range(1, MAX_INSTALMENTS + 1)
        if count == 1 or amount_minor // count >= MIN_INSTALMENT_MINOR
    ]


def offered(amount_minor: int, currency: str, count: int) -> bool:
    return count == 1 or any(option.count == count for option in plan(amount_minor, currency))
