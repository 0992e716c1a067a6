"""The dashboard's blueprint (/dashboard): its hooks, each area's blueprint registered under it, and its own routes:
sign-up (sandbox, limited per address), login with a rate limit, sessions bounded from the login and ended by a
logout, the overview and its sandbox clock."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, Flask, abort, current_app, redirect, request, session
from flask_babel import gettext as _
from flask_login import LoginManager, UserMixin, current_user, login_required, login_user, logout_user
from sqlalchemy.exc import IntegrityError

from .. import clock
from ..api import handlers
from ..db import db
from ..merchants import service as merchants
from . import chart, developer_views, overview, payment_views, payout_views, settings_views, users, vault_views, web
from .forms import ClockForm, LoginForm, LogoutForm, SignupForm
from .models import User
from .web import back_to, client_address, error_page, here, locked_page, render, sandbox_only

login_manager = LoginManager()  # a Flask extension: init_app binds it to each app, which keeps the state

# Every area's blueprint sits under this one: its hooks apply to them all, and their URLs are /dashboard/...
# (the children add no prefix of their own). The navigation is web.NAV.
bp = Blueprint("dashboard", __name__, url_prefix="/dashboard")
bp.before_request(web.choose_language)
bp.before_request(web.no_nul_in_the_path)
bp.after_request(web.page_headers)
for area in (payment_views, vault_views, payout_views, developer_views, settings_views):
    bp.register_blueprint(area.bp)

# A session ends this long after its login (real time), however often its cookie was signed again since.
SESSION_LIMIT = timedelta(hours=12)
LOGIN_AT, VERSION = "login_at", "session_version"  # in the session: unix seconds, the user's session_version


class SignedIn(UserMixin):
    """Who the session names: a user of one merchant (the session keeps its id, login time and version only)."""

    def __init__(self, user_id: int, merchant_id: int, email: str):
        self.id, self.merchant_id, self.email = user_id, merchant_id, email


@login_manager.user_loader
def _load(user_id: str) -> SignedIn | None:
    user = users.get(db.session, int(user_id)) if user_id.isascii() and user_id.isdigit() else None
    if user is None or not _session_holds(user):
        return None
    return SignedIn(user.id, user.merchant_id, user.email)


def _session_holds(user: User) -> bool:
    """The cookie names a session that has not ended: logged in less than SESSION_LIMIT ago (a message
    flashed re-signs the cookie, which would otherwise keep a copy alive for ever), and no logout or new
    password since (either adds one to the user's session_version, so every copy of the cookie is refused)."""
    login_at, version = session.get(LOGIN_AT), session.get(VERSION)
    if not isinstance(login_at, int) or version != user.session_version:
        return False
    return clock.real_now().timestamp() - login_at < SESSION_LIMIT.total_seconds()


def _sign_in(user: User) -> None:
    login_user(SignedIn(user.id, user.merchant_id, user.email))
    session[LOGIN_AT] = int(clock.real_now().timestamp())
    session[VERSION] = user.session_version


def init_app(app: Flask) -> None:
    """Flask-Login, the dashboard's session cookie settings and its routes."""
    app.config.setdefault("DASHBOARD_SIGNUP", app.config["SANDBOX"])
    app.config["DASHBOARD_SIGNUP"] = app.config["SANDBOX"] and str(app.config["DASHBOARD_SIGNUP"]).lower() not in (
        "0",
        "off",
        "false",
        "no",
        "",
    )
    app.config.update(
        SESSION_COOKIE_NAME="checkout_dashboard",
        SESSION_COOKIE_PATH="/dashboard",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=str(app.config.get("PUBLIC_URL") or "").startswith("https://"),
        REMEMBER_COOKIE_DURATION=0,
        # The cookie's signature expires this long after it was last signed; the session itself ends
        # SESSION_LIMIT after its login, and at a logout (_session_holds).
        PERMANENT_SESSION_LIFETIME=SESSION_LIMIT,
    )
    login_manager.login_view = "dashboard.login"
    login_manager.login_message = None
    login_manager.session_protection = "strong"
    login_manager.init_app(app)
    app.register_blueprint(bp)
    handlers.answer_errors_under(app, "/dashboard", error_page)


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    if not current_app.config["DASHBOARD_SIGNUP"]:
        abort(404)
    form = SignupForm()
    if form.validate_on_submit():
        # A paused address costs no scrypt; the check is made again, atomically, where the sign-up is written.
        try:
            users.check_signups(db.session, address=client_address())
        except users.SignupsPaused as paused:
            db.session.rollback()
            return locked_page(paused)
        # Hashed with no transaction open: none (on SQLite, the database's one writer turn) waits for scrypt.
        db.session.rollback()
        password_hash = users.hashed(form.password.data or "")
        try:
            merchant, user = users.sign_up(
                db.session,
                email=form.email.data or "",
                password_hash=password_hash,
                shop_name=form.shop_name.data or "",
                address=client_address(),
            )
            credentials = merchants.credentials(merchant)
            db.session.commit()  # two sign-ups with one e-mail at once: the unique index refuses the second
        except users.SignupsPaused as paused:
            db.session.rollback()
            return locked_page(paused)
        except users.DuplicateEmail:
            db.session.commit()  # the attempt counts toward the address's limit; nothing else was written
            form.email.errors = [_("This e-mail address already has an account. Log in instead.")]
        except IntegrityError:
            db.session.rollback()
            form.email.errors = [_("This e-mail address already has an account. Log in instead.")]
        else:
            _sign_in(user)
            # Shown once, in this answer only: never kept in the session cookie, never shown again.
            return render("dashboard/credentials.html", credentials=credentials, merchant_name=merchant.name)
    return render("dashboard/signup.html", 400 if form.errors else 200, form=form)


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated and request.method == "GET":
        return redirect(here("dashboard.index"))
    form = LoginForm()
    failed = False
    # Where login_required sent the user from: followed only inside the dashboard.
    wanted = back_to(request.args.get("next"), "") or None
    if form.validate_on_submit():
        try:
            user = users.authenticate(
                db.session,
                email=form.email.data or "",
                password=form.password.data or "",
                address=client_address(),
            )
        except users.Locked as locked:
            db.session.rollback()
            return locked_page(locked)
        db.session.commit()
        if user is not None:
            _sign_in(user)
            return redirect(wanted or here("dashboard.index"))
        failed = True
    status = 400 if form.errors else 200
    return render("dashboard/login.html", status, form=form, failed=failed, wanted=wanted)


@bp.route("/logout", methods=["POST"])
def logout():
    if not LogoutForm().validate_on_submit():
        abort(400)
    if current_user.is_authenticated:
        users.end_sessions(db.session, current_user.id)  # every copy of this cookie, and the user's other sessions
        db.session.commit()
    logout_user()
    return redirect(here("dashboard.login"))


@bp.route("")
@login_required
def index():
    data = overview.overview(db.session, current_user.merchant_id)
    history = chart.balance_chart(db.session, data.merchant)
    return render("dashboard/overview.html", data=data, chart=history, clock_form=ClockForm())


@bp.route("/clock", methods=["POST"])
@login_required
def advance_clock():
    sandbox_only()
    form = ClockForm()
    if not form.validate_on_submit():
        abort(400)
    from .. import wiring
    from ..sandbox import clocks  # sandbox-only code: imported only when the sandbox is on

    try:
        clocks.advance_merchant(
            db.session,
            current_user.merchant_id,
            int(form.seconds.data or 0),
            bank=wiring.payout_bank(),
        )
    except ValueError:
        db.session.rollback()
        abort(400)
    db.session.commit()
    return redirect(here("dashboard.index"))
