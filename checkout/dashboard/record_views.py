"""Dashboard routes for vaults and payouts: lists, detail pages and their actions (sandbox decisions, void, refund)."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, request
from flask_babel import gettext as _
from flask_login import current_user, login_required

from .. import clock, money, providers
from ..db import db
from ..errors import DomainError, NotFound
from ..pages import i18n
from . import deliveries, payout_records, records, vault_records
from .forms import ActionForm
from .record_forms import PayoutFilters, RefundForm, VaultFilters, VoidForm
from .web import bp, here, merchant, render, sandbox_only


def _refused(error: DomainError) -> dict:
    """A service's refusal, shown on the page as the API would word it (reason = the payin sub_code)."""
    return {"reason": error.reason, "message": error.message}


def _paging_args(form) -> dict:
    """The list's filters as query values, for the next page's link (empty ones left out)."""
    return {name: field.data for name, field in form._fields.items() if name != "before" and field.data}


# --- vaults --------------------------------------------------------------------------------------------


@bp.route("/vaults")
@login_required
def vaults():
    def chosen(form: VaultFilters) -> vault_records.VaultFilter:
        search = (form.q.data or "").strip() or None
        return vault_records.VaultFilter(type=form.type.data or None, status=form.status.data or None, search=search)

    return _list_page("dashboard/vaults.html", VaultFilters(formdata=request.args), chosen, vault_records.listing)


def _list_page(template: str, form, chosen, listing):
    """A list by its filters and keyset cursor; a filter or cursor no link of ours makes answers the page
    with its error (400)."""
    page = None
    if form.validate():
        try:
            page = listing(db.session, current_user.merchant_id, chosen(form), form.before.data or None)
        except records.BadCursor:
            form.before.errors = [_("This page link is not valid any more. Start again from the newest.")]
    return render(template, 400 if form.errors else 200, form=form, page=page, args=_paging_args(form))


def _vault_page(token: str, status: int = 200, **context):
    found = vault_records.detail(db.session, current_user.merchant_id, token)
    if found is None:
        abort(404)
    context.setdefault("void_form", VoidForm())
    return render(
        "dashboard/vault.html",
        status,
        data=found,
        action_form=ActionForm(),
        messages=deliveries.for_subject(db.session, current_user.merchant_id, token),
        back=here("dashboard.vault_detail", token=token),
        utc=clock.as_utc,
        **context,
    )


@bp.route("/vaults/<token>")
@login_required
def vault_detail(token: str):
    return _vault_page(token)


def _decide(token: str, approve: bool):
    sandbox_only()
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        vault = vault_records.decide(db.session, merchant(), token, approve)
    except NotFound:
        db.session.rollback()
        abort(404)
    except DomainError as error:
        db.session.rollback()
        return _vault_page(token, 400, refused=_refused(error))
    db.session.commit()
    flash(_("The vault is now %(status)s.", status=vault.status), "ok")
    return redirect(here("dashboard.vault_detail", token=token))


@bp.route("/vaults/<token>/approve", methods=["POST"])
@login_required
def vault_approve(token: str):
    """The payer's bank (pix) or the customer (Card) approves: POST /sandbox/vaults/<token>/approve."""
    return _decide(token, True)


@bp.route("/vaults/<token>/reject", methods=["POST"])
@login_required
def vault_reject(token: str):
    """The payer's bank (pix) or the customer (Card) rejects: POST /sandbox/vaults/<token>/reject."""
    return _decide(token, False)


@bp.route("/vaults/<token>/void", methods=["POST"])
@login_required
def vault_void(token: str):
    """The merchant voids a card vault, as POST /vault/void does (not a sandbox action)."""
    form = VoidForm()
    valid = form.validate_on_submit()
    if "csrf_token" in form.errors:
        abort(400)
    if vault_records.detail(db.session, current_user.merchant_id, token) is None:
        abort(404)
    if not valid:
        return _vault_page(token, 400, void_form=form)
    try:
        vault = vault_records.void(db.session, merchant(), token)
    except NotFound:
        db.session.rollback()
        abort(404)
    except DomainError as error:
        db.session.rollback()
        return _vault_page(token, 400, refused=_refused(error))
    db.session.commit()
    flash(_("The vault is now %(status)s.", status=vault.status), "ok")
    return redirect(here("dashboard.vault_detail", token=token))


# --- payouts -------------------------------------------------------------------------------------------


@bp.route("/payouts")
@login_required
def payouts():
    def chosen(form: PayoutFilters) -> payout_records.PayoutFilter:
        return payout_records.PayoutFilter(
            status=form.status.data or None,
            method=form.method.data or None,
            first_day=form.first_day.day,
            last_day=form.last_day.day,
            search=(form.q.data or "").strip() or None,
        )

    return _list_page("dashboard/payouts.html", PayoutFilters(formdata=request.args), chosen, payout_records.listing)


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
        back=here("dashboard.payout_detail", transaction_id=transaction_id),
        utc=clock.as_utc,
        format_minor=money.format_minor,
        **context,
    )


@bp.route("/payouts/<transaction_id>")
@login_required
def payout_detail(transaction_id: str):
    return _payout_page(transaction_id)


@bp.route("/payouts/<transaction_id>/refund", methods=["POST"])
@login_required
def payout_refund(transaction_id: str):
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
        done = payout_records.refund(
            db.session, merchant(), transaction_id, form.decimal(), providers.payout_bank(current_app.config)
        )
    except DomainError as error:
        db.session.rollback()
        return _payout_page(transaction_id, 400, refund_form=form, refused=_refused(error))
    if done is None:
        db.session.rollback()
        abort(404)
    db.session.commit()
    record, payout = done
    currency = payout.arrival_currency
    amount = i18n.format_amount(money.from_minor(record.arrival_minor, currency), currency)
    flash(
        _(
            "The recipient's bank sent back %(amount)s %(currency)s (%(refunded_id)s); the payout is now %(status)s.",
            amount=amount,
            currency=currency,
            refunded_id=record.refunded_id,
            status=payout.status,
        ),
        "ok",
    )
    return redirect(here("dashboard.payout_detail", transaction_id=transaction_id))
