"""Operational routes: health check and the OpenAPI document."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from sqlalchemy import text

from .api import openapi
from .db import db

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz():
    db.session.execute(text("SELECT 1"))
    return jsonify({"status": "ok", "sandbox": current_app.config["SANDBOX"]})


@bp.get("/openapi.json")
def openapi_json():
    base = current_app.config["PUBLIC_URL"] or request.host_url.rstrip("/")
    return jsonify(openapi.document(current_app, base))
