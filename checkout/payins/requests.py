"""Request models of the payin operations: the envelope's app_id and timestamp around a command."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StrictInt

from ..validation import REQUEST_CONFIG, Alpha3, Fixed, OptText, PayinRequest, Text
from .schemas import Capture, DirectPayment, HostedCheckout, PreAuthorization, RefundOrder, VaultPayment, Void

# Each request is its command (listed first, so that the envelope's fields come first, as the interface
# lists them), plus what only the API reads. A route hands the request itself to the service, as the command.

# --- card tokenization ---------------------------------------------------------------------------


class Holder(BaseModel):
    model_config = REQUEST_CONFIG
    name: Annotated[str, Text(128)]


class Card(BaseModel):
    model_config = REQUEST_CONFIG
    card_no: Annotated[str, Text(19)]
    cvv: Annotated[str, Text(4)]
    valid_thru_year: Annotated[str | StrictInt, Field(description="4 digits (2 accepted)")]
    valid_thru_month: Annotated[str | StrictInt, Field(description="1 to 12")]
    holder: Holder


class CardTokenRequest(PayinRequest):
    card: Card


class CardSessionRequest(PayinRequest):
    """Extension: a hosted card-entry page for merchants that must not see card numbers."""

    country: Alpha3 | None = None  # picks the page's language (BRA, MEX) when the browser's is not wanted


# --- payments --------------------------------------------------------------------------------------


class PreAuthorizationRequest(PreAuthorization, PayinRequest):
    pass


class VaultPayRequest(VaultPayment, PayinRequest):
    pass


class DirectPayRequest(DirectPayment, PayinRequest):
    pass


class HostedCheckoutRequest(HostedCheckout, PayinRequest):
    """The provider's "checkout page (general)" request, with trade_type WEB or API."""


# --- refunds, capture, void and queries ------------------------------------------------------------


class RefundRequest(RefundOrder, PayinRequest):
    pass


class CaptureRequest(Capture, PayinRequest):
    version: Annotated[str, Fixed("2.0")] | None = None


class VoidRequest(Void, PayinRequest):
    version: Annotated[str, Fixed("2.0")] | None = None


class QueryRequest(PayinRequest):
    trade_no: Annotated[str | None, OptText(64)] = None
    out_trade_no: Annotated[str | None, OptText(64)] = None


class BankListRequest(PayinRequest):
    method: Literal["DepositExpress", "Cash", "BankTransfer", "Khipu", "OpenFinance"]
