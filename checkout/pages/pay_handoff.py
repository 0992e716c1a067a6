"""Sandbox only: the bank or wallet a hand-off payment page sends the customer to, played with Approve and Decline;
outside the sandbox the page does not exist."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request
from flask_babel import gettext as _

from ..db import db
from ..errors import DomainError
from ..payins import handoffs
from ..payins.models import Trade
from . import pay_journeys
from .common import Page, PageError, check_post, render
from .trades import UNFINISHED, amount_text, method_name, open_pay_page, shown_status

bp = Blueprint("handoff", __name__)


def _handoff_page() -> tuple[Page, Trade]:
    if not current_app.config["SANDBOX"]:
        raise PageError(404, "not-found")
    page, trade = open_pay_page()
    if pay_journeys.journey(trade) != pay_journeys.HANDOFF:
        raise PageError(404, "not-found")
    return page, trade


def _answer(page: Page, trade: Trade, error: str | None = None, status_code: int = 200):
    label = method_name(trade)
    return render(
        "pages/pay/handoff.html",
        page,
        status_code,
        trade=trade,
        destination=pay_journeys.destination(trade, label),
        bank_name=pay_journeys.listed_bank_name(trade),
        method_label=label,
        amount=amount_text(trade),
        error=error,
    )


@bp.get("/pay/handoff")
def show():
    page, trade = _handoff_page()
    if shown_status(trade) not in UNFINISHED:  # already decided: the payment page says how it ended
        return redirect(page.url("pages.pay.show"), 303)
    return _answer(page, trade)


@bp.post("/pay/handoff")
def decide():
    """Approve pays the trade, Decline refuses it (each with its callback); then back to the payment page."""
    page, trade = _handoff_page()
    check_post(page)
    decision = request.form.get("decision")
    if decision not in ("approve", "decline"):
        raise PageError(400, "invalid")
    try:
        if decision == "approve":
            handoffs.approve(db.session, page.merchant, trade.trade_no)
        else:
            where = pay_journeys.handed_to(trade) or trade.method or ""
            handoffs.decline(db.session, page.merchant, trade.trade_no, where)
        db.session.commit()
    except DomainError:
        db.session.rollback()
        message = _("This payment is no longer waiting for an answer: nothing was changed.")
        return _answer(page, trade, message, 409)
    return redirect(page.url("pages.pay.show"), 303)
