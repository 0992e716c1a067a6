"""Request models of /vault/create and /vault/void."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, model_validator

from ..payins.schemas import Request
from ..validation import REQUEST_CONFIG, Alpha3, Amount, Fixed, HttpUrl, IsoDate, OptText, Text, brazilian_document

PLAN_AMOUNT = Amount("0.01", "9999999")


class CardTokenBlock(BaseModel):
    model_config = REQUEST_CONFIG
    region: Alpha3
    method: Fixed("CreditCard")
    uid: Text(64)
    token: Text(64)
    notify_url: HttpUrl


class Plan(BaseModel):
    model_config = REQUEST_CONFIG
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
    model_config = REQUEST_CONFIG
    type: Literal["CPF", "CNPJ"]
    number: Text(14)

    @model_validator(mode="after")
    def _check_digits(self):
        size = 11 if self.type == "CPF" else 14
        if not brazilian_document(self.type, self.number):
            raise ValueError(f"number must be a valid {self.type} of {size} digits")
        return self


class PixCustomer(BaseModel):
    model_config = REQUEST_CONFIG
    identification: Identification
    name: Text(128)


class PixBlock(BaseModel):
    model_config = REQUEST_CONFIG
    region: Fixed("BRA")
    method: Fixed("PIXAutomatic")
    uid: Text(64)
    plan: Plan
    customer: PixCustomer


class VaultCreateRequest(Request):
    version: Fixed("2.0")
    type: Literal["Card", "pix"]
    card_token: CardTokenBlock | None = None
    pix: PixBlock | None = None
    # Extensions: where the hosted page sends the customer back, (pix) where vault results go, and
    # what the customer is agreeing to pay for, shown on the hosted page.
    return_url: HttpUrl | None = None
    notify_url: HttpUrl | None = None
    subject: OptText(128) = None


class VaultVoidRequest(Request):
    version: Fixed("2.0")
    type: Fixed("Card")
    vault_token: Text(64)
