"""Dashboard routes for developers: keys, notification deliveries, the API request log, a signature helper."""

from __future__ import annotations

import json

from flask import abort, current_app, flash, redirect, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, PasswordField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from ..api import requestlog
from ..db import db
from ..merchants import service as merchants
from ..notifications import inspect
from . import deliveries, users
from . import developers as dev
from .forms import REQUIRED, ActionForm
from .web import back_to, bp, here, merchant, render


class PasswordForm(FlaskForm):
    password = PasswordField(_l("Your password"), validators=[DataRequired(REQUIRED), Length(max=1024)])


class RotateForm(FlaskForm):
    rotate_password = PasswordField(_l("Your password"), validators=[DataRequired(REQUIRED), Length(max=1024)])
    confirm = BooleanField(
        _l("I understand: the current security_key and app_key stop working at once."),
        validators=[DataRequired(_l("Tick this box to confirm."))],
    )
    keys = HiddenField()  # developers.keys_version of the keys shown: a reload does not rotate twice


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


def _password_checked(form: FlaskForm, password):
    """None when the password typed again is right; else the answer to give: a status for the form's page
    (its errors, a wrong password) or the locked page."""
    if not form.validate_on_submit():
        return 400
    try:
        dev.confirm_password(
            db.session,
            email=current_user.email,
            password=password.data or "",
            address=request.remote_addr or "unknown",
        )
    except users.Locked as locked:
        db.session.rollback()
        from .views import _locked  # the login page's own answer

        return _locked(locked)
    except dev.WrongPassword:
        db.session.commit()  # the failure counts toward the login limit
        password.errors = [_("This is not your password.")]
        return 400
    db.session.commit()
    return None


@bp.route("/developers")
@login_required
def developers():
    """The area's home: the app id, the keys behind the password, rotation."""
    return _keys_page()


@bp.route("/developers/keys/reveal", methods=["POST"])
@login_required
def developer_reveal():
    """The keys, in this answer only (never in the session or a cookie), after the password again."""
    form = PasswordForm()
    refused = _password_checked(form, form.password)
    if refused is not None:
        return refused if not isinstance(refused, int) else _keys_page(refused, reveal_form=form)
    return _keys_page(revealed=merchants.credentials(merchant()))


@bp.route("/developers/keys/rotate", methods=["POST"])
@login_required
def developer_rotate():
    """A new security_key and app_key at once, after the password again and a confirmation."""
    form = RotateForm()
    refused = _password_checked(form, form.rotate_password)
    if refused is not None:
        return refused if not isinstance(refused, int) else _keys_page(refused, rotate_form=form)
    if form.keys.data != dev.keys_version(merchant()):
        return _keys_page(409, rotate_form=RotateForm(formdata=None), already_rotated=True)
    credentials = dev.rotate(db.session, current_user.merchant_id)
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
def developer_deliveries():
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
        400 if bad else 200,
        bad_filter=bad,
        found=found,
        chosen=status,
        statuses=inspect.STATUSES,
        subject_page=dev.subject_page,
    )


@bp.route("/developers/deliveries/<notify_id>")
@login_required
def developer_delivery(notify_id: str):
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
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text  # not JSON, or cut at the size limit: as it is kept


@bp.route("/developers/requests")
@login_required
def developer_requests():
    requestlog.flush(timeout=0.5)  # what this process's requests queued just now shows at once
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


@bp.route("/developers/signature", methods=["GET", "POST"])
@login_required
def developer_signature():
    form = SignatureForm()
    check = None
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                check = dev.check_signature(merchant(), form.body.data or "", form.signature.data or "")
            except dev.NotAnObject:
                form.body.errors = [_("This is not a JSON object. Paste the request body as you send it.")]
        if form.errors:
            status = 400
    return render("dashboard/developers_signature.html", status, form=form, check=check, app_id=merchant().app_id)


@bp.route("/developers/deliveries/<notify_id>/resend", methods=["POST"])
@login_required
def developer_resend(notify_id: str):
    """Send one notification again now, then back to the page the button was on."""
    if not ActionForm().validate_on_submit():
        abort(400)
    back = back_to(request.form.get("back"), here("dashboard.developers"))
    try:
        sent = deliveries.resend(db.session, current_user.merchant_id, notify_id, current_app.config)
    except deliveries.Busy:
        db.session.rollback()
        flash(_("A worker is sending this notification right now; try again in a moment."), "error")
        return redirect(back)
    if sent is None:
        abort(404)
    db.session.commit()
    last = sent.attempt_log[-1] if sent.attempt_log else None
    if last is not None and last.succeeded:
        flash(_("Sent again: the receiver answered success."), "ok")
    else:
        flash(_("Sent again: the receiver did not answer success."), "error")
    return redirect(f"{back}#delivery-{sent.notify_id}")
