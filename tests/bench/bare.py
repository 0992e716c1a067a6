"""The bare Flask app every throughput is divided by (the same server, no database, no work), and the
floors: views doing only what the dry run's, the query's, the direct PIX payment's and the hosted payout
page's contracts ask, with the service's own code for each part, to tell Flask's limit from what the
service adds."""

from __future__ import annotations

import base64
import functools
import hmac
import json
import os
import re
import secrets
import time
from pathlib import Path
from types import SimpleNamespace

from flask import Flask, jsonify, request
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from checkout import clock, jsonbody, links, money, signing
from checkout.config import Defaults
from checkout.db import PING_AFTER_IDLE, Readers, make_engine, one_statement
from checkout.pages import common, payout_read, rendered, security
from checkout.payins import methods, timeouts
from checkout.payins import queries as payins
from checkout.payins.models import Trade, TradeEvent
from checkout.payins.requests import DirectPayRequest, QueryRequest
from checkout.payouts import service
from checkout.payouts.schemas import DryRunRequest

app = Flask(__name__)

# The benchmark merchant's "app_id:app_key:security_key" (the bench sets it): the floors hold its keys in
# memory, where the service compares them with the stored ones on every request.
_FLOOR_APP_ID, _FLOOR_KEY, _FLOOR_SECURITY_KEY = (os.environ.get("CHECKOUT_BENCH_FLOOR_KEY", "") + "::").split(":")[:3]
_MID_RATES = Defaults.PAYOUT_MID_RATES
_SECRET_KEY = os.environ.get("CHECKOUT_SECRET_KEY", "")  # the service's: its page tokens verify here


@app.route("/bare", methods=["GET", "POST"])
def bare():
    return jsonify({"code": "10000", "msg": "Success"})


@app.post("/notify")
def notify():
    # What a merchant's notify_url answers to acknowledge a delivery.
    return "success"


@app.post("/api/payout/dry-run")
def floor_dry_run():
    """The dry run's contract and nothing more, with the service's own code for each part: the body read
    with its limits, the signature checked against a key held in memory, the model validated, the
    freshness checked, the quote priced and answered in the payout envelope. What the service adds is
    left out: the per-request key check in the database, the API request log, the operation layer's error
    taxonomy, the request's clock and session."""
    body = jsonbody.read_object()
    signature = request.headers.get("Authorization", "")
    if request.headers.get("AppId") != _FLOOR_APP_ID or not signing.verify_payout_signature(
        body, _FLOOR_KEY, signature
    ):
        return jsonify({"code": 4001004, "msg": "permission denied", "time": int(time.time()), "data": None}), 401
    req = DryRunRequest.model_validate(body)
    if abs(time.time() - req.timestamp) > 300:
        return jsonify({"code": 4001000, "msg": "request has expired", "time": int(time.time()), "data": None}), 400
    figures = service.quote(req, mid_rates=_MID_RATES, markup_bps=50).as_strings()  # a new merchant's markup
    return jsonify({"code": 200, "msg": "success", "time": int(time.time()), "data": figures})


_readers = Readers(ping_after=PING_AFTER_IDLE)


def _payin_credentials() -> bool:
    """Basic credentials compared with the benchmark merchant's key held in memory."""
    app_id, _, key = (
        base64.b64decode(request.headers.get("Authorization", "").partition(" ")[2]).decode().partition(":")
    )
    return app_id == _FLOOR_APP_ID and hmac.compare_digest(key.encode(), _FLOOR_SECURITY_KEY.encode())


@functools.cache
def _engine():
    """The run's database, as the bench's environment names it."""
    return make_engine(os.environ["CHECKOUT_DATABASE_URL"])


@functools.cache
def _database():
    """The run's database read one statement at a time as the service's query reads it, and the benchmark
    merchant's row id."""
    engine = _engine()
    with engine.connect() as connection:
        merchant_id = connection.exec_driver_sql(
            "SELECT id FROM merchants WHERE app_id = " + ("?" if engine.dialect.paramstyle == "qmark" else "%s"),
            (_FLOOR_APP_ID,),
        ).scalar_one()
    return one_statement(engine), SimpleNamespace(id=merchant_id)


@app.post("/trade/query")
def floor_query():
    """The query's contract on the service's own read and answer: Basic credentials compared with the key
    held in memory, the body read and validated, the trade with its history and refunds read in the
    service's one statement on a connection the thread keeps, answered in the payin envelope. Left out: the
    key check in the database, the API request log, the operation layer, the request's clock."""
    if not _payin_credentials():
        return jsonify({"code": "40001", "msg": "invalid signature"}), 400
    req = QueryRequest.model_validate(jsonbody.read_object())
    engine, merchant = _database()
    with Session(bind=_readers.connection(engine)) as session:
        trade = payins.read(session, merchant, trade_no=req.trade_no, out_trade_no=req.out_trade_no)  # type: ignore[arg-type]
    return jsonify({"code": "10000", "msg": "Success", **payins.describe(trade)})


@functools.cache
def _writes():
    """The run's database written as the service writes it (SQLite: its writer turn and BEGIN IMMEDIATE;
    PostgreSQL: its pool), and the two INSERTs of a new trade and its first history row."""
    return _engine(), insert(Trade.__table__), insert(TradeEvent.__table__)


_LINKS = links.Links(base_url="http://127.0.0.1", secret_key=_SECRET_KEY)
_COLLECTOR = methods.collector({name: getattr(Defaults, name) for name in dir(Defaults)})
_PIX = methods.lookup("PIX")


@app.post("/trade/pay")
def floor_pay():
    """The direct PIX payment's contract with the service's own code for each part: Basic credentials
    compared with the key held in memory, the body read and validated, PIX's rules (the payer's CPF or CNPJ,
    the amount's range), the trade and its first history row written in one committed transaction (the
    unique out_trade_no refusing a repeat), the BR Code with its page links and QR image answered in the
    payin envelope. Left out: the key check in the database, the early duplicate check, the API request
    log, the operation layer, the state machine and the ORM's unit of work, the request's clock."""
    if not _payin_credentials():
        return jsonify({"code": "40001", "msg": "invalid signature"}), 400
    req = DirectPayRequest.model_validate(jsonbody.read_object())
    details = _PIX.check(req)
    engine, trades, events = _writes()
    _, merchant = _database()
    now = clock.now()
    trade = SimpleNamespace(
        trade_no=f"{now:%Y%m%d%H%M%S}{secrets.randbelow(10**10):010d}",
        amount_minor=money.to_minor(req.order_amount, req.order_currency),
    )
    response = _PIX.present(trade, _LINKS, _COLLECTOR)  # type: ignore[arg-type]
    row = {
        "trade_no": trade.trade_no,
        "merchant_id": merchant.id,
        "out_trade_no": req.out_trade_no,
        "prepay_id": "pp_" + secrets.token_hex(12),
        "kind": "direct",
        "method": "PIX",
        "status": "PROCESSING",
        "amount_minor": trade.amount_minor,
        "currency": req.order_currency,
        "subject": req.subject,
        "content": req.content,
        "buyer_id": req.buyer_id,
        "notify_url": req.notify_url,
        "return_url": req.return_url,
        "expires_at": timeouts.expiry(req.timeout_express, now),
        "details": {
            **details,
            "customer": req.customer.model_dump(),
            "address": req.address.model_dump(),
            "response": response,
        },
        "created_at": now,
        "updated_at": now,
    }
    try:
        with engine.begin() as connection:
            trade_id = connection.execute(trades, row).inserted_primary_key[0]
            connection.execute(
                events, {"trade_id": trade_id, "from_status": None, "to_status": "PROCESSING", "at": now}
            )
    except IntegrityError:
        return jsonify({"code": "40002", "msg": "out_trade_no is duplicate"}), 400
    answer = {"trade_no": trade.trade_no, "out_trade_no": req.out_trade_no, "trade_status": "PROCESSING", **response}
    return jsonify({"code": "10000", "msg": "Success", **methods.answer(answer), "web_url": ""})


# The hosted payout page as the service rendered it, kept by the bench in this file (its nonce beside it).
_PAGE_COPY = os.environ.get("CHECKOUT_BENCH_FLOOR_PAGE", "")
_pages = rendered.Pages()


@functools.cache
def _page_copy() -> str:
    """The service's page with the service's markers where this response's nonce and time go."""
    kept = json.loads(Path(_PAGE_COPY).read_text(encoding="utf-8"))
    html = kept["html"].replace(kept["nonce"], rendered.NONCE)
    return re.sub(r'"now": \d+', f'"now": "{rendered.NOW}"', html, count=1)


@app.get("/pages/payout")
def floor_page():
    """The hosted payout page's contract with the service's own code for each part: the token's signature
    and age checked, the session read by the service's read (with its merchant and whoever holds its code,
    on the driver of a connection the thread keeps), and, while it is open, in time and its code not taken,
    the unfilled form served from a rendered copy with this response's nonce and time, under the page
    headers (the CSP with the session's form target). Left out: the layout and language chosen from the
    request, the merchant's clock, the copy's key of everything the page shows, the request's session of
    the database, Flask's hooks around a page."""
    token = request.args.get("token", "")
    try:
        payload = signing.read_page_token(_SECRET_KEY, links.PAYOUT_PAGE, token, 1800 + common.TOKEN_GRACE)
    except signing.PageTokenError:
        return "invalid link", 400
    engine, _ = _database()
    with Session(bind=_readers.connection(engine)) as session:
        shown = payout_read.read(session, str(payload.get("session")))
    if shown is None:
        return "not found", 404
    if not shown.shows_form():
        return "closed", 410
    common.allow_form_target(shown.return_url)
    body = _pages.get(token, _page_copy, nonce=security.nonce(), now=int(time.time()))
    return security.apply_headers(app.response_class(body, mimetype="text/html"))


def bridged():
    """The bare app behind `checkout serve`'s bridge, as its granian processes serve the service (a factory:
    granian calls it in each process)."""
    from checkout.bridge import Bridge

    return Bridge(app, threads=4, max_body=Defaults.MAX_CONTENT_LENGTH, body_timeout=30)
