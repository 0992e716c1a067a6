"""Dashboard routes for settings: logo, return hosts, frame origins, default language."""

from __future__ import annotations

from flask_login import login_required

from .web import bp, render


@bp.route("/settings")
@login_required
def settings():
    return render("dashboard/placeholder.html", title="Settings")
