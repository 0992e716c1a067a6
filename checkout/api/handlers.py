"""Error answers in the envelope of the API a request was for; never Flask's HTML error page."""

from __future__ import annotations

import logging
from collections.abc import Callable

from flask import Flask, Response, current_app, make_response, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..errors import DomainError
from .operation import PAYIN, PAYOUT

log = logging.getLogger(__name__)

PAYOUT_PREFIX = "/api/"

# The answer for an HTTP error under a path prefix (the hosted pages register theirs: a page).
PageAnswer = Callable[[int], Response]
PREFIXES = "checkout.error_pages"  # app.extensions: path prefix -> its PageAnswer


def answer_errors_under(app: Flask, prefix: str, answer: PageAnswer) -> None:
    app.extensions.setdefault(PREFIXES, {})[prefix] = answer


def _prefixes() -> dict[str, PageAnswer]:
    return current_app.extensions.get(PREFIXES, {})


def _http_error(exc: HTTPException):
    response = make_response(_http_answer(exc))
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        # RFC 9110: a 405 must name the methods the resource does take.
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    return response


def _http_answer(exc: HTTPException):
    status = exc.code or 500
    if request.path.startswith(PAYOUT_PREFIX):
        if status == 413:
            return PAYOUT.envelope(4001000, "invalid parameter", {"err": "request body exceeds 1 MiB"}, 400)
        return PAYOUT.envelope(status, exc.name.lower(), {}, status)
    for prefix, answer in _prefixes().items():
        if request.path.startswith(prefix):
            return answer(status)
    sub_code = {404: "not-found", 405: "method-not-allowed", 413: "request-too-large"}.get(status, "http-error")
    message = "request body exceeds 1 MiB" if status == 413 else f"{exc.name}: {request.method} {request.path}"
    body, _ = PAYIN.failure(DomainError(message, reason=sub_code))
    return body, status


def _unexpected(exc: Exception):
    log.exception("unhandled error on %s %s", request.method, request.path)
    for prefix, answer in _prefixes().items():
        if request.path.startswith(prefix):
            try:
                return answer(500)  # a page answers a page, even when it fails
            except Exception:
                log.exception("the error page of %s failed too", request.path)
                return make_response("Service unavailable", 500, {"Content-Type": "text/plain; charset=utf-8"})
    if request.path.startswith(PAYOUT_PREFIX):
        code = 5001000 if request.path.startswith("/api/checkout") else 500
        return PAYOUT.envelope(code, "system error", {"error": "system error"} if code == 500 else {}, 500)
    return PAYIN.failure(DomainError("system error", reason="system-error"))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
