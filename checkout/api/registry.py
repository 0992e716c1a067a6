"""The one error registry: every reason a service may refuse with, and its answer in each envelope.

The payin envelope answers `code` (a string), `sub_code` (the reason, unless an entry names another)
and `sub_msg`; the payout envelope answers an integer `code`, `msg` and `data` (and `hint`, see
`payout_hint`). The docs' error tables
and the error responses of /openapi.json are generated from `REASONS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .. import errors
from ..errors import DomainError

PAYIN_MESSAGES = {
    "10000": "Success",
    "40001": "Missing Required Arguments",
    "40002": "Business Failed",
    "20000": "Service Currently Unavailable",
}

# What the payout envelope's `data` carries: the message under "err" or "error", the error's own data, nothing.
PayoutData = Literal["err", "error", "data", "empty"]


@dataclass(frozen=True)
class PayinAnswer:
    code: str = "40002"
    status: int = 400
    sub_code: str | None = None  # None: the reason itself


@dataclass(frozen=True)
class PayoutAnswer:
    code: int = 4001000
    msg: str = "invalid parameter"
    status: int = 400
    data: PayoutData = "err"


@dataclass(frozen=True)
class Reason:
    key: str
    kind: type[DomainError]
    meaning: str
    payin: PayinAnswer | None = PayinAnswer()
    payout: PayoutAnswer | None = None  # None: not raised by a payout operation


_INVALID = PayoutAnswer()

REASONS: tuple[Reason, ...] = (
    Reason("missing-arguments", errors.MissingField, "a required field is absent", PayinAnswer("40001"), _INVALID),
    Reason("invalid-parameter", errors.InvalidField, "a field breaks its rule (sub_msg names both)", payout=_INVALID),
    Reason("invalid-json", errors.Malformed, "the body is not a JSON object", payout=_INVALID),
    Reason("request-too-large", errors.Malformed, "the body exceeds 1 MiB", PayinAnswer(status=413), _INVALID),
    # Authentication: the provider's codes; sub_msg (payin) or `hint` (payout) says what to send instead.
    Reason(
        "missing-signature-config",
        errors.Unauthorized,
        "no Authorization header, or not HTTP Basic base64(app_id:security_key)",
    ),
    Reason(
        "invalid-signature",
        errors.Unauthorized,
        "an unknown app_id, a wrong security_key (payin) or app_key signature (payout)",
        payout=PayoutAnswer(4004003, "permission denied", 401, "empty"),
    ),
    Reason("app-not-match", errors.Unauthorized, "the body's app_id differs from the Authorization header's"),
    Reason(
        "missing-app-id",
        errors.Unauthorized,
        "a payout request without the AppId (or MerchantId) header",
        None,
        PayoutAnswer(4004100, "MerchantId or AppId is required", 401, "empty"),
    ),
    Reason(
        "missing-authorization",
        errors.Unauthorized,
        "a payout request without the Authorization (signature) header",
        None,
        PayoutAnswer(4004101, "Authorization is required", 401, "empty"),
    ),
    Reason(
        "request-expired",
        errors.Expired,
        "a detail or list request's timestamp is too far from server time (15 s, 300 s)",
        payout=PayoutAnswer(4001009, "request has expired", data="empty"),
    ),
    Reason(
        "invalid-start_time",
        errors.InvalidField,
        "a payout list's start_time is after its end_time",
        None,
        PayoutAnswer(4001008, "invalid start_time"),
    ),
    Reason(
        "time-range-too-long",
        errors.InvalidField,
        "a payout list's period exceeds 31 days",
        None,
        PayoutAnswer(4001012, "time range must in 31 days"),
    ),
    Reason("duplicate-out_trade_no", errors.Duplicate, "out_trade_no was used before"),
    Reason("duplicate-out_request_no", errors.Duplicate, "a refund with this out_request_no is in progress"),
    Reason(
        "duplicate-custom_code",
        errors.Duplicate,
        "custom_code was used before, by a payout (data.payout_id) or a checkout session (data.err)",
        None,
        PayoutAnswer(4001010, "order already existed", data="data"),
    ),
    Reason("invalid-card-token", errors.InvalidField, "the card token is unknown or expired"),
    Reason("trade-not-exist", errors.NotFound, "no such trade"),
    Reason("vault-not-exist", errors.NotFound, "no such vault"),
    Reason(
        "payout-not-exist",
        errors.NotFound,
        "no such payout",
        payout=PayoutAnswer(400, "can not find this payout order", data="empty"),
    ),
    Reason("delivery-not-exist", errors.NotFound, "no such notification delivery"),
    Reason(
        "payout-reference-missing",
        errors.MissingField,
        "a status request names neither payout_id nor custom_code",
        PayinAnswer("40001", sub_code="missing-arguments"),
        PayoutAnswer(400, "invalid parameters", data="error"),
    ),
    Reason("trade-status-invalid", errors.IllegalState, "the trade's status does not allow the operation"),
    Reason("trade-expired", errors.IllegalState, "the trade expired before it was paid"),
    Reason("method-not-payable", errors.IllegalState, "the method's trades are not paid by the customer this way"),
    Reason("refund-amount-exceeded", errors.IllegalState, "refund_amount exceeds the refundable amount"),
    Reason(
        "refund-not-supported",
        errors.IllegalState,
        "the payment's method does not take refunds (or only in full), as the provider's summary lists",
    ),
    Reason("capture-amount-exceeded", errors.IllegalState, "a capture's amount exceeds the authorized amount"),
    Reason("authorization-refused", errors.IllegalState, "the acquirer refused to capture or void the authorization"),
    Reason("vault-not-active", errors.IllegalState, "the vault is not ACTIVE"),
    Reason("vault-not-pending", errors.IllegalState, "the vault was already decided"),
    Reason("vault-expired", errors.IllegalState, "the vault's authorization session expired"),
    Reason("payout-status-invalid", errors.IllegalState, "the payout's status does not allow the operation"),
    Reason("account-pool-run-out", errors.Refused, "the merchant's pool of virtual SPEI accounts is used up"),
    Reason("account-not-exist", errors.NotFound, "no such virtual SPEI account (account_id, or a transfer's CLABE)"),
    Reason("account-not-active", errors.IllegalState, "the virtual SPEI account is CANCELED"),
    Reason(
        "duplicate-buyer_id",
        errors.Duplicate,
        "a virtual SPEI create for a customer whose ACTIVE account was opened with other details",
    ),
    Reason("delivery-busy", errors.IllegalState, "a worker is sending this delivery right now"),
    Reason(
        "insufficient-balance",
        errors.Refused,
        "the source balance does not cover the payout; nothing is written (HTTP 500, as the provider answers it)",
        None,
        PayoutAnswer(5001102, "balance insufficient", 500),
    ),
    # Answered by the error handlers, not raised by services:
    Reason("not-found", DomainError, "no operation at this path (HTTP 404)", PayinAnswer(status=404)),
    Reason(
        "method-not-allowed",
        DomainError,
        "the path takes another method (HTTP 405, Allow names it)",
        PayinAnswer(status=405),
    ),
    Reason("http-error", DomainError, "another HTTP-level refusal", PayinAnswer()),
    Reason(
        "system-error",
        DomainError,
        "an unexpected fault; nothing was written (HTTP 500)",
        PayinAnswer("20000", 500),
        PayoutAnswer(500, "system error", 500, "error"),
    ),
)

BY_KEY: dict[str, Reason] = {reason.key: reason for reason in REASONS}
_DEFAULT = Reason("business-failed", DomainError, "refused", PayinAnswer(), _INVALID)


def lookup(error: DomainError) -> Reason:
    return BY_KEY.get(error.reason, _DEFAULT)


def _field_text(error: DomainError) -> str:
    """What the payout envelope reports: `field: rule` for a field, the message otherwise."""
    if isinstance(error, errors.InvalidField | errors.MissingField):
        return "; ".join(f"{field}: {rule}" for field, rule in error.problems)
    if isinstance(error, errors.Malformed):
        return f"{error.field}: {error.message}"
    return error.message


def payin_answer(error: DomainError) -> tuple[dict[str, str], int]:
    """The payin error body and HTTP status."""
    answer = lookup(error).payin or PayinAnswer()
    body = {
        "code": answer.code,
        "msg": PAYIN_MESSAGES.get(answer.code, "Business Failed"),
        "sub_code": answer.sub_code or error.reason,
        "sub_msg": error.message,
    }
    return body, answer.status


def payout_answer(error: DomainError) -> tuple[int, str, dict[str, Any], int]:
    """The payout envelope's code, msg, data, and the HTTP status."""
    answer = lookup(error).payout or _INVALID
    data: dict[str, Any] = {
        "err": {"err": _field_text(error)},
        "error": {"error": error.message},
        "data": error.data,
        "empty": {},
    }[answer.data]
    return answer.code, answer.msg, data, answer.status


def payout_hint(error: DomainError) -> str | None:
    """The payout envelope's `hint`, an extension: what to send instead, for the refusals whose code, msg and
    data stay the provider's exact words (credentials, signature, a stale timestamp)."""
    if isinstance(error, errors.Unauthorized | errors.Expired):
        return error.hint or error.message
    return error.hint
