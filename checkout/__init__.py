"""The checkout application factory."""
from __future__ import annotations

from flask import Flask
from flask.sessions import SecureCookieSessionInterface

from . import config, errors
from .db import db


class NoCookieSessions(SecureCookieSessionInterface):
    """Nothing keeps a cookie session: pages carry signed tokens (cookies may be blocked in a merchant's
    iframe) and the API is stateless, so no request pays for opening one."""

    def open_session(self, app, request):
        return None  # Flask answers a NullSession, which it never saves


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder="../templates", static_folder="../static")
    app.session_interface = NoCookieSessions()
    config.load(app, overrides)
    app.json.sort_keys = False
    db.init_app(app)
    errors.init_app(app)

    from . import models  # noqa: F401  (every table registered on Base.metadata)
    from .ops import bp as ops_bp
    from .pages import i18n, pay_views, payout_views  # noqa: F401  (routes on pages.views.bp)
    from .pages.views import bp as pages_bp
    from .payins.api import bp as payins_bp
    from .payouts.api import bp as payouts_bp
    from .vaults.api import bp as vaults_bp

    app.register_blueprint(ops_bp)
    app.register_blueprint(payins_bp)
    app.register_blueprint(vaults_bp)
    app.register_blueprint(payouts_bp)
    app.register_blueprint(pages_bp)
    i18n.init_app(app)
    if app.config["SANDBOX"]:
        from . import clock
        from .sandbox.api import bp as sandbox_bp
        from .sandbox.models import DatabaseOffsetStore

        app.register_blueprint(sandbox_bp)
        from .demo.views import bp as demo_bp

        app.register_blueprint(demo_bp)
        clock.use_store(DatabaseOffsetStore(app.config["DATABASE_URL"]))
    return app
