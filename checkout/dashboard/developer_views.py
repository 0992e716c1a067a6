"""Dashboard routes for developers: keys, notification deliveries, the API request log, a signature helper."""

from __future__ import annotations

from flask_login import login_required

from .web import bp, render


@bp.route("/developers")
@login_required
def developers():
    return render("dashboard/placeholder.html", title="Developers")
