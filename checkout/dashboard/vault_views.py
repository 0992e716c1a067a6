"""Dashboard routes for vaults: the list, a vault's page and its actions (the sandbox's decisions, void)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, request
from flask_babel import gettext as _
from flask_login import current_user, login_required

from .. import clock
from ..db import db
from ..errors import DomainError, NotFound
from ..vaults.models import Vault
from . import deliveries, vault_records
from .forms import ActionForm
from .record_forms import VaultFilters, VoidForm
from .web import here, list_page, merchant, refused, render, sandbox_only, vault_status_label

bp = Blueprint("vaults", __name__)


@bp.route("/vaults")
@login_required
def index():
    def chosen(form: VaultFilters) -> vault_records.VaultFilter:
        search = (form.q.data or "").strip() or None
        return vault_records.VaultFilter(type=form.type.data or None, status=form.status.data or None, search=search)

    return list_page("dashboard/vaults.html", VaultFilters(formdata=request.args), chosen, vault_records.listing)


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
        back=here("dashboard.vaults.detail", token=token),
        utc=clock.as_utc,
        **context,
    )


@bp.route("/vaults/<token>")
@login_required
def detail(token: str):
    return _vault_page(token)


def _decide(token: str, approve: bool):
    sandbox_only()
    if not ActionForm().validate_on_submit():
        abort(400)
    return _acted(token, lambda: vault_records.decide(db.session, merchant(), token, approve))


@bp.route("/vaults/<token>/approve", methods=["POST"])
@login_required
def approve(token: str):
    """The payer's bank (pix) or the customer (Card) approves: POST /sandbox/vaults/<token>/approve."""
    return _decide(token, True)


@bp.route("/vaults/<token>/reject", methods=["POST"])
@login_required
def reject(token: str):
    """The payer's bank (pix) or the customer (Card) rejects: POST /sandbox/vaults/<token>/reject."""
    return _decide(token, False)


@bp.route("/vaults/<token>/void", methods=["POST"])
@login_required
def void(token: str):
    """The merchant voids a card vault, as POST /vault/void does (not a sandbox action)."""
    form = VoidForm()
    valid = form.validate_on_submit()
    if "csrf_token" in form.errors:
        abort(400)
    if vault_records.detail(db.session, current_user.merchant_id, token) is None:
        abort(404)
    if not valid:
        return _vault_page(token, 400, void_form=form)
    return _acted(token, lambda: vault_records.void(db.session, merchant(), token))


def _acted(token: str, action: Callable[[], Vault]):
    """After an action on the vault: its page with the new status, or with the refusal (nothing written)."""
    try:
        vault = action()
    except NotFound:
        db.session.rollback()
        abort(404)
    except DomainError as error:
        db.session.rollback()
        return _vault_page(token, 400, refused=refused(error))
    db.session.commit()
    flash(_("The vault's status is now %(status)s.", status=vault_status_label(vault.status)), "ok")
    return redirect(here("dashboard.vaults.detail", token=token))
