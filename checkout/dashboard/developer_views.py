"""Dashboard routes for developers: keys, notification deliveries, the API request log, a signature helper."""

from __future__ import annotations

import json

from flask import Blueprint, abort, current_app, flash, redirect, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, PasswordField, StringField, TextAreaField, URLField
from wtforms.validators import DataRequired, Length, Optional, Regexp

from .. import clock, jsonbody, links
from ..api import redaction, requestlog
from ..db import db
from ..merchants import service as merchants
from ..notifications import inbox, inspect
from . import deliveries as delivery_log
from . import developers as dev
from .forms import REQUIRED, ActionForm
from .web import back_to, here, merchant, password_again, render, sandbox_only

bp = Blueprint("developers", __name__)


class PasswordForm(FlaskForm):
    password = PasswordField(_l("Your password"), validators=[DataRequired(REQUIRED), Length(max=1024)])


class RotateForm(FlaskForm):
    rotate_password = PasswordField(_l("Your password"), validators=[DataRequired(REQUIRED), Length(max=1024)])
    confirm = BooleanField(
        _l("I understand: the current security_key and app_key stop working at once."),
        validators=[DataRequired(_l("Tick this box to confirm."))],
    )
    keys = HiddenField()  # developers.keys_version of the keys shown: a reload does not rotate twice


class TestNotificationForm(FlaskForm):
    notify_url = URLField(
        _l("Your notify_url"),
        validators=[
            DataRequired(REQUIRED),
            Length(max=512, message=_l("At most 512 characters.")),
            Regexp(r"^https?://[^\s/?#]+[^\s]*$", message=_l("Enter an http:// or https:// address.")),
        ],
        filters=[lambda value: value.strip() if isinstance(value, str) else value],
    )


class SignatureForm(FlaskForm):
    body = TextAreaField(_l("Payout request body (JSON)"), validators=[DataRequired(REQUIRED), Length(max=65536)])
    signature = StringField(_l("Your signature (optional)"), validators=[Optional(), Length(max=256)])


def _keys_page(status: int = 200, *, revealed: dict | None = None, rotated: bool = False, **forms):
    shop = merchant()
    return render(
        "dashboard/developers.html",
        status,
        app_id=shop.app_id,
        revealed=revealed,
        rotated=rotated,
        basic_header=dev.basic_header(revealed["app_id"], revealed["security_key"]) if revealed else None,
        reveal_form=forms.get("reveal_form") or PasswordForm(),
        rotate_form=forms.get("rotate_form") or RotateForm(),
        keys_version=dev.keys_version(shop),
        already_rotated=forms.get("already_rotated", False),
    )


@bp.route("/developers")
@login_required
def index():
    """The area's home: the app id, the keys behind the password, rotation."""
    return _keys_page()


@bp.route("/developers/keys/reveal", methods=["POST"])
@login_required
def reveal():
    """The keys, in this answer only (never in the session or a cookie), after the password again."""
    form = PasswordForm()
    refused = password_again(form, form.password)
    if refused is not None:
        return refused if not isinstance(refused, int) else _keys_page(refused, reveal_form=form)
    return _keys_page(revealed=merchants.credentials(merchant()))


@bp.route("/developers/keys/rotate", methods=["POST"])
@login_required
def rotate():
    """A new security_key and app_key at once, after the password again and a confirmation."""
    form = RotateForm()
    refused = password_again(form, form.rotate_password)
    if refused is not None:
        return refused if not isinstance(refused, int) else _keys_page(refused, rotate_form=form)
    shown = merchant()
    try:
        if form.keys.data != dev.keys_version(shown):
            raise dev.AlreadyRotated
        # Swapped only if they are still the keys the form named: two confirmations at once rotate once.
        credentials = dev.rotate(db.session, current_user.merchant_id, (shown.security_key, shown.app_key))
    except dev.AlreadyRotated:
        db.session.rollback()
        return _keys_page(409, rotate_form=RotateForm(formdata=None), already_rotated=True)
    db.session.commit()
    return _keys_page(revealed=credentials, rotated=True)


class BadFilter(ValueError):
    """A filter or cursor in the query that no link of ours makes: answered by the page, 400, unfiltered."""


def _cursor(name: str, largest: int) -> int | None:
    """An id cursor of ours: ASCII digits ("²".isdigit() is true, and int() refuses it) within the range of
    the id column it pages (PostgreSQL refuses a larger number for an integer column)."""
    value = request.args.get(name, "")
    if value and (not (value.isascii() and value.isdigit()) or len(value) > 19 or int(value) > largest):
        raise BadFilter(name)
    return int(value) if value else None


@bp.route("/developers/deliveries")
@login_required
def deliveries(test_form: TestNotificationForm | None = None, code: int = 200):
    status = request.args.get("status") or None
    try:
        if status is not None and status not in inspect.STATUSES:
            raise BadFilter("status")
        found = dev.deliveries(db.session, current_user.merchant_id, status, _cursor("before", 2**31 - 1))
    except BadFilter:
        status, found = None, dev.Deliveries([], None)
        bad = True
    else:
        bad = False
    return render(
        "dashboard/developers_deliveries.html",
        400 if bad else code,
        bad_filter=bad,
        found=found,
        chosen=status,
        statuses=delivery_log.status_choices(inspect.STATUSES),
        subject_page=dev.subject_page,
        test_form=test_form or TestNotificationForm(formdata=None),
    )


@bp.route("/developers/deliveries/test", methods=["POST"])
@login_required
def send_test():
    """Queue a signed sample payin callback, marked as a test, to the URL typed: the worker sends it, and it is
    listed with the other deliveries (its attempts, its answer, "send again")."""
    form = TestNotificationForm()
    if not form.validate_on_submit():
        return deliveries(form, 400)
    with clock.merchant(current_user.merchant_id):
        message = delivery_log.send_test(db.session, current_user.merchant_id, form.notify_url.data or "")
    db.session.commit()
    flash(_("Test notification queued: it will be sent within a few seconds. Reload the page to see it."), "ok")
    return redirect(here("dashboard.developers.delivery", notify_id=message.notify_id))


@bp.route("/developers/deliveries/<notify_id>")
@login_required
def delivery(notify_id: str):
    message = dev.delivery(db.session, current_user.merchant_id, notify_id[:64])
    if message is None:
        abort(404)
    return render(
        "dashboard/developers_delivery.html",
        message=message,
        subject=dev.subject_page(message),
        payload=json.dumps(message.payload, indent=2, ensure_ascii=False, default=str),
        back=request.full_path.rstrip("?"),
    )


def _pretty(text: str) -> str:
    text = redaction.shown(text)  # a row kept before a redaction rule was added shows no more than a new one
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text  # not JSON, or cut at the size limit: as it is kept


@bp.route("/developers/requests")
@login_required
def requests():
    requestlog.of(current_app).flush(timeout=0.5)  # what this process's requests queued just now shows at once
    path = (request.args.get("path") or "").strip()[:255] or None
    status_class = request.args.get("status") or None
    try:
        if status_class is not None and status_class not in dev.STATUS_CLASSES:
            raise BadFilter("status")
        if path is not None and "\x00" in path:  # PostgreSQL refuses a NUL in text
            raise BadFilter("path")
        found = dev.requests(
            db.session,
            current_user.merchant_id,
            path=path,
            status_class=status_class,
            before=_cursor("before", 2**63 - 1),
        )
    except BadFilter:
        path, status_class, found = None, None, dev.Requests([], None)
        bad = True
    else:
        bad = False
    return render(
        "dashboard/developers_requests.html",
        400 if bad else 200,
        bad_filter=bad,
        found=found,
        path=path or "",
        chosen=status_class,
        classes=list(dev.STATUS_CLASSES),
        pretty=_pretty,
        logged_at=dev.logged_at,
    )


def _refusal(kind: str) -> str:
    """Why the payout API would refuse the pasted body (jsonbody.BodyError's kind), in the user's words."""
    if kind == "too-deep":
        return _(
            "This body nests objects or arrays deeper than %(levels)d levels; the payout API refuses it.",
            levels=jsonbody.MAX_DEPTH,
        )
    if kind in ("nul", "surrogate"):
        return _(
            "This body holds a NUL character or an unpaired surrogate escape (such as \\ud800); "
            "the payout API refuses it."
        )
    return _("This is not a JSON object. Paste the request body as you send it.")


@bp.route("/developers/signature", methods=["GET", "POST"])
@login_required
def signature():
    form = SignatureForm()
    check = None
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                check = dev.check_signature(merchant(), form.body.data or "", form.signature.data or "")
            except dev.NotAnObject as refused:
                form.body.errors = [_refusal(refused.kind)]
        if form.errors:
            status = 400
    return render("dashboard/developers_signature.html", status, form=form, check=check, app_id=merchant().app_id)


@bp.route("/developers/deliveries/<notify_id>/resend", methods=["POST"])
@login_required
def resend(notify_id: str):
    """Queue one notification for the worker to send again, then back to the page the button was on at
    once (a slow receiver never holds a web thread)."""
    if not ActionForm().validate_on_submit():
        abort(400)
    back = back_to(request.form.get("back"), here("dashboard.developers.index"))
    try:
        queued = delivery_log.resend(db.session, current_user.merchant_id, notify_id)
    except delivery_log.Busy:
        db.session.rollback()
        flash(_("A worker is sending this notification right now; try again in a moment."), "error")
        return redirect(back)
    if queued is None:
        abort(404)
    db.session.commit()
    flash(_("Queued: it will be sent again within a few seconds. Reload the page to see the attempt."), "ok")
    return redirect(f"{back}#delivery-{queued.notify_id}")


@bp.route("/developers/inbox")
@login_required
def inbox_page():
    """The sandbox inbox: its notify_url, and what it received, newest first, each with its signature checked."""
    sandbox_only()
    shop = merchant()
    return render(
        "dashboard/developers_inbox.html",
        inbox_url=inbox.url_for(links.current().base_url, shop.app_id),
        received=inbox.listing(db.session, shop.id),
    )
