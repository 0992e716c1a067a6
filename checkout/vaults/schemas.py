"""The vault command (what the vault service takes, every field rule declared once), and the request and
response models of /vault/create and /vault/void."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from ..brazil.documents import brazilian_document
from ..validation import (
    COMMAND_CONFIG,
    Alpha3,
    Amount,
    Fixed,
    HttpUrl,
    IsoDate,
    OptText,
    PayinRequest,
    Text,
)

PLAN_AMOUNT = Annotated[Decimal, Amount("0.01", "9999999")]


class CardTokenBlock(BaseModel):
    model_config = COMMAND_CONFIG
    region: Alpha3
    method: Annotated[str, Fixed("CreditCard")]
    uid: Annotated[str, Text(64)]
    token: Annotated[str, Text(64)]
    notify_url: HttpUrl


class Plan(BaseModel):
    model_config = COMMAND_CONFIG
    internal: Literal["1W", "1M", "3M", "6M", "1Y"]
    start_date: IsoDate
    end_date: IsoDate
    minimum_amount: PLAN_AMOUNT
    maximum_amount: PLAN_AMOUNT

    @model_validator(mode="after")
    def _ranges(self):
        if self.end_date <= self.start_date:
            raise ValueError("end_date must be after start_date")
        if self.minimum_amount > self.maximum_amount:
            raise ValueError("minimum_amount must not exceed maximum_amount")
        return self


class Identification(BaseModel):
    model_config = COMMAND_CONFIG
    type: Literal["CPF", "CNPJ"]
    number: Annotated[str, Text(14)]

    @model_validator(mode="after")
    def _check_digits(self):
        size = 11 if self.type == "CPF" else 14
        if not brazilian_document(self.type, self.number):
            raise ValueError(f"number must be a valid {self.type} of {size} digits")
        return self


class PixCustomer(BaseModel):
    model_config = COMMAND_CONFIG
    identification: Identification
    name: Annotated[str, Text(128)]


class PixBlock(BaseModel):
    model_config = COMMAND_CONFIG
    region: Annotated[str, Fixed("BRA")]
    method: Annotated[str, Fixed("PIXAutomatic")]
    uid: Annotated[str, Text(64)]
    plan: Plan
    customer: PixCustomer


class NewVault(BaseModel):
    """A vault to create. It carries the interface's fixed `version` too, first as the interface lists it:
    a request's fields keep that order, which decides the missing field a refusal names first."""

    model_config = COMMAND_CONFIG
    version: Annotated[str, Fixed("2.0")]
    type: Literal["Card", "pix"]
    card_token: CardTokenBlock | None = None
    pix: PixBlock | None = None
    # Extensions: where the hosted page sends the customer back, (pix) where vault results go, and
    # what the customer is agreeing to pay for, shown on the hosted page.
    return_url: HttpUrl | None = None
    notify_url: HttpUrl | None = None
    subject: Annotated[str | None, OptText(128)] = None


class VaultCreateRequest(NewVault, PayinRequest):
    pass


class VaultVoidRequest(PayinRequest):
    version: Annotated[str, Fixed("2.0")]
    type: Annotated[str, Fixed("Card")]
    vault_token: Annotated[str, Text(64)]


# --- responses -------------------------------------------------------------------------------------


class VaultCardTokenBlock(BaseModel):
    region: str
    method: str
    uid: str
    token: str
    notify_url: str | None


class VaultCard(BaseModel):
    brand: str
    first_six_digits: str
    last_four_digits: str


class VaultPlan(BaseModel):
    internal: str
    start_date: str
    end_date: str
    minimum_amount: str
    maximum_amount: str


class VaultIdentification(BaseModel):
    type: str
    number: str


class VaultPixCustomer(BaseModel):
    name: str
    identification: VaultIdentification


class VaultPixBlock(BaseModel):
    region: str
    method: str
    uid: str
    plan: VaultPlan
    customer: VaultPixCustomer


class VaultCreateResponse(BaseModel):
    token: str
    type: str
    vault_status: str
    card_token: VaultCardTokenBlock | None = Field(None, description="Card vaults")
    card: VaultCard | None = Field(None, description="Card vaults")
    pix: VaultPixBlock | None = Field(None, description="pix vaults")
    timestamp: str
    checkout_url: str


class VaultVoidResponse(BaseModel):
    token: str
    type: str
    vault_status: str
    timestamp: str
