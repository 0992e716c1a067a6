"""Dashboard routes for developers: keys, notification deliveries, the API request log, a signature helper."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, request
from flask_babel import gettext as _
from flask_login import current_user, login_required

from ..db import db
from . import deliveries
from .forms import ActionForm
from .web import back_to, bp, here, render


@bp.route("/developers")
@login_required
def developers():
    return render("dashboard/placeholder.html", title="Developers")


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
