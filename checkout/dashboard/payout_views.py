"""Dashboard routes for payouts: the list, a payout's page and the sandbox's refund by the recipient's bank."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, request
from flask_babel import gettext as _
from flask_login import current_user, login_required

from .. import clock, money, wiring
from ..db import db
from ..errors import DomainError
from . import deliveries, exports, payout_records
from .record_forms import PayoutFilters, RefundForm
from .web import here, list_page, merchant, money_text, payout_status_label, refused, render, sandbox_only

bp = Blueprint("payouts", __name__)


def _chosen(form: PayoutFilters) -> payout_records.PayoutFilter:
    return payout_records.PayoutFilter(
        status=form.status.data or None,
        method=form.method.data or None,
        first_day=form.first_day.day,
        last_day=form.last_day.day,
        search=(form.q.data or "").strip() or None,
        payee=form.payee.data or None,
        amount=form.amount.decimal,
    )


@bp.route("/payouts")
@login_required
def index():
    return list_page("dashboard/payouts.html", PayoutFilters(formdata=request.args), _chosen, payout_records.listing)


@bp.route("/payouts/export")
@login_required
def export():
    """The list as CSV, its filters and search applied, streamed by keyset batches (docs/dashboard.md)."""
    form = PayoutFilters(formdata=request.args)
    if not form.validate():
        return index()
    lines = exports.payout_rows(db.session, current_user.merchant_id, _chosen(form))
    return exports.attachment(db.session, lines, "payouts")


def _payout_page(transaction_id: str, status: int = 200, **context):
    found = payout_records.detail(db.session, current_user.merchant_id, transaction_id)
    if found is None:
        abort(404)
    context.setdefault("refund_form", RefundForm())
    return render(
        "dashboard/payout.html",
        status,
        data=found,
        messages=deliveries.for_subject(db.session, current_user.merchant_id, transaction_id),
        back=here("dashboard.payouts.detail", transaction_id=transaction_id),
        utc=clock.as_utc,
        format_minor=money.format_minor,
        **context,
    )


@bp.route("/payouts/<transaction_id>")
@login_required
def detail(transaction_id: str):
    return _payout_page(transaction_id)


@bp.route("/payouts/<transaction_id>/refund", methods=["POST"])
@login_required
def refund(transaction_id: str):
    """The recipient's bank refunds a PAID payout, as POST /sandbox/payouts/<transaction_id>/refund does."""
    sandbox_only()
    form = RefundForm()
    valid = form.validate_on_submit()
    if "csrf_token" in form.errors:
        abort(400)
    if payout_records.detail(db.session, current_user.merchant_id, transaction_id) is None:
        abort(404)
    if not valid:
        return _payout_page(transaction_id, 400, refund_form=form)
    try:
        done = payout_records.refund(db.session, merchant(), transaction_id, form.decimal(), wiring.payout_bank())
    except DomainError as error:
        db.session.rollback()
        return _payout_page(transaction_id, 400, refund_form=form, refused=refused(error))
    if done is None:
        db.session.rollback()
        abort(404)
    db.session.commit()
    record, payout = done
    currency = payout.arrival_currency
    flash(
        _(
            "The recipient's bank sent back %(amount)s (%(refunded_id)s). Payout: %(status)s.",
            amount=money_text(money.from_minor(record.arrival_minor, currency), currency),
            refunded_id=record.refunded_id,
            status=payout_status_label(payout.status),
        ),
        "ok",
    )
    return redirect(here("dashboard.payouts.detail", transaction_id=transaction_id))
