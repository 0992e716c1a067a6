"""Dashboard routes for settings: logo (with previews of the hosted pages' header), return hosts and frame
origins (after the password again), default language."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response
from wtforms import PasswordField, StringField, TextAreaField
from wtforms.validators import AnyOf, DataRequired, Length, ValidationError

from ..db import db
from ..merchants import policy
from ..merchants import service as merchants
from ..pages import layout, security
from . import settings as service
from .forms import REQUIRED, ActionForm
from .web import here, password_again, render

bp = Blueprint("settings", __name__)

NO_LANGUAGE = "browser"  # the form's value for "the customer's browser" (stored as None)


def _not_too_many_lines(_form, field) -> None:
    if len(service.lines(field.data)) > service.MAX_LINES:
        raise ValidationError(ngettext("At most %(num)d line.", "At most %(num)d lines.", service.MAX_LINES))


class LogoForm(FlaskForm):
    logo = FileField(_l("Logo file (PNG or JPEG, at most 512 KiB)"), validators=[FileRequired(REQUIRED)])


class HostsForm(FlaskForm):
    return_hosts = TextAreaField(_l("Return hosts, one per line"), validators=[_not_too_many_lines])
    frame_origins = TextAreaField(_l("Frame origins, one per line"), validators=[_not_too_many_lines])
    # Where customers are sent back and who may frame the payment pages: the password again, as for the keys.
    password = PasswordField(
        _l("Your password"), validators=[DataRequired(REQUIRED), Length(max=1024)], id="hosts-password"
    )


# (value, label): language names in their own language; the first is "the customer's browser".
LANGUAGE_CHOICES = [(NO_LANGUAGE, _l("The customer's browser language")), *layout.language_names()]


class LanguageForm(FlaskForm):
    default_language = StringField(
        _l("Default language of the payment pages"),
        validators=[AnyOf([value for value, _label in LANGUAGE_CHOICES], message=_l("Choose one of the languages."))],
    )


def _logo_errors() -> dict[str, str]:
    return {
        "size": _("The file is larger than 512 KiB."),
        "type": _("The file must be a PNG or JPEG image."),
        "pixels": _("The image is too large: at most 4096 x 4096 pixels."),
        "scans": _(
            "The JPEG image is made of too many scans (at most %(num)d): save it again as a PNG or as a "
            "baseline (not progressive) JPEG.",
            num=policy.JPEG_MAX_SCANS,
        ),
        "unreadable": _("The file is not a readable PNG or JPEG image."),
    }


def _page(status: int = 200, *, logo=None, hosts=None, language=None, problems=()):
    merchant = service.get(db.session, current_user.merchant_id)
    if hosts is None:
        hosts = HostsForm(
            formdata=None,
            return_hosts="\n".join(merchant.return_hosts or []),
            frame_origins="\n".join(merchant.frame_origins or []),
        )
    g.frames_previews = True  # its CSP lets it load the two preview frames (below)
    if language is None:
        language = LanguageForm(formdata=None, default_language=merchant.default_language or NO_LANGUAGE)
    return render(
        "dashboard/settings.html",
        status,
        merchant=merchant,
        logo_form=logo or LogoForm(formdata=None),
        hosts_form=hosts,
        language_form=language,
        remove_form=ActionForm(formdata=None),
        problems=problems,
        language_choices=LANGUAGE_CHOICES,
        version=service.logo_version(merchant),
    )


@bp.route("/settings")
@login_required
def index():
    return _page()


@bp.route("/settings/logo", methods=["POST"])
@login_required
def logo():
    # The sign-in check read the user in the request's transaction, which on SQLite holds the database's
    # write turn from its first statement (db._on_begin): ended here, so that no other writer waits while
    # the upload is read and decoded (up to a second, policy.normalise_logo), which write nothing.
    db.session.commit()
    try:
        form = LogoForm()  # reads the upload: a body over the app's limit is refused here
    except RequestEntityTooLarge:
        # The body stays unread: the page is drawn as if nothing was sent (as Werkzeug keeps parsed data).
        request.__dict__.update(form=ImmutableMultiDict(), files=ImmutableMultiDict())
        form = LogoForm(formdata=None)
        form.logo.errors = [_logo_errors()["size"]]
        return _page(413, logo=form)
    if not form.validate_on_submit():
        if form.csrf_token.errors:
            abort(400)
        return _page(400, logo=form)
    upload = form.logo.data.read(policy.LOGO_MAX_BYTES + 1)
    form.logo.data.close()
    try:
        logo = policy.normalise_logo(upload)
    except policy.LogoRefused as refused:
        form.logo.errors = [_logo_errors()[refused.why]]
        return _page(400, logo=form)
    service.set_logo(db.session, current_user.merchant_id, logo)
    db.session.commit()
    flash(_("Logo saved."), "ok")
    return redirect(here("dashboard.settings.index") + "#logo-title")


@bp.route("/settings/logo/remove", methods=["POST"])
@login_required
def logo_remove():
    if not ActionForm().validate_on_submit():
        abort(400)
    service.remove_logo(db.session, current_user.merchant_id)
    db.session.commit()
    flash(_("Logo removed: the payment pages show the shop's initials."), "ok")
    return redirect(here("dashboard.settings.index") + "#logo-title")


@bp.route("/settings/hosts", methods=["POST"])
@login_required
def hosts():
    form = HostsForm()
    refused = password_again(form, form.password)
    if refused is not None:
        if form.csrf_token.errors:
            abort(400)
        return _page(refused, hosts=form) if isinstance(refused, int) else refused
    problems = service.set_hosts(
        db.session, current_user.merchant_id, form.return_hosts.data or "", form.frame_origins.data or ""
    )
    if problems:
        db.session.rollback()
        return _page(400, hosts=form, problems=problems)
    merchant = service.get(db.session, current_user.merchant_id)
    app_id = merchant.app_id
    db.session.commit()
    merchants.forget(app_id)  # this process's next API request reads the new lists
    flash(_("Return hosts and frame origins saved."), "ok")
    return redirect(here("dashboard.settings.index") + "#hosts-title")


@bp.route("/settings/language", methods=["POST"])
@login_required
def language():
    form = LanguageForm()
    if not form.validate_on_submit():
        if form.csrf_token.errors:
            abort(400)
        return _page(400, language=form)
    chosen = None if form.default_language.data == NO_LANGUAGE else form.default_language.data
    service.set_default_language(db.session, current_user.merchant_id, chosen)
    db.session.commit()
    flash(_("Default language saved."), "ok")
    return redirect(here("dashboard.settings.index") + "#language-title")


@bp.route("/settings/preview/<view>")
@login_required
def preview(view: str):
    """The top of a payment page as a customer sees it, drawn by the pages' own layout (base.html),
    for the settings page's frames."""
    if view not in layout.LOGO_BOXES:
        abort(404)
    merchant = service.get(db.session, current_user.merchant_id)
    version = service.logo_version(merchant)
    logo = url_for("pages.logo", merchant_id=merchant.merchant_id, view=view, v=version) if version else None
    return render_template(
        "dashboard/settings_preview.html",
        view=view,
        merchant_name=merchant.name,
        logo_url=logo,
        logo_box=layout.LOGO_BOXES[view],
        initials=layout.initials(merchant.name),
        csp_nonce=security.nonce(),
        sandbox=current_app.config["SANDBOX"],
        html_lang=g.page_locale.replace("_", "-"),
        page_data={},
    )


@bp.after_app_request
def _previews_in_frames(response: Response) -> Response:
    """The previews alone may be framed, and by the dashboard itself only; the settings page alone may
    frame them (runs after the dashboard's own headers, which forbid every frame both ways)."""
    if request.endpoint == "dashboard.settings.preview" and response.status_code == 200:
        g.frame_origins = ["'self'"]
        response = security.apply_headers(response)
    elif g.get("frames_previews") and "Content-Security-Policy" in response.headers:
        response.headers["Content-Security-Policy"] += "; frame-src 'self'"
    return response
