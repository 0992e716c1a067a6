"""What every page does: read its token, pick layout and language, render with security headers, fail clearly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from flask import Response, current_app, g, make_response, render_template, request, url_for

from .. import clock, signing
from ..links import current as current_links
from ..merchants.models import Merchant
from . import layout, security

# Where a session's own deadline is kept in the database, its token is read a little longer than that
# deadline, so that the page can say "expired" in the session's language rather than "invalid link".
TOKEN_GRACE = 3600


class PageError(Exception):
    """A page that cannot be shown: answered with the error page and a 4xx status."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason  # reason: invalid, expired, taken, forbidden, not-found


@dataclass
class Page:
    token: str
    view: str
    locale: str
    merchant: Merchant

    def url(self, endpoint: str, **values) -> str:
        """A link to another page of the same session, keeping token, layout and language."""
        return url_for(endpoint, token=self.token, view=self.view, language=self.locale, **values)


def read_token(purpose: str, max_age: int, merchant_of=None) -> tuple[str, dict]:
    """The page's token and payload; `merchant_of` names the payload's merchant, whose clock its age is
    counted on (a page with a deadline of its own checks that on its merchant's clock once open)."""
    token = request.args.get("token", "")
    if not token or len(token) > 2048:
        raise PageError(400, "invalid")
    secret = current_app.config["SECRET_KEY"]
    try:
        return token, signing.read_page_token(secret, purpose, token, max_age, merchant_of)
    except signing.PageTokenError as error:
        raise PageError(410 if error.reason == "expired" else 400, error.reason) from None


class PageOwner(Protocol):
    """What sets a page up of its merchant: a `Merchant`, or a page's read model of one."""

    @property
    def id(self) -> int: ...
    @property
    def default_language(self) -> str | None: ...
    @property
    def frame_origins(self) -> Sequence[str] | None: ...


def enter_page(merchant: PageOwner, country: str | None) -> tuple[str, str]:
    """Set the request up as a page of `merchant`'s (its clock, language, formats and frame origins) and
    answer the page's layout and language."""
    # The page follows its merchant's clock from here on (the request's teardown puts the thread back).
    clock.set_merchant(merchant.id)
    view = layout.choose_view()
    locale = layout.choose_locale(country, merchant.default_language)
    g.page_locale = locale
    g.page_format_locale = layout.format_locale(locale, country)
    g.page_timezone = layout.COUNTRY_TIMEZONES.get(country or "")  # no country (a global wallet): the language's
    # Written back in canonical form again: a row stored before origins were checked cannot reach the CSP.
    g.frame_origins = [o for o in (security.origin_of(x) for x in merchant.frame_origins or []) if o]
    return view, locale


def open_page(token: str, merchant: Merchant, country: str | None) -> Page:
    view, locale = enter_page(merchant, country)
    return Page(token=token, view=view, locale=locale, merchant=merchant)


def check_post(page: Page) -> None:
    """A form's POST is answered only when it came from this page, on our own origin: else 403."""
    if not security.same_origin_post(page.token):
        raise PageError(403, "forbidden")


def allow_form_target(url: str | None) -> None:
    """CSP form-action must admit where a form's redirect ends (the merchant's return_url)."""
    origin = security.origin_of(url) if url else None
    if origin:
        g.form_origins = [*g.get("form_origins", []), origin]


# What each page is called in the message it posts to the merchant's frame.
PAGE_KINDS = {
    "pages/vault/pix.html": "pix_authorization",
    "pages/vault/card.html": "card_consent",
    "pages/card/entry.html": "card_entry",
    "pages/checkout/checkout.html": "checkout",
    "pages/checkout/threeds.html": "threeds",
    "pages/pay/pay.html": "payment",
    "pages/payout/form.html": "payout",
    "pages/result.html": "result",
}


def page_message(template: str, status: int, data: dict, context: dict) -> dict:
    """What a framed page tells its parent on load, unless the view said more (a result's signed token):
    the page, and its state (the one the page follows, a result's outcome, an expired checkout), else
    "invalid" when its form was refused, else "open"."""
    name = PAGE_KINDS.get(template) or template.removeprefix("pages/").removesuffix(".html").replace("/", "_")
    state = data.get("status") or context.get("outcome") or ("EXPIRED" if context.get("expired") else None)
    state = state or ("invalid" if status >= 400 else "open")
    return {"type": "checkout.page", "page": name, "status": state, "token": None}


def render(
    template: str, page: Page, status: int = 200, *, data: dict | None = None, nonce: str | None = None, **context
):
    """The page's HTML and status; `nonce` stands in for this response's CSP nonce (a copy kept for later
    responses, see rendered.py)."""
    merchant = page.merchant
    data = data or {}
    if "message" not in data:
        data = {**data, "message": page_message(template, status, data, context)}
    logo = url_for("pages.logo", merchant_id=merchant.merchant_id, view=page.view) if merchant.has_logo else None
    box = layout.LOGO_BOXES[page.view]
    body = render_template(
        template,
        page=page,
        view=page.view,
        merchant_name=merchant.name,
        logo_url=logo,
        logo_box=box,
        initials=layout.initials(merchant.name),
        csp_nonce=nonce or security.nonce(),
        csrf=security.csrf_token(page.token),
        sandbox=current_app.config["SANDBOX"],
        html_lang=page.locale.replace("_", "-"),
        page_data={"frameOrigins": g.get("frame_origins", []), **data},
        **context,
    )
    return body, status


def error_page(error: PageError):
    """A clear page for a bad, expired or forbidden link; never a 500, never a stack trace."""
    if "page_locale" not in g:  # the session's language when the page got as far as knowing it
        g.page_locale = layout.choose_locale(None)
    # Only a page that knew its merchant has origins to tell (and may be framed at all: frame-ancestors).
    origins = g.get("frame_origins") or []
    message = {"type": "checkout.error", "status": error.reason, "token": None}
    body = render_template(
        "pages/error.html",
        reason=error.reason,
        view=layout.choose_view(),
        csp_nonce=security.nonce(),
        html_lang=g.page_locale.replace("_", "-"),
        page_data={"frameOrigins": origins, "message": message} if origins else {},
    )
    return body, error.status


def now_unix() -> int:
    return clock.unix(clock.now())


def base_url() -> str:
    return current_links().base_url


def http_error_page(status: int) -> Response:
    """What an HTTP error under /pages/ answers (an unknown path, a wrong method): a page, with page headers."""
    reason = {404: "not-found", 500: "unavailable"}.get(status, "invalid")
    body, code = error_page(PageError(status, reason))
    return security.apply_headers(make_response(body, code))
