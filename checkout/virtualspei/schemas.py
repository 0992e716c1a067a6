"""The virtual SPEI command (what opening an account takes, every field rule declared once), and the request
and response models of the virtual SPEI operations."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, Field, ValidationInfo, WithJsonSchema, field_validator

from ..validation import COMMAND_CONFIG, Email, HttpUrl, OptText, PayinRequest, Text

# The create page: "RFC or CURP"; "13 chars, ex: MAMB780915969; CURP: 18 chars" (letters and digits; an RFC
# may hold "&", as a company's name does).
DOCUMENTS = {"RFC": re.compile(r"[A-Za-z0-9&]{13}"), "CURP": re.compile(r"[A-Za-z0-9]{18}")}


def _document_type(value: object) -> object:
    """RFC or CURP in any case, kept in the page's (upper) case; any other string, the empty one too, breaks
    that rule (as an empty required string is answered across the payin API: 40002, not a missing field)."""
    if isinstance(value, str) and value.upper() in DOCUMENTS:
        return value.upper()
    if isinstance(value, str):
        raise ValueError("must be RFC or CURP")
    return value


DocumentType = Annotated[
    str,
    BeforeValidator(_document_type),
    Text(4),
    WithJsonSchema({"type": "string", "pattern": "^([Rr][Ff][Cc]|[Cc][Uu][Rr][Pp])$", "description": "RFC or CURP"}),
]


class Identify(BaseModel):
    model_config = COMMAND_CONFIG
    type: DocumentType
    number: Annotated[str, Text(18), Field(description="RFC: 13 characters; CURP: 18")]

    @field_validator("number")
    @classmethod
    def _number(cls, number: str, info: ValidationInfo) -> str:
        kind = info.data.get("type")
        form = DOCUMENTS.get(kind or "")
        if form is not None and not (number.isascii() and form.fullmatch(number)):
            raise ValueError(f"must be a valid {kind} ({13 if kind == 'RFC' else 18} letters and digits)")
        return number


class Customer(BaseModel):
    model_config = COMMAND_CONFIG
    buyer_id: Annotated[str, Text(64)]
    name: Annotated[str, Text(128)]
    email: Annotated[str, Email(128)]
    identify: Identify


class NewAccount(BaseModel):
    model_config = COMMAND_CONFIG
    notify_url: HttpUrl
    customer: Customer


class CreateRequest(NewAccount, PayinRequest):
    pass


class AccountRequest(PayinRequest):
    account_id: Annotated[str, Text(32)]


class UsageRequest(PayinRequest):
    account_id: Annotated[str | None, OptText(32), Field(description="ours: only this account's transfers")] = None


# --- responses -------------------------------------------------------------------------------------


class AccountResponse(BaseModel):
    """The provider's fields in its example's order, then ours."""

    account_id: str
    account_number: str = Field(description="the CLABE: 18 digits")
    buyer_id: str
    provider: str = Field(description="the CLABE's bank: STP")
    status: str = Field(description="ACTIVE or CANCELED")
    beneficiary_name: str = Field(description="the account holder a paying bank shows")
    notify_url: str
    create_time: str = Field(description="ours: yyyy-MM-dd HH:mm:ss, UTC")
    update_time: str = Field(description="ours: yyyy-MM-dd HH:mm:ss, UTC")
    transfer_url: str | None = Field(
        None, description="ours, sandbox only: the page where this account's customer transfers to its CLABE"
    )


class ReceivedTransfer(BaseModel):
    account_id: str
    account_number: str
    trade_no: str
    out_trade_no: str = Field(description="the transfer's tracking key (clave de rastreo)")
    trade_status: str
    amount: str
    currency: str
    transfer_timestamp: int = Field(description="unix seconds")
    transfer_time: str = Field(description="yyyy-MM-dd HH:mm:ss, UTC")


class UsageResponse(BaseModel):
    used: int = Field(description="accounts opened from the merchant's pool (cancelled ones included)")
    unused: int = Field(description="accounts the pool still has")
    transfers: list[ReceivedTransfer] = Field(description="ours: the last 100 transfers received, newest first")
