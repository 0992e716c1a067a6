"""The bare Flask app every throughput is divided by (the same gunicorn, no database, no work), and the
floors: views doing only what the dry run's and the query's contracts ask, with the service's own code
for each part, to tell Flask's limit from what the service adds."""

from __future__ import annotations

import base64
import functools
import hmac
import os
import time
from types import SimpleNamespace

from flask import Flask, jsonify, request
from sqlalchemy.orm import Session

from checkout import jsonbody, peek, signing
from checkout.config import Defaults
from checkout.db import PING_AFTER_IDLE, make_engine, one_statement
from checkout.payins import service as payins
from checkout.payins.schemas import QueryRequest
from checkout.payouts import service
from checkout.payouts.commands import Quotation
from checkout.payouts.schemas import DryRunRequest
from checkout.validation import command

app = Flask(__name__)

# The benchmark merchant's "app_id:app_key:security_key" (the bench sets it): the floors hold its keys in
# memory, where the service compares them with the stored ones on every request.
_FLOOR_APP_ID, _FLOOR_KEY, _FLOOR_SECURITY_KEY = (os.environ.get("CHECKOUT_BENCH_FLOOR_KEY", "") + "::").split(":")[:3]
_MID_RATES = Defaults.PAYOUT_MID_RATES


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
    figures = service.quote(
        command(req, Quotation), mid_rates=_MID_RATES, markup_bps=50
    ).as_strings()  # a new merchant's markup
    return jsonify({"code": 200, "msg": "success", "time": int(time.time()), "data": figures})


_readers = peek.Readers(ping_after=PING_AFTER_IDLE)


@functools.cache
def _database():
    """The run's database (the bench's environment names it), read one statement at a time as the service's
    query reads it, and the benchmark merchant's row id."""
    engine = make_engine(os.environ["CHECKOUT_DATABASE_URL"])
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
    app_id, _, key = (
        base64.b64decode(request.headers.get("Authorization", "").partition(" ")[2]).decode().partition(":")
    )
    if app_id != _FLOOR_APP_ID or not hmac.compare_digest(key.encode(), _FLOOR_SECURITY_KEY.encode()):
        return jsonify({"code": "40001", "msg": "invalid signature"}), 400
    req = QueryRequest.model_validate(jsonbody.read_object())
    engine, merchant = _database()
    with Session(bind=_readers.connection(engine)) as session:
        trade = payins.read(session, merchant, trade_no=req.trade_no, out_trade_no=req.out_trade_no)  # type: ignore[arg-type]
    return jsonify({"code": "10000", "msg": "Success", **payins.describe(trade)})
