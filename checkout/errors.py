"""The domain's error taxonomy: what a service raises when it refuses a request (nothing is written).

Services raise these and never an envelope's codes: `checkout.api.registry` maps each `reason` to the
payin envelope (code, sub_code, HTTP status) and to the payout envelope (code, msg, data, HTTP status).
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A refusal. `reason` is the stable key the registry maps (it is also the payin sub_code)."""

    default_reason: ClassVar[str] = "business-failed"

    def __init__(
        self, message: str, *, reason: str | None = None, data: dict[str, Any] | None = None, hint: str | None = None
    ):
        super().__init__(message)
        self.message = message
        self.reason = reason or self.default_reason
        self.data = data or {}
        # What to do instead, where the envelope's own fields must stay the provider's words (see registry).
        self.hint = hint


# A field's dotted name and the rule it breaks ("is required" for an absent one).
Problem = tuple[str, str]


class InvalidField(DomainError):
    """One field breaks a rule; `field` is its dotted name. `problems` lists every field found at fault, this
    one first (a request validated at once reports them all)."""

    default_reason = "invalid-parameter"

    def __init__(
        self,
        field: str,
        rule: str,
        *,
        reason: str | None = None,
        message: str | None = None,
        problems: tuple[Problem, ...] = (),
    ):
        super().__init__(message or f"{field}: {rule}", reason=reason)
        self.field, self.rule = field, rule
        self.problems = problems or ((field, rule),)


class MissingField(DomainError):
    """A required field (or the body itself) is absent; `problems` as for InvalidField."""

    default_reason = "missing-arguments"

    def __init__(
        self,
        field: str,
        *,
        message: str | None = None,
        reason: str | None = None,
        problems: tuple[Problem, ...] = (),
    ):
        super().__init__(message or f"missing required argument: {field}", reason=reason)
        self.field, self.rule = field, "is required"
        self.problems = problems or ((field, self.rule),)


def missing_fields(fields: list[str] | tuple[str, ...]) -> MissingField:
    """Several absent fields reported at once; the first is the error's `field`."""
    noun = "argument" if len(fields) == 1 else "arguments"
    return MissingField(
        fields[0],
        message=f"missing required {noun}: " + ", ".join(fields),
        problems=tuple((field, "is required") for field in fields),
    )


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
    """The credentials or the signature do not identify a merchant. The message says what to send instead and
    never how close a key or signature came."""

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
