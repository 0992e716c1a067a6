"""The checkout application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.sessions import SecureCookieSessionInterface

from . import config
from .db import db

CLOCK_STORE = "checkout.clock_store"  # app.extensions: the sandbox clock's store, on its own connection


class NoCookieSessions(SecureCookieSessionInterface):
    """Only the dashboard keeps a cookie session (its login and CSRF token): pages carry signed tokens
    (cookies may be blocked in a merchant's iframe) and the API is stateless, so no other request pays
    for opening one."""

    def open_session(self, app, request):
        if request.path == "/dashboard" or request.path.startswith("/dashboard/"):
            return super().open_session(app, request)
        return None  # Flask answers a NullSession, which it never saves


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    # The features are imported here, not at the top: this package's __init__ runs on any import of
    # one of its modules (checkout.money, say), which must not load every feature and its routes.
    from . import clock, models, wiring  # noqa: F401  (models: every table registered on Base.metadata)
    from .api import handlers, requestlog
    from .dashboard import views as dashboard
    from .ops import bp as ops_bp
    from .pages import i18n, rendered
    from .pages.common import http_error_page
    from .pages.landing import bp as landing_bp
    from .pages.views import bp as pages_bp
    from .payins.api import bp as payins_bp
    from .payouts.api import bp as payouts_bp
    from .vaults.api import bp as vaults_bp
    from .virtualspei.api import bp as virtualspei_bp

    app = Flask(__name__, template_folder="../templates", static_folder="../static")
    app.session_interface = NoCookieSessions()
    config.load(app, overrides)
    wiring.init_app(app)  # once: an unknown ACQUIRER or PAYOUT_BANK stops the start, not the first payment
    app.json.sort_keys = False  # type: ignore[attr-defined]
    db.init_app(app)
    requestlog.init_app(app)  # its writer thread starts with the first row, close() stops it
    _request_clock(app)
    handlers.init_app(app)
    handlers.answer_errors_under(app, "/pages/", http_error_page)

    app.register_blueprint(ops_bp)
    app.register_blueprint(landing_bp)
    app.register_blueprint(payins_bp)
    app.register_blueprint(vaults_bp)
    app.register_blueprint(virtualspei_bp)
    app.register_blueprint(payouts_bp)
    app.register_blueprint(pages_bp)
    i18n.init_app(app)
    rendered.init_app(app)
    dashboard.init_app(app)
    if app.config["SANDBOX"]:
        # Sandbox-only code is not even imported when the sandbox is off.
        from .demo.views import bp as demo_bp
        from .sandbox.api import bp as sandbox_bp
        from .sandbox.models import DatabaseOffsetStore

        app.register_blueprint(sandbox_bp)
        app.register_blueprint(demo_bp)
        store = DatabaseOffsetStore(app.config["DATABASE_URL"])
        clock.use_store(store, store)
        app.extensions[CLOCK_STORE] = store
    return app


def close(app: Flask) -> None:
    """Stop the threads and pools the app started in this process: its worker's sending threads and its
    request log's writer (whose queued rows are written first). `checkout serve` and `checkout worker` call it
    as they stop; the request log's writer also at the interpreter's exit."""
    from . import worker
    from .api import requestlog

    worker.close(app)
    requestlog.of(app).close()


def release(app: Flask) -> None:
    """Close every connection the app opened in this process and this thread, its pools' and its sandbox
    clock's (after close(app)): `checkout serve` does, before granian's processes start from it. Used
    again, the app reconnects."""
    store = app.extensions.get(CLOCK_STORE)
    if store is not None:
        store.engine.dispose()
    if db.engine is not None:
        db.engine.dispose()


def _request_clock(app: Flask) -> None:
    """A request starts on the shared clock (the operation layer or the page then names its merchant) and
    leaves the thread as it found it: no merchant's clock leaks into the next request on this thread."""
    from flask import g

    from . import clock

    @app.before_request
    def shared_clock() -> None:
        g.clock_token = clock.set_merchant(None)

    @app.teardown_request
    def clock_back(exc: BaseException | None) -> None:
        token = g.pop("clock_token", None)
        try:
            if token is None:
                raise ValueError
            clock.restore_merchant(token)
        except ValueError:  # never set here, or set in another context
            clock.set_merchant(None)
