"""Sandbox route (CHECKOUT_SANDBOX on only): the sandbox inbox, a notify_url on the service itself that keeps what
it receives for the merchant's dashboard and acknowledges it."""

from __future__ import annotations

from flask import Blueprint, Response, request

from ..db import db
from ..merchants.service import find_by_app_id
from ..notifications import inbox

bp = Blueprint("inbox", __name__)


@bp.route("/inbox/<app_id>", methods=["POST"])
def receive(app_id: str):
    """Anyone may post here, as to any notify_url: what is kept is marked signed or not by the merchant's
    keys, only that merchant's dashboard shows it, and only its newest inbox.KEEP messages are kept."""
    merchant = find_by_app_id(db.session, app_id) if len(app_id) <= 32 and "\x00" not in app_id else None
    if merchant is None:
        return Response("no such inbox", status=404, mimetype="text/plain")
    headers = dict(request.headers.items())  # title-cased names, as werkzeug reads them
    inbox.receive(db.session, merchant, headers, request.get_data(cache=False))
    db.session.commit()
    return Response("success", mimetype="text/plain")
