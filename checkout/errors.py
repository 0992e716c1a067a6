"""Error answers in the envelope of the API a request was for; never Flask's HTML error page."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, make_response, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from . import clock
from .gateway import PayinError, error_response

log = logging.getLogger(__name__)

PAYOUT_PREFIX = "/api/"


def _payout(status: int, code: int, msg: str, data: dict | None = None):
    return jsonify({"code": code, "msg": msg, "time": clock.unix(clock.real_now()), "data": data or {}}), status


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
            return _payout(400, 4001000, "invalid parameter", {"err": "request body exceeds 1 MiB"})
        return _payout(status, status, exc.name.lower())
    if request.path.startswith("/pages/"):
        from .pages.common import PageError, error_page
        from .pages.security import apply_headers

        body, code = error_page(PageError(status, "not-found" if status == 404 else "invalid"))
        return apply_headers(make_response(body, code))
    sub_code = {404: "not-found", 405: "method-not-allowed", 413: "request-too-large"}.get(status, "http-error")
    message = "request body exceeds 1 MiB" if status == 413 else f"{exc.name}: {request.method} {request.path}"
    return error_response(PayinError(sub_code, message, status=status))


def _unexpected(exc: Exception):
    log.exception("unhandled error on %s %s", request.method, request.path)
    if request.path.startswith(PAYOUT_PREFIX):
        code = 5001000 if request.path.startswith("/api/checkout") else 500
        return _payout(500, code, "system error", {"error": "system error"} if code == 500 else {})
    return error_response(PayinError("system-error", "system error", code="20000", status=500))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
