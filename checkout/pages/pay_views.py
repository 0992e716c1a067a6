"""Payin payment page: PIX/CoDi QR with its countdown, Boleto line, CLABE, references, wallet; follows the trade."""

from __future__ import annotations

from typing import cast

from flask import Response, current_app, redirect
from sqlalchemy import select

from .. import clock, links, money, signing
from ..brazil import boleto, qrimage
from ..db import db
from ..errors import DomainError
from ..merchants.models import Merchant
from ..payins import service as payins
from ..payins import states
from ..payins.methods import catalog
from ..payins.models import Trade
from . import qr
from .common import Page, PageError, allow_form_target, base_url, open_page, read_token, render
from .returns import with_token
from .views import _post_allowed, bp

PAY_TOKEN_TTL = 16 * 24 * 3600  # the trade's own expiry (at most 15 days) is what really bounds the page
# The page's country (its language) by the trade's currency: Brazilian Portuguese, else Mexican Spanish.
COUNTRIES = {"BRL": "BRA", "MXN": "MEX", "COP": "COL", "CLP": "CHL", "PEN": "PER"}


def _pay_page() -> tuple[Page, Trade]:
    token, payload = read_token(links.PAY_PAGE, PAY_TOKEN_TTL)
    trade = db.session.scalar(select(Trade).where(Trade.trade_no == payload.get("trade")))
    if trade is None:
        raise PageError(404, "not-found")
    page = open_page(token, cast(Merchant, db.session.get(Merchant, trade.merchant_id)), COUNTRIES.get(trade.currency))
    allow_form_target(trade.return_url)
    return page, trade


def shown_status(trade: Trade) -> str:
    """What the customer sees: a PROCESSING trade past its deadline has expired for them."""
    if trade.status == states.PROCESSING and trade.expires_at and clock.as_utc(trade.expires_at) <= clock.now():
        return states.EXPIRED
    return trade.status


def _details(trade: Trade) -> dict:
    fields = trade.details.get("response", {})
    details = {"fields": fields}
    if "qr_code" in fields:
        details["qr_svg"] = qr.svg(fields["qr_code"])
    if trade.method == "Boleto":
        # The typed line: bank_code; a Boleto made before it had its own field carried it as barcode.
        details["linha"] = boleto.formatted(fields.get("bank_code") or fields["barcode"])
    bank = trade.details.get("bank")
    if bank:
        listed = catalog.bank(trade.method, bank)
        details["bank_name"] = listed.name if listed else bank
    return details


@bp.get("/pay")
@bp.get("/wallet")
def pay_page():
    page, trade = _pay_page()
    status = shown_status(trade)
    back = None
    if trade.return_url and status != states.PROCESSING:
        token = signing.return_token(
            page.merchant.security_key,
            issuer=base_url(),
            app_id=page.merchant.app_id,
            subject=trade.trade_no,
            status=status,
            reference={"out_trade_no": trade.out_trade_no},
        )
        back = with_token(trade.return_url, token)
    deadline = clock.unix(trade.expires_at) if trade.expires_at else None
    data = {
        "poll": page.url("pages.pay_status"),
        "status": status,
        "interval": 3000,
        "deadline": deadline,
        "now": clock.unix(clock.now()),
    }
    return render(
        "pages/pay/pay.html",
        page,
        trade=trade,
        shown=status,
        back=back,
        deadline=deadline,
        amount=money.from_minor(trade.amount_minor, trade.currency),
        **_details(trade),
        data=data,
    )


@bp.get("/pay/qr.png")
def pay_qr_image():
    """A PIX trade's QR (`qr_code_url`), for the merchant to show on its own page."""
    _, payload = read_token(links.QR_IMAGE, PAY_TOKEN_TTL)
    trade = db.session.scalar(select(Trade).where(Trade.trade_no == payload.get("trade")))
    code = trade.details.get("response", {}).get("qr_code") if trade is not None else None
    if code is None:
        raise PageError(404, "not-found")
    response = Response(qrimage.png(code), mimetype="image/png")
    response.headers["Cache-Control"] = "private, max-age=3600"  # a trade's code never changes
    return response


@bp.get("/pay/status")
def pay_status():
    page, trade = _pay_page()
    return {"status": shown_status(trade), "next": page.url("pages.pay_page")}


@bp.post("/pay/sandbox")
def pay_sandbox():
    """Sandbox only: play the customer paying, from the page itself."""
    page, trade = _pay_page()
    _post_allowed(page)
    if not current_app.config["SANDBOX"]:
        raise PageError(403, "forbidden")
    try:
        payins.sandbox_pay(db.session, page.merchant, trade.trade_no)
        db.session.commit()
    except DomainError:
        db.session.rollback()
    return redirect(page.url("pages.pay_page"), 303)
