"""The service's front door at `/`: a small page for a browser, the payin envelope for a JSON client; with
`?prepay_id=`, the provider's checkout link."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, make_response, render_template, request, url_for

from . import checkout_link, security

bp = Blueprint("landing", __name__)

# What a developer reads next; the documents live in the repository's docs/ folder, not on this service.
DOCUMENTS = (
    ("README.md", "what it is, the two commands, the first request"),
    ("docs/getting-started.md", "credentials, the first payin and payout, the merchant demo, the dashboard"),
    ("docs/payin.md", "payin gateway reference"),
    ("docs/payout.md", "payout platform reference"),
    ("docs/hosted-pages.md", "the pages customers see"),
    ("docs/sandbox.md", "test values, the clock, simulate endpoints"),
)


def _links() -> dict[str, str]:
    links = {"openapi": url_for("ops.openapi_json"), "health": url_for("ops.healthz")}
    if current_app.config["SANDBOX"] and current_app.config.get("DEMO"):
        links["demo"] = current_app.config["DEMO"]["url"] + "/"
    return links


def _wants_html() -> bool:
    """A browser names text/html in Accept; an API client (application/json, or */*) gets JSON."""
    return any(kind == "text/html" for kind, _quality in request.accept_mimetypes)


@bp.get("/")
def index():
    if "prepay_id" in request.args:  # the checkout link the provider's pages print, never this page
        return checkout_link.open_checkout()
    links = _links()
    if not _wants_html():
        # Outside /api/ every answer is in the payin envelope, errors included; this one is a success.
        body = {"code": "10000", "msg": "Success", "service": "checkout", "sandbox": current_app.config["SANDBOX"]}
        response = make_response(jsonify({**body, "links": links}))
    else:
        response = make_response(_page(links))
    response.headers["Vary"] = "Accept"
    return security.apply_headers(response)


def _page(links: dict[str, str]) -> str:
    return render_template(
        "landing.html",
        links=links,
        # The merchant console: where a developer's payments, payouts, keys and deliveries are.
        dashboard=url_for("dashboard.index"),
        signup=url_for("dashboard.signup") if current_app.config["SANDBOX"] else None,
        documents=DOCUMENTS,
        sandbox=current_app.config["SANDBOX"],
        csp_nonce=security.nonce(),
        base=current_app.config["PUBLIC_URL"] or request.host_url.rstrip("/"),
    )
