"""The hosted pages' blueprint (/pages): the hooks every page shares, each area's blueprint registered under it, and
its own pages: vault pages (PIX Automático authorization, card consent), card entry, logos."""

from __future__ import annotations

from typing import cast

from flask import Blueprint, Response, abort, current_app, redirect, request
from sqlalchemy import select

from .. import clock, links, money, signing, wiring
from ..cards.service import CardInput
from ..db import db
from ..errors import DomainError
from ..merchants.models import Merchant
from ..vaults import service as vaults
from ..vaults.models import Vault
from . import checkout_views, layout, pay_handoff, pay_views, payout_views, qr, results, security, spei_views
from .common import (
    TOKEN_GRACE,
    Page,
    PageError,
    allow_form_target,
    base_url,
    check_post,
    error_page,
    open_page,
    read_token,
    render,
)
from .payin_forms import CardForm
from .returns import with_token

# Every page's blueprint sits under this one: its hooks and error page apply to them all, and their URLs are
# /pages/... (the children add no prefix of their own).
bp = Blueprint("pages", __name__, url_prefix="/pages")
bp.after_request(security.apply_headers)
bp.register_error_handler(PageError, error_page)
for area in (pay_views, pay_handoff, checkout_views, payout_views, spei_views):
    bp.register_blueprint(area.bp)


@bp.before_request
def _reading_takes_no_lock() -> None:
    """A page shown (GET) only reads, each statement on its own: on SQLite it then takes no write lock for as
    long as it renders, which queued every page and payment behind each other (a p99 over a second); on
    PostgreSQL it needs no BEGIN and ROLLBACK round trips. What a page decides, it decides from one statement
    (the payout page: its read model, or without a kept copy its entities, then a result's payout), so
    none of its statements must agree with another."""
    if request.method in ("GET", "HEAD"):
        db.read_only(one_statement=True)


CARD_ENTRY_TTL = 30 * 60
INTERVALS = {"1W": "weekly", "1M": "monthly", "3M": "quarterly", "6M": "semiannual", "1Y": "annual"}


def _merchant(merchant_id: int) -> Merchant:
    return cast(Merchant, db.session.get(Merchant, merchant_id))  # foreign key: never None


def _vault_page(lock: bool = False) -> tuple[Page, Vault]:
    token, payload = read_token(links.VAULT_PAGE, current_app.config["VAULT_SESSION_TTL"] + TOKEN_GRACE)
    query = select(Vault).where(Vault.token == payload.get("vault"))
    vault = db.session.scalar(query.with_for_update(of=Vault) if lock else query)
    if vault is None:
        raise PageError(404, "not-found")
    page = open_page(token, _merchant(vault.merchant_id), "BRA" if vault.type == "pix" else vault.region)
    allow_form_target(vault.return_url)
    return page, vault


def _vault_result(page: Page, vault: Vault):
    """After a decision: 303 to return_url with the signed result, or a result page inside a frame."""
    token = signing.return_token(
        page.merchant.security_key,
        issuer=base_url(),
        app_id=page.merchant.app_id,
        subject=vault.token,
        status=vault.status,
        reference={"uid": vault.uid},
    )
    back = with_token(vault.return_url, token) if vault.return_url else None
    if back and not security.framed():
        return redirect(back, 303)
    return render(
        "pages/result.html",
        page,
        kind="vault",
        outcome=vault.status,
        back=back,
        **results.vault_decided(vault, page.merchant.name, page.merchant.document),
        data={"message": {"type": "checkout.vault", "status": vault.status, "token": token}},
    )


@bp.get("/vault")
def vault_page():
    page, vault = _vault_page()
    if vault.status != vaults.PENDING:
        return _vault_result(page, vault)
    if clock.as_utc(vault.session_expires_at) <= clock.now():
        raise PageError(410, "expired")
    data = {"poll": page.url("pages.vault_status"), "status": vault.status, "interval": 2000}
    if vault.type == "Card":
        return render("pages/vault/card.html", page, vault=vault, card=vault.card, data=data)
    code = qr.authorization_code(vault, current_app.config)
    # PIX vaults hold a plan
    assert vault.plan_interval is not None and vault.plan_min_minor is not None and vault.plan_max_minor is not None
    return render(
        "pages/vault/pix.html",
        page,
        vault=vault,
        interval=INTERVALS[vault.plan_interval],
        code=code,
        qr_svg=qr.svg(code),
        masked_document=qr.mask_document(vault),
        plan_minimum=money.from_minor(vault.plan_min_minor, "BRL"),
        plan_maximum=money.from_minor(vault.plan_max_minor, "BRL"),
        data=data,
    )


@bp.post("/vault")
def vault_decide():
    """The customer's answer on the card-on-file consent page (or the sandbox bank's, for PIX)."""
    page, vault = _vault_page(lock=True)
    check_post(page)
    decision = request.form.get("decision")
    if decision not in ("accept", "decline"):
        raise PageError(400, "invalid")
    if vault.type == "pix" and not current_app.config["SANDBOX"]:
        raise PageError(403, "forbidden")  # outside the sandbox only the payer's bank decides
    if vault.status == vaults.PENDING:
        try:
            vaults.decide(db.session, page.merchant, vault.token, decision == "accept")
        except DomainError:
            db.session.rollback()
            raise PageError(410, "expired") from None
        db.session.commit()
    return _vault_result(page, vault)


@bp.get("/vault/status")
def vault_status():
    page, vault = _vault_page()
    return {"status": vault.status, "next": page.url("pages.vault_page")}


def _card_page() -> Page:
    token, payload = read_token(links.CARD_ENTRY_PAGE, CARD_ENTRY_TTL, lambda p: p.get("merchant"))
    merchant = _merchant(payload.get("merchant", 0))
    if merchant is None:
        raise PageError(404, "not-found")
    return open_page(token, merchant, payload.get("country"))


@bp.get("/card")
def card_page():
    return render("pages/card/entry.html", _card_page(), form=CardForm(formdata=None))


@bp.post("/card")
def card_submit():
    page = _card_page()
    merchant = page.merchant
    check_post(page)
    form = CardForm()
    if not form.validate():
        return render("pages/card/entry.html", page, 422, form=form)
    try:
        typed = CardInput(form.digits, form.cvv.data, form.expiry[0], form.expiry[1], form.holder.data)
        card = wiring.tokenizer().tokenize(db.session, merchant, typed)
    except DomainError as error:
        db.session.rollback()
        form.form_errors.append(error.message)
        return render("pages/card/entry.html", page, 422, form=form)
    db.session.commit()
    message = {
        "type": "checkout.card_token",
        "token": card.token,
        "brand": card.brand,
        "first_six_digits": card.first_six,
        "last_four_digits": card.last_four,
    }
    return render(
        "pages/result.html",
        page,
        kind="card",
        outcome="TOKENIZED",
        card=card,
        back=None,
        data={"message": message},
        **results.card_saved(card, merchant.name),
    )


@bp.get("/logo/<merchant_id>/<view>.png")
def logo(merchant_id: str, view: str):
    if view not in layout.LOGO_BOXES:
        abort(404)
    merchant = db.session.scalar(select(Merchant).where(Merchant.merchant_id == merchant_id))
    if merchant is None or not merchant.logo_png:
        abort(404)
    response = Response(layout.logo_png(merchant.logo_png, view, merchant.name), mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
