"""The one operation layer: authentication, body, validation, transaction and envelope around a view.

A payin and a payout operation differ only in their `Envelope` (envelopes.py): how the merchant is
authenticated, how an unusable body is reported, and how success and errors are wrapped (errors through
the registry). Validation reports every field at fault at once.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, g, request
from pydantic import BaseModel, ValidationError

from .. import clock
from ..db import db
from ..errors import DomainError, InvalidField, MissingField, Problem, Unauthorized
from . import openapi, requestlog
from .envelopes import PAYIN, PAYOUT, Envelope, check_fresh

log = logging.getLogger(__name__)

__all__ = ["PAYIN", "PAYOUT", "Envelope", "check_fresh", "operation", "parse_model", "validation_error"]

View = Callable[..., Any]


# At most this many fields are named in one answer (a long array's items could fault by the thousand).
MAX_LISTED = 20


def _problems(exc: ValidationError, also_missing: list[str]) -> tuple[list[Problem], list[Problem]]:
    """Every field pydantic found at fault, once each, and `also_missing` after the missing ones: (missing,
    invalid), each in the model's order."""
    missing: list[Problem] = []
    invalid: list[Problem] = []
    seen: set[str] = set()
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"] if not str(part).startswith("function-")) or "body"
        if field not in seen:
            seen.add(field)
            if error["type"] == "missing":
                missing.append((field, "is required"))
            else:
                invalid.append((field, error["msg"].removeprefix("Value error, ")))
    # Only beside the model's own missing fields: a body the model refuses for invalid fields alone answers
    # those, as before the method's checks run.
    if missing:
        missing += [(field, "is required") for field in also_missing if field not in seen]
    return missing, invalid


def validation_error(exc: ValidationError, also_missing: list[str] | None = None) -> DomainError:
    """Every problem pydantic found, reported at once; the error is of the first one's kind (missing fields
    first), so its code and sub_code stay what a single problem answers. `also_missing`: fields the model
    requires only in some cases (a method's own), which pydantic does not report."""
    missing, invalid = _problems(exc, also_missing or [])
    problems = [*missing, *invalid][:MAX_LISTED]
    named_missing = [field for field, rule in problems if (field, rule) in missing]
    named_invalid = [problem for problem in problems if problem in invalid]
    parts = []
    if named_missing:
        noun = "argument" if len(named_missing) == 1 else "arguments"
        parts.append(f"missing required {noun}: " + ", ".join(named_missing))
    parts += [f"{field}: {rule}" for field, rule in named_invalid]
    left = len(missing) + len(invalid) - len(problems)
    message = "; ".join(parts) + (f"; and {left} more" if left else "")
    field, rule = problems[0]
    if missing:
        return MissingField(field, message=message, problems=tuple(problems))
    return InvalidField(field, rule, message=message, problems=tuple(problems))


def parse_model(model: type[BaseModel], body: dict) -> BaseModel:
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        also_missing = getattr(model, "also_missing", None)
        raise validation_error(exc, also_missing(body) if also_missing else None) from None


def _finished(finish: Callable[[Any], Any], fields: Any) -> Any:
    """The answer completed after the commit; what was committed stands if that fails (the merchant's retry
    would meet a duplicate): the answer goes without what `finish` adds, and the failure is logged."""
    try:
        return finish(fields)
    except Exception:
        log.exception("could not complete the answer to %s %s after its commit", request.method, request.path)
        return fields


def logged(endpoint: View) -> View:
    """The request log around an operation: one row per request whose credentials name a known merchant
    (a wrong key or signature included), refused or not, written after the request's own commit or rollback
    (RequestLog.record never raises). A request naming no merchant has no log to go to: the server log's
    "refused" line records it."""

    @functools.wraps(endpoint)
    def wrapper(**kwargs: str) -> Any:
        started = time.perf_counter()
        try:
            answer = endpoint(**kwargs)
        except Exception:
            _record(started, 500, b"")
            raise
        response, status = answer if isinstance(answer, tuple) else (answer, answer.status_code)
        _record(started, status, response.get_data())
        return answer

    return wrapper


def _record(started: float, status: int, response_body: bytes) -> None:
    merchant_id = g.pop("api_merchant_id", None)
    if merchant_id is None:
        return
    try:
        request_body = request.get_data(cache=True)
    except Exception:  # a body too large to read was refused before: it is not kept
        request_body = b""
    requestlog.of(current_app).record(
        merchant_id=merchant_id,
        method=request.method,
        path=request.path,
        status=status,
        duration_ms=round((time.perf_counter() - started) * 1000),
        request_body=request_body,
        response_body=response_body,
    )


def operation(
    bp: Blueprint,
    rule: str,
    model: type[BaseModel] | None,
    *,
    envelope: Envelope = PAYIN,
    summary: str,
    response: type[BaseModel] | None = None,
    methods: tuple[str, ...] = ("POST",),
    tag: str | None = None,
    choose: Callable[[dict], type[BaseModel]] | None = None,
    alternatives: tuple[type[BaseModel], ...] = (),
    body_optional: bool = False,
    read_only: bool = False,
    one_statement: bool = False,
    query: dict[str, dict] | None = None,
    finish: Callable[[Any], Any] | None = None,
) -> Callable[[View], View]:
    """Register an operation: auth, body, validation and envelope around `view(merchant, req)`.

    The view returns the response fields (payin) or `data` (payout); the transaction commits only when
    it succeeds. Where one path takes several request shapes, `choose` picks the model from the body. A
    `read_only` operation never writes (on SQLite it then takes no write lock); a `one_statement` one also
    reads with a single statement, which needs no transaction around it (see Database.read_only). `query`
    documents the optional query parameters the view reads (name -> JSON schema); `response` the success
    fields, for /openapi.json. `finish` completes a successful answer after the commit, with no transaction
    (on SQLite, no write lock) held: work derived from what was stored, such as drawing an image.
    """

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def endpoint(**kwargs: str) -> Any:
            if read_only:
                db.read_only(one_statement=one_statement)
            session = db.session
            try:
                body: dict | None = None
                if envelope.authenticates_first:
                    merchant = envelope.authenticate(None, session, attach=not read_only)
                else:
                    try:
                        body = envelope.read_body()
                    except DomainError:
                        envelope.claimed(session)  # an unusable body is logged under the merchant it names
                        raise
                    merchant = envelope.authenticate(body, session, attach=not read_only)
                g.api_merchant_id = merchant.id  # the request is logged under it (see `logged`)
                # The rest of the request runs on this merchant's clock (teardown puts the thread back).
                clock.set_merchant(merchant.id)
                if any("\x00" in value for value in kwargs.values()):
                    raise InvalidField("path", "must not contain NUL characters")
                if model is None:
                    fields = view(merchant, **kwargs)
                else:
                    if body is None:
                        empty = body_optional and not request.get_data(cache=True).strip()
                        body = {} if empty else envelope.read_body()
                    req = parse_model(choose(body) if choose else model, body)
                    if getattr(req, "app_id", merchant.app_id) != merchant.app_id:
                        raise Unauthorized(
                            "the body's app_id differs from the Authorization header's: send the same app_id in both",
                            reason="app-not-match",
                        )
                    fields = view(merchant, req, **kwargs)
                if not read_only:  # a read-only one ends when the session closes, with nothing to commit
                    session.commit()
                if finish is not None:
                    fields = _finished(finish, fields)
            except DomainError as error:
                session.rollback()
                # One line per refused request, whatever it carried (the message is ours, and bounded).
                log.info("refused %s %s: %s", request.method, request.path, str(error)[:200])
                return envelope.failure(error)
            except Exception:
                session.rollback()
                raise
            return envelope.success(fields)

        # Documented on the view function itself: the app finds it under whatever endpoint name the route
        # gets once registered (a nested blueprint's endpoints carry their parents' names).
        served = logged(endpoint)
        openapi.describe(
            served,
            alternatives or model,
            summary=summary,
            tag=tag or envelope.tag,
            query=query,
            response=response,
        )
        bp.add_url_rule(rule, view.__name__, served, methods=list(methods))
        return endpoint

    return decorate
