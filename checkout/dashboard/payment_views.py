"""Dashboard routes for payments: the list with filters and keyset paging, a trade's page and its actions."""

from __future__ import annotations

import secrets
from decimal import ROUND_DOWN, Decimal
from typing import Any, TypeVar

from flask import Blueprint, current_app, flash, redirect, request
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from pydantic import BaseModel, ValidationError

from .. import clock, money, wiring
from ..api.operation import validation_error
from ..db import db
from ..errors import DomainError, InvalidField, MissingField
from ..pages import i18n
from ..payins import authorizations, methods, refunds
from ..payins import service as payins
from ..payins.models import Trade
from ..payins.schemas import Capture, RefundOrder, Void
from . import deliveries, exports
from . import payments as payments_service
from .forms import ActionForm
from .payment_forms import CaptureForm, FilterForm, RefundForm
from .web import here, merchant, money_text, refund_label, render, sandbox_only, status_label, trade_status_text

bp = Blueprint("payments", __name__)

C = TypeVar("C", bound=BaseModel)

# --- the list --------------------------------------------------------------------------------------


@bp.route("/payments")
@login_required
def index():
    form = FilterForm(request.args)
    page, cursor_error = None, None
    if form.validate():
        after = None
        if request.args.get("after"):
            try:
                after = payments_service.Cursor.decode(request.args["after"])
            except payments_service.BadCursor:
                cursor_error = _("This page link is not valid. Start again from the newest payments.")
        if cursor_error is None:
            page = payments_service.listing(db.session, current_user.merchant_id, form.filters(), after)
    bad = page is None
    return render(
        "dashboard/payments.html",
        400 if bad else 200,
        form=form,
        page=page,
        cursor_error=cursor_error,
        filtered=form.filters().any if not form.errors else True,
        paged=bool(request.args.get("after")),
        filter_args=form.args() if not form.errors else {},
    )


@bp.route("/payments/export")
@login_required
def export():
    """The list as CSV, its filters and search applied, streamed by keyset batches (docs/dashboard.md)."""
    form = FilterForm(request.args)
    if not form.validate():
        return index()  # the list page with the errors at their fields (400)
    lines = exports.payment_rows(db.session, current_user.merchant_id, form.filters())
    return exports.attachment(db.session, lines, "payments")


# --- a trade's page --------------------------------------------------------------------------------


def _missing():
    return render("dashboard/payment_missing.html", 404)


def _stale_form():
    return render("dashboard/payment_missing.html", 400, stale=True)


def _example(currency: str) -> str:
    """An amount as the refund form takes it, in the user's language and the currency's minor units: 10.50 BRL
    (10,50 in pt-BR), 10.500 BHD, 10 KRW."""
    return i18n.format_amount(
        Decimal("10.50").quantize(Decimal(1).scaleb(-money.exponent(currency)), ROUND_DOWN), currency
    )


def _payee(data: payments_service.Detail) -> str:
    """Whom a refund pays back, as the confirmation names them."""
    return data.customer.get("name") or data.customer.get("email") or ""


def _confirmation(data: payments_service.Detail, amount: Decimal) -> str:
    """The confirmation's words: "Refund R$ 50,00 to Ana Souza"."""
    text = money_text(amount, data.trade.currency)
    if payee := _payee(data):
        return _("Refund %(amount)s to %(customer)s", amount=text, customer=payee)
    return _("Refund %(amount)s to the customer", amount=text)


def _when(moment, pattern: str = "%Y-%m-%d %H:%M") -> str:
    return clock.as_utc(moment).strftime(pattern)


def _page(
    trade_no: str,
    status: int = 200,
    *,
    refund_form: RefundForm | None = None,
    capture_form: CaptureForm | None = None,
    refusal: tuple[str, str, str] | None = None,
    confirming: bool = False,
):
    if "\x00" in trade_no:
        return _missing()
    data = payments_service.detail(
        db.session, current_user.merchant_id, trade_no, sandbox=current_app.config["SANDBOX"]
    )
    if data is None:
        return _missing()
    if refund_form is None:
        refund_form = RefundForm(formdata=None, request_id=secrets.token_hex(8))
    confirmation = None
    if confirming and refund_form.decimal is not None:
        confirmation = _confirmation(data, refund_form.decimal)
    return render(
        "dashboard/payment.html",
        status,
        data=data,
        trade=data.trade,
        messages=deliveries.for_subject(db.session, current_user.merchant_id, data.trade.trade_no),
        back=here("dashboard.payments.detail", trade_no=data.trade.trade_no),
        refund_form=refund_form,
        capture_form=capture_form or CaptureForm(formdata=None),
        refusal=refusal,
        confirmation=confirmation,
        status_text=trade_status_text(
            data.trade.status,
            data.trade.amount_minor,
            money.to_minor(Decimal(data.refunded), data.trade.currency),
            data.trade.currency,
        ),
        format_minor=money.format_minor,
        example=_example(data.trade.currency),
        when=_when,
    )


@bp.route("/payments/<trade_no>")
@login_required
def detail(trade_no: str):
    return _page(trade_no)


# --- actions ---------------------------------------------------------------------------------------


def _command(kind: type[C], **fields: Any) -> C:
    """The command a form's values make, held to the rules `/trade/...` applies and refused as it refuses."""
    try:
        return kind(**fields)
    except ValidationError as exc:
        raise validation_error(exc) from None


def _message(error: DomainError, trade: Trade) -> str:
    """The API's refusal in the page's language where we have its words; else the API's own message."""
    currency = trade.currency
    places = money.exponent(currency)
    field = getattr(error, "field", "")
    if isinstance(error, InvalidField) and field in ("refund_amount", "amount"):
        if places == 0:  # KRW, CLP, PYG: "at most 0 decimal places" says it badly
            return _("Enter a whole amount above zero in %(currency)s.", currency=currency)
        return ngettext(
            "Enter an amount above zero with at most %(num)d decimal place in %(currency)s.",
            "Enter an amount above zero with at most %(num)d decimal places in %(currency)s.",
            places,
            currency=currency,
        )
    known = {
        "refund-amount-exceeded": _("The amount is more than what can still be refunded."),
        "capture-amount-exceeded": _("The amount is more than the authorized amount."),
        "trade-status-invalid": _(
            "This action is not allowed while the payment is in this status: %(status)s.",
            status=status_label(trade.status),
        ),
        "method-not-payable": _("This payment is not paid by the customer this way."),
        "trade-expired": _("The payment expired before it was paid."),
        "duplicate-out_request_no": _("This refund is being processed right now. Reload the page in a moment."),
    }
    if error.reason == "refund-not-supported":
        if error.message.endswith("only in full"):
            return _("This payment can be refunded only in full, at once.")
        return _("This payment cannot be refunded.")
    if isinstance(error, MissingField) and field.startswith("user_info"):
        return _("A refund of this method needs the customer's name, e-mail and document, and the payment has none.")
    return known.get(error.reason) or error.message


def _refused(trade: Trade, action: str, error: DomainError, **forms):
    trade_no, message = trade.trade_no, _message(error, trade)
    db.session.rollback()  # the service refused: nothing it began is kept
    return _page(trade_no, 400, refusal=(action, message, error.reason), **forms)


def _owned(trade_no: str) -> Trade | None:
    if "\x00" in trade_no:
        return None
    return payments_service.find(db.session, current_user.merchant_id, trade_no)


def _done(trade: Trade, text: str):
    db.session.commit()
    flash(text, "ok")
    return redirect(here("dashboard.payments.detail", trade_no=trade.trade_no))


@bp.route("/payments/<trade_no>/refund", methods=["POST"])
@login_required
def refund(trade_no: str):
    form = RefundForm()
    valid = form.validate()
    if "csrf_token" in form.errors or "request_id" in form.errors:
        return _stale_form()
    trade = _owned(trade_no)
    if trade is None:
        return _missing()
    if not valid:
        return _page(trade_no, 400, refund_form=form)
    amount = form.decimal or Decimal(0)
    data = payments_service.detail(
        db.session, current_user.merchant_id, trade_no, sandbox=current_app.config["SANDBOX"]
    )
    refundable = Decimal(data.refundable) if data else Decimal(0)
    finer = money.decimals(amount) > money.exponent(trade.currency)  # the API's own message says what is wrong
    if data is not None and payments_service.REFUND in data.actions and amount > refundable and not finer:
        message = _(
            "The amount is more than what can still be refunded: at most %(refundable)s.",
            refundable=money_text(refundable, trade.currency),
        )
        return _page(
            trade_no, 400, refund_form=form, refusal=(payments_service.REFUND, message, "refund-amount-exceeded")
        )
    if data is not None and payments_service.REFUND in data.actions and not form.confirm.data:
        # The first step only asks to confirm: nothing is written. (A refund this state refuses is refused
        # at once, as the API words it.)
        return _page(trade_no, refund_form=form, confirming=True)
    try:
        with clock.merchant(current_user.merchant_id):
            order = _command(
                RefundOrder,
                trade_no=trade.trade_no,
                out_request_no=form.request_id.data,
                refund_currency=trade.currency,
                refund_amount=amount,
                refund_reason=(form.reason.data or "").strip() or None,
                user_info=payments_service.user_info(trade) if methods.refund_needs_bank_data(trade) else None,
            )
            trade, record = refunds.refund(db.session, merchant(), order)
    except DomainError as error:
        return _refused(trade, payments_service.REFUND, error, refund_form=form)
    # The trade's loaded refunds may not hold the one just written.
    refunded = record.amount_minor + sum(
        r.amount_minor for r in trade.refunds if r is not record and r.status != "FAILED"
    )
    return _done(
        trade,
        _(
            "Refund %(out_request_no)s of %(amount)s: %(status)s. Payment: %(trade_status)s.",
            out_request_no=record.out_request_no or record.refund_no,
            amount=money_text(money.from_minor(record.amount_minor, record.currency), record.currency),
            status=refund_label(record.status),
            trade_status=trade_status_text(trade.status, trade.amount_minor, refunded, trade.currency),
        ),
    )


@bp.route("/payments/<trade_no>/capture", methods=["POST"])
@login_required
def capture(trade_no: str):
    form = CaptureForm()
    valid = form.validate()
    if "csrf_token" in form.errors:
        return _stale_form()
    trade = _owned(trade_no)
    if trade is None:
        return _missing()
    if not valid:
        return _page(trade_no, 400, capture_form=form)
    amount = form.amount.data or money.format_minor(trade.amount_minor, trade.currency)
    try:
        with clock.merchant(current_user.merchant_id):
            capture = _command(
                Capture, out_trade_no=trade.out_trade_no, amount=Decimal(amount), currency=trade.currency
            )
            trade = authorizations.capture(db.session, merchant(), capture, wiring.acquirer())
    except DomainError as error:
        return _refused(trade, payments_service.CAPTURE, error, capture_form=form)
    text = _(
        "Captured %(amount)s. Payment: %(status)s.",
        amount=money_text(money.from_minor(trade.amount_minor, trade.currency), trade.currency),
        status=status_label(trade.status),
    )
    return _done(trade, text)


@bp.route("/payments/<trade_no>/void", methods=["POST"])
@login_required
def void(trade_no: str):
    if not ActionForm().validate_on_submit():
        return _stale_form()
    trade = _owned(trade_no)
    if trade is None:
        return _missing()
    try:
        with clock.merchant(current_user.merchant_id):
            trade = authorizations.void(
                db.session, merchant(), _command(Void, out_trade_no=trade.out_trade_no), wiring.acquirer()
            )
    except DomainError as error:
        return _refused(trade, payments_service.VOID, error)
    return _done(trade, _("The authorization was voided. Payment: %(status)s.", status=status_label(trade.status)))


@bp.route("/payments/<trade_no>/pay", methods=["POST"])
@login_required
def pay(trade_no: str):
    sandbox_only()
    if not ActionForm().validate_on_submit():
        return _stale_form()
    trade = _owned(trade_no)
    if trade is None:
        return _missing()
    try:
        with clock.merchant(current_user.merchant_id):
            trade = payins.sandbox_pay(db.session, merchant(), trade.trade_no)
    except DomainError as error:
        return _refused(trade, payments_service.PAY, error)
    return _done(trade, _("The customer paid. Payment: %(status)s.", status=status_label(trade.status)))
