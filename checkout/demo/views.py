"""The demo shop's pages: store and charge a card, PIX Automático, PIX and Boleto, payouts, returns, notifications."""

from __future__ import annotations

import json
from collections import deque
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from .client import ApiError, Shop, callback_is_genuine, payout_signature, read_return_token

bp = Blueprint("demo", __name__, url_prefix="/demo")
BRAZIL = timezone(timedelta(hours=-3))

# What the shop's notify URL received, newest first (kept in this process for the demo).
received: deque = deque(maxlen=200)


def _settings() -> dict:
    settings = current_app.config.get("DEMO")
    if not settings:
        raise LookupError("the demo is provisioned by `checkout serve`")
    return settings


def _shop() -> Shop:
    settings = _settings()
    return Shop(settings["service_url"], settings["credentials"])


def _url(endpoint: str, **values) -> str:
    """An address of the demo's, on the origin the customer opened it at when that is one of the demo's own
    (localhost or 127.0.0.1), so that a return lands where the journey started; never the Host alone."""
    settings = _settings()
    base = settings["url"]
    here = request.host_url.rstrip("/")
    if here in settings.get("origins", ()):
        base = here + urlsplit(base).path
    return base + url_for(endpoint, **values).removeprefix("/demo")


def _customer() -> dict:
    return {
        "customer": {
            "name": "Ana Souza",
            "email": "ana@example.com",
            "phone": "+5511987654321",
            "identify": {"type": "CPF", "number": "39053344705"},
        },
        "address": {
            "zip_code": "01310100",
            "state": "SP",
            "city": "São Paulo",
            "street_number": "1000",
            "street": "Avenida Paulista",
        },
    }


def _order_no(prefix: str) -> str:
    return f"{prefix}-{datetime.now():%H%M%S%f}"


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    return render_template("demo/result.html", title="The service said no", error=str(error)), 400


@bp.errorhandler(LookupError)
def _not_provisioned(error: LookupError):
    return render_template("demo/result.html", title="Demo not set up", error=str(error)), 503


@bp.get("/")
def index():
    _settings()
    return render_template("demo/index.html")


@bp.get("/card")
def card():
    card_url = _shop().payin("/card/session", {"country": "BRA"})["card_url"]
    return render_template("demo/card.html", card_url=card_url)


@bp.post("/card")
def card_vault():
    """The card-entry frame handed us a token: store the card (the customer consents on the next page)."""
    shop = _shop()
    vault = shop.payin(
        "/vault/create",
        {
            "version": "2.0",
            "type": "Card",
            "return_url": _url("demo.back", kind="vault", type="Card"),
            "card_token": {
                "region": "BRA",
                "method": "CreditCard",
                "uid": "demo-customer",
                "token": request.form.get("token", ""),
                "notify_url": _url("demo.notify"),
            },
        },
    )
    return redirect(vault["checkout_url"], 303)


@bp.post("/pix-automatico")
def pix_automatico():
    today = datetime.now(BRAZIL).date()
    vault = _shop().payin(
        "/vault/create",
        {
            "version": "2.0",
            "type": "pix",
            "return_url": _url("demo.back", kind="vault", type="pix"),
            "notify_url": _url("demo.notify"),
            "subject": "Demo Shop monthly box",
            "pix": {
                "region": "BRA",
                "method": "PIXAutomatic",
                "uid": "demo-customer",
                "plan": {
                    "internal": "1M",
                    "start_date": today.isoformat(),
                    "end_date": today.replace(year=today.year + 1, day=min(today.day, 28)).isoformat(),
                    "minimum_amount": "10.00",
                    "maximum_amount": "200.00",
                },
                "customer": {"identification": {"type": "CPF", "number": "39053344705"}, "name": "Ana Souza"},
            },
        },
    )
    return redirect(vault["checkout_url"], 303)


@bp.post("/charge")
def charge():
    """Charge a stored card, or schedule a PIX Automático debit, with the vault token the return gave us."""
    method = request.form.get("method", "CreditCard")
    body = {
        "out_trade_no": _order_no("vault"),
        "method": method,
        "notify_url": _url("demo.notify"),
        "subject": "Demo Shop order",
        "order_amount": "49.90",
        "order_currency": "BRL",
        "buyer_id": "demo-customer",
        "vault_token": request.form.get("vault_token", ""),
    }
    if method == "PIXAutomatic":
        body["scheduled_date"] = request.form.get("scheduled_date") or datetime.now(BRAZIL).date().isoformat()
    trade = _shop().payin("/trade/pay", body)
    return render_template("demo/result.html", title="Charge requested", trade=trade)


@bp.post("/pay/<method>")
def pay(method: str):
    if method not in ("PIX", "Boleto"):
        return render_template("demo/result.html", title="Unknown method", error=method), 404
    trade = _shop().payin(
        "/trade/pay",
        {
            "out_trade_no": _order_no(method.lower()),
            "method": method,
            "order_currency": "BRL",
            "order_amount": "120.00",
            "subject": "Demo Shop order",
            "notify_url": _url("demo.notify"),
            "buyer_id": "demo-customer",
            "return_url": _url("demo.back", kind="trade"),
            **_customer(),
        },
    )
    return redirect(trade.get("web_url") or trade["pay_url"], 303)


@bp.post("/payout")
def payout():
    mode = request.form.get("mode", "redirect")
    session = _shop().payout(
        "/checkout",
        {
            "user_id": "demo-customer",
            "custom_code": _order_no("payout"),
            "fee_bear": "merchant",
            "source_currency": "USD",
            "payout_currency": request.form.get("currency", "BRL"),
            "payout_amount": request.form.get("amount", "250.00"),
            "notify_url": _url("demo.notify"),
            "return_url": _url("demo.back", kind="payout"),
            "additional_remark": "Demo withdrawal",
            "country": {"BRL": "BRA", "MXN": "MEX"}.get(request.form.get("currency", "BRL"), "BRA"),
        },
    )
    if mode == "iframe":
        return render_template(
            "demo/frame.html", frame_url=session["checkout_url"], back=_url("demo.back", kind="payout")
        )
    return redirect(session["checkout_url"], 303)


@bp.get("/return")
def back():
    """Where the service sends the customer: verify the token before believing anything in it."""
    settings = _settings()
    credentials = settings["credentials"]
    kind = request.args.get("kind", "vault")
    key = credentials["app_key"] if kind == "payout" else credentials["security_key"]
    claims = read_return_token(request.args.get("token", ""), key, credentials["app_id"])
    if claims is None:
        return render_template(
            "demo/result.html", title="Return refused", error="The token's signature does not verify with our key."
        ), 400
    return render_template(
        "demo/result.html", title="Back at the Demo Shop", claims=claims, kind=kind, vault_type=request.args.get("type")
    )


@bp.post("/notify")
def notify():
    """The shop's notify URL: check the signature, remember the message, acknowledge with `success`."""
    credentials = _settings()["credentials"]
    raw = request.get_data()
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's stack bound
        return "bad body", 400
    if not isinstance(body, dict):
        return "bad body", 400
    if "Pagsmile-Signature" in request.headers:
        genuine = callback_is_genuine(request.headers["Pagsmile-Signature"], raw, credentials["security_key"])
    else:
        genuine = payout_signature(body, credentials["app_key"]) == request.headers.get("Authorization", "")
    received.appendleft({"at": datetime.now().strftime("%H:%M:%S"), "genuine": genuine, "body": body})
    return ("success", 200) if genuine else ("bad signature", 401)


@bp.get("/notifications")
def notifications():
    return render_template("demo/notifications.html", received=list(received))
