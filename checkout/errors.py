"""The domain's error taxonomy: what a service raises when it refuses a request (nothing is written).

Services raise these and never an envelope's codes: `checkout.api.registry` maps each `reason` to the
payin envelope (code, sub_code, HTTP status) and to the payout envelope (code, msg, data, HTTP status).
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A refusal. `reason` is the stable key the registry maps (it is also the payin sub_code)."""

    default_reason: ClassVar[str] = "business-failed"

    def __init__(self, message: str, *, reason: str | None = None, data: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.reason = reason or self.default_reason
        self.data = data or {}


class InvalidField(DomainError):
    """One field breaks a rule; `field` is its dotted name."""

    default_reason = "invalid-parameter"

    def __init__(self, field: str, rule: str, *, reason: str | None = None):
        super().__init__(f"{field}: {rule}", reason=reason)
        self.field, self.rule = field, rule


class MissingField(DomainError):
    """A required field (or the body itself) is absent."""

    default_reason = "missing-arguments"

    def __init__(self, field: str, *, message: str | None = None, reason: str | None = None):
        super().__init__(message or f"missing required argument: {field}", reason=reason)
        self.field, self.rule = field, "is required"


class NotFound(DomainError):
    """The merchant has no such record (trade, vault, payout, delivery)."""

    default_reason = "not-found"


class Duplicate(DomainError):
    """A merchant's identifier that must be unique is used again."""

    default_reason = "duplicate"


class IllegalState(DomainError):
    """The record exists but its status does not allow the operation."""

    default_reason = "illegal-state"


class Unauthorized(DomainError):
    """The credentials or the signature do not identify a merchant."""

    default_reason = "invalid-signature"


class Expired(DomainError):
    """The request was signed too long ago (or too far ahead) of the server's clock."""

    default_reason = "request-expired"


class Refused(DomainError):
    """The request is well formed but cannot be done now (insufficient balance, ...)."""

    default_reason = "business-failed"


class Malformed(DomainError):
    """The body is not one usable JSON object (not JSON, too large, empty, unstorable text)."""

    default_reason = "invalid-json"

    def __init__(self, message: str, *, field: str = "body", reason: str | None = None):
        super().__init__(message, reason=reason)
        self.field = field
