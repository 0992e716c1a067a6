"""Dashboard routes for vaults and payouts: lists, detail pages and their sandbox actions."""

from __future__ import annotations

from flask_login import login_required

from .web import bp, render


@bp.route("/vaults")
@login_required
def vaults():
    return render("dashboard/placeholder.html", title="Vaults")


@bp.route("/payouts")
@login_required
def payouts():
    return render("dashboard/placeholder.html", title="Payouts")
