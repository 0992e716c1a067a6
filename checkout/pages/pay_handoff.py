"""Sandbox only: the bank or wallet a hand-off payment page sends the customer to, played with Approve, Decline and
"back without paying" (and the bank chosen there, where the gateway asks for one); outside the sandbox the page does
not exist."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from ..db import db
from ..errors import DomainError
from ..payins import handoffs
from ..payins.models import Trade
from . import pay_journeys
from .common import Page, PageError, check_post, render
from .forms import PageForm
from .trades import UNFINISHED, amount_text, method_name, open_pay_page, shown_status

bp = Blueprint("handoff", __name__)


class DecisionForm(PageForm):
    """The customer's answer at the bank or wallet; where the gateway asks which bank pays (PSE), that bank."""

    decision = SelectField(choices=[SelectChoice("approve"), SelectChoice("decline")], validate_choice=True)
    bank = SelectField(_l("Your bank"), validators=[InputRequired(_l("Choose your bank."))], validate_choice=True)

    def __init__(self, banks: dict[str, str], **kwargs):
        super().__init__(**kwargs)
        if banks:
            self.bank.choices = [
                SelectChoice("", _("Choose your bank")),
                *(SelectChoice(k, v) for k, v in banks.items()),
            ]
        else:
            del self.bank


def _handoff_page() -> tuple[Page, Trade]:
    if not current_app.config["SANDBOX"]:
        raise PageError(404, "not-found")
    page, trade = open_pay_page()
    if not pay_journeys.hands_off(trade):
        raise PageError(404, "not-found")
    return page, trade


def _answer(page: Page, trade: Trade, form: DecisionForm, error: str | None = None, status_code: int = 200):
    label = method_name(trade)
    return render(
        "pages/pay/handoff.html",
        page,
        status_code,
        trade=trade,
        form=form,
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
    return _answer(page, trade, DecisionForm(pay_journeys.banks_to_choose(trade), formdata=None))


@bp.post("/pay/handoff")
def decide():
    """Approve pays the trade, Decline refuses it (each with its callback); then back to the payment page. Leaving
    without either is a link back to the payment page, which the trade still waits on."""
    page, trade = _handoff_page()
    check_post(page)
    banks = pay_journeys.banks_to_choose(trade)
    form = DecisionForm(banks)
    if not form.decision.validate(form):
        raise PageError(400, "invalid")
    if not form.validate():
        return _answer(page, trade, form, status_code=422)
    where = pay_journeys.handed_to(trade) or trade.method or ""
    if banks:
        where = f"{where} ({banks[form.bank.data]})"
    try:
        if form.decision.data == "approve":
            handoffs.approve(db.session, page.merchant, trade.trade_no)
        else:
            handoffs.decline(db.session, page.merchant, trade.trade_no, where)
        db.session.commit()
    except DomainError:
        db.session.rollback()
        message = _("This payment is no longer waiting for an answer: nothing was changed.")
        return _answer(page, trade, form, message, 409)
    return redirect(page.url("pages.pay.show"), 303)
