"""What the virtual SPEI services take: plain typed inputs, already validated by the API's request models."""

from __future__ import annotations

from dataclasses import dataclass

# Field names are the provider's, so `validation.command()` fills them from the request model.


@dataclass(frozen=True)
class Identify:
    type: str  # RFC or CURP, upper case
    number: str


@dataclass(frozen=True)
class Customer:
    buyer_id: str
    name: str
    email: str
    identify: Identify


@dataclass(frozen=True)
class NewAccount:
    notify_url: str
    customer: Customer
