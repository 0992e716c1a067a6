"""Payout checkout page: the beneficiary picks a method, gives the account, and one payout is created."""

from __future__ import annotations

import functools
import json
from typing import cast

from flask import Blueprint, current_app, redirect, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import bindparam, select
from wtforms.fields.choices import SelectChoice

from .. import clock, links, money, signing, wiring
from ..db import db
from ..errors import DomainError, Duplicate, InvalidField
from ..merchants.models import Merchant
from ..payouts import corridors, pricing, sessions
from ..payouts import service as payouts
from ..payouts.models import CheckoutSession, Payout
from ..payouts.schemas import NewPayout
from . import payout_figures, payout_read, payout_rules, rendered, results, security
from .common import (
    TOKEN_GRACE,
    Page,
    PageError,
    allow_form_target,
    base_url,
    check_post,
    enter_page,
    now_unix,
    open_page,
    read_token,
    render,
)
from .payout_form import PIX_KEY_EXAMPLES, PayoutForm
from .returns import with_token

bp = Blueprint("payout", __name__)

CHECK_ONLY = "X-Checkout-Check"  # a POST with this header set to 1 is only checked: see submit
PAYOUT_METHOD_LABELS = {"PIX": "Pix", "BANKTRANSFER": _l("Bank transfer"), "SPEI": "SPEI", "WALLET": _l("Wallet")}
# Each method's mark (templates/pages/_marks.html; an unknown name draws a bank).
METHOD_MARKS = {"PIX": "pix", "BANKTRANSFER": "bank", "SPEI": "spei", "WALLET": "wallet"}


@functools.cache
def session_and_merchant(lock: bool):
    """The session, its merchant and the payout holding its custom_code in one statement, as entities,
    built once (building it cost as much as running it). A `GET` served from a kept copy reads
    payout_read's instead."""
    query = (
        select(CheckoutSession, Merchant, sessions.code_holder())
        .join(Merchant, Merchant.id == CheckoutSession.merchant_id)
        .where(CheckoutSession.session_id == bindparam("session"))
    )
    return query.with_for_update(of=CheckoutSession) if lock else query


def _token() -> tuple[str, str]:
    """The page's token and the session it names."""
    token, payload = read_token(links.PAYOUT_PAGE, 1800 + TOKEN_GRACE)
    return token, str(payload.get("session"))


def _session_page(token: str, session_id: str, lock: bool = False) -> tuple[Page, CheckoutSession, int | None]:
    """The page, its session, and the id of the payout holding the session's custom_code (if any)."""
    found = db.session.execute(session_and_merchant(lock), {"session": session_id}).first()
    if found is None:
        raise PageError(404, "not-found")
    record, merchant, holder = found
    page = open_page(token, merchant, record.country)
    allow_form_target(record.return_url)
    return page, record, holder


def _methods(record: CheckoutSession) -> list[str]:
    return sessions.offered_methods(cast(str, record.country), record.method)  # sessions.create() sets country


def _quotes(record: CheckoutSession, merchant: Merchant) -> dict[str, pricing.Quote]:
    return sessions.quotes(
        source_currency=record.source_currency,
        payout_currency=record.payout_currency,
        amount=money.from_minor(record.payout_amount_minor, record.payout_currency),
        fee_bear=record.fee_bear,
        country=cast(str, record.country),
        method=record.method,
        mid_rates=current_app.config["PAYOUT_MID_RATES"],
        markup_bps=merchant.fx_markup_bps,
    )


def _form(record: CheckoutSession, formdata=None) -> PayoutForm:
    form = PayoutForm(formdata=formdata)
    form.method.choices = [SelectChoice(m, PAYOUT_METHOD_LABELS[m]) for m in _methods(record)]
    if formdata is None:
        form.method.data = _methods(record)[0]
    # The key's example follows its type (pages.js swaps it when the type changes).
    examples = {value: str(example) for value, example in PIX_KEY_EXAMPLES.items()}
    form.pix_key_type.render_kw = {"data-examples": json.dumps(examples), "data-for": form.pix_key.id}
    form.pix_key.render_kw = {
        **(form.pix_key.render_kw or {}),
        "placeholder": examples.get(form.pix_key_type.data or "CPF"),
    }
    return form


def _show_form(
    page: Page,
    record: CheckoutSession,
    form: PayoutForm,
    status: int = 200,
    *,
    nonce: str | None = None,
    now: int | str | None = None,
):
    deadline = clock.unix(record.expires_at)
    quotes = _quotes(record, page.merchant)
    return render(
        "pages/payout/form.html",
        page,
        status,
        nonce=nonce,
        record=record,
        form=form,
        quotes=quotes,
        figures={m: payout_figures.figures(q, record.fee_bear == "merchant") for m, q in quotes.items()},
        marks=METHOD_MARKS,
        deadline=deadline,
        amount=money.from_minor(record.payout_amount_minor, record.payout_currency),
        data={"deadline": deadline, "now": clock.unix(clock.now()) if now is None else now},
    )


def _result(page: Page, record: CheckoutSession):
    payout = db.session.get(Payout, record.payout_id)
    assert payout is not None  # a COMPLETED session has its payout
    token = signing.return_token(
        page.merchant.app_key,
        issuer=base_url(),
        app_id=page.merchant.app_id,
        subject=payout.transaction_id,
        status=payout.status,
        reference={"custom_code": record.custom_code},
    )
    back = with_token(record.return_url, token)
    if not security.framed():
        return redirect(back, 303)
    return render(
        "pages/result.html",
        page,
        kind="payout",
        outcome=payout.status,
        payout=payout,
        back=back,
        **results.payout_made(payout, str(PAYOUT_METHOD_LABELS.get(payout.method, payout.method)), page.merchant.name),
        data={"message": {"type": "checkout.payout", "status": payout.status, "token": token}},
    )


def _expired(record: CheckoutSession) -> bool:
    # One the expiry job closed stays closed (EXPIRED cannot become COMPLETED), even if the sandbox clock
    # was set back since.
    return record.status == sessions.EXPIRED or clock.as_utc(record.expires_at) <= clock.now()


def _closed(record: CheckoutSession, holder: int | None) -> None:
    """A session that can no longer create its payout ends on a clear page, never on its form: its time ran
    out, or (a session opened before migration 0008) a direct payout took its custom_code."""
    if sessions.code_taken_elsewhere(record.payout_id, holder):
        raise PageError(410, "taken")
    if _expired(record):
        raise PageError(410, "expired")


def _order(record: CheckoutSession, form: PayoutForm) -> NewPayout:
    fields = form.payout_fields()
    values = {
        **fields,
        "method": form.method.data,
        "channel": fields.get("channel"),
        "custom_code": record.custom_code,
        "fee_bear": record.fee_bear,
        "amount": money.from_minor(record.payout_amount_minor, record.payout_currency),
        "amount_type": pricing.ARRIVAL,
        "source_currency": record.source_currency,
        "arrival_currency": record.payout_currency,
        "notify_url": record.notify_url,
        "additional_remark": record.additional_remark,
        "country": cast(str, record.country),  # sessions.create() sets it
    }
    # Held to the page's own rules (its form, then corridors.problems, naming each field's problem), not
    # to the API's: the session fixed the order's fields when it was opened.
    return NewPayout.model_construct(**values)


def _checked(record: CheckoutSession, form: PayoutForm) -> NewPayout | None:
    """The payout the form asks for, or None with every problem on its input: the form's own validators and
    every payout rule of the chosen method (the ones submit applies), all in one answer."""
    valid = form.validate()
    if form.form_errors or form.method.data not in _methods(record):
        return None  # text that is no text, or no method: nothing else can be judged
    order = _order(record, form)
    for problem in corridors.problems(order):
        form.attach_error(problem.field, payout_rules.message(problem.field, problem.rule))
    return order if valid and not form.errors else None


@bp.get("/payout")
def show():
    """The unfilled form from its kept copy when there is one, read without an entity (payout_read);
    anything else (a copy's first rendering, a result, a closed session) from the session's entities."""
    token, session_id = _token()
    shown = payout_read.read(db.session, session_id)
    if shown is None:
        raise PageError(404, "not-found")
    view, locale = enter_page(shown.merchant, shown.country)
    copies = rendered.payout_forms(current_app)
    if shown.shows_form():
        body = copies.find(shown.key(token, view, locale), nonce=security.nonce(), now=now_unix())
        if body is not None:
            allow_form_target(shown.return_url)
            return body
    page, record, holder = _session_page(token, session_id)
    if record.status == sessions.COMPLETED:
        return _result(page, record)
    _closed(record, holder)

    def fresh() -> str:
        return _show_form(page, record, _form(record), nonce=rendered.NONCE, now=rendered.NOW)[0]

    # Kept under the key of what it was rendered from, so that a copy never shows other values than its key's.
    key = payout_read.ShownSession.of(record, page.merchant, holder).key(page.token, page.view, page.locale)
    return copies.get(key, fresh, nonce=security.nonce(), now=now_unix())


@bp.post("/payout")
def submit():
    """Create the session's payout exactly once: the session row is locked, a repeat sees COMPLETED."""
    page, record, holder = _session_page(*_token(), lock=True)
    check_post(page)
    if record.status == sessions.COMPLETED:
        return _result(page, record)
    _closed(record, holder)
    form = _form(record, request.form)
    order = _checked(record, form)
    if request.headers.get(CHECK_ONLY) == "1":
        # The page's script asks, before sending the form, what only the server can judge (a CPF's or a
        # CLABE's check digits), to show it with its own findings in one round; nothing is written.
        db.session.rollback()
        return {"errors": {field.name: field.errors[0] for field in form if field.errors}}
    if order is None:
        return _show_form(page, record, form, 422)
    try:
        payout, _figures = payouts.submit(
            db.session,
            page.merchant,
            order,
            mid_rates=current_app.config["PAYOUT_MID_RATES"],
            markup_bps=page.merchant.fx_markup_bps,
            bank=wiring.payout_bank(),
            checkout_session=True,
        )
    except InvalidField as error:
        db.session.rollback()
        form.attach_error(error.field, payout_rules.message(error.field, error.rule))
        return _show_form(page, record, form, 422)
    except Duplicate:
        db.session.rollback()
        raise PageError(410, "taken") from None
    except DomainError:
        db.session.rollback()
        # The API's reason is English and for the merchant; the beneficiary is told what they can do.
        form.form_errors.append(
            _("%(merchant)s cannot send this payout now. Please contact them.", merchant=page.merchant.name)
        )
        return _show_form(page, record, form, 409)
    sessions.set_status(record, sessions.COMPLETED, payout_id=payout.id)
    db.session.commit()
    return _result(page, record)
