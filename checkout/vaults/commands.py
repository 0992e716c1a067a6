"""What the vault service takes: plain typed inputs, already validated by the API's request models."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class CardTokenBlock:
    region: str
    uid: str
    token: str
    notify_url: str


@dataclass(frozen=True)
class Plan:
    internal: str
    start_date: date
    end_date: date
    minimum_amount: Decimal
    maximum_amount: Decimal


@dataclass(frozen=True)
class Identification:
    type: str
    number: str


@dataclass(frozen=True)
class PixCustomer:
    identification: Identification
    name: str


@dataclass(frozen=True)
class PixBlock:
    region: str
    uid: str
    plan: Plan
    customer: PixCustomer


@dataclass(frozen=True)
class NewVault:
    type: str
    card_token: CardTokenBlock | None
    pix: PixBlock | None
    return_url: str | None
    notify_url: str | None
    subject: str | None
