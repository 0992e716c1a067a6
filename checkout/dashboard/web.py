"""What every dashboard view shares: the hooks the dashboard's blueprint runs, the navigation, rendering, links,
the signed-in merchant, lists and refusals, the password asked again and the locked page, and the words and
figures every page writes (statuses, method names, amounts with their currency's symbol)."""

from __future__ import annotations

import functools
from decimal import Decimal

from flask import Response, abort, current_app, g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf
from wtforms import Field

from .. import clock, money, origins
from ..db import db
from ..errors import DomainError
from ..merchants.models import Merchant
from ..pages import i18n, layout, security
from ..pages.method_names import method_name
from . import deliveries, records, users
from .forms import LogoutForm

OVERVIEW = "dashboard.index"
# The navigation, in order: (endpoint, label). Past the overview, each entry is its area's blueprint's index.
NAV = [
    (OVERVIEW, _l("Overview")),
    ("dashboard.payments.index", _l("Payments")),
    ("dashboard.vaults.index", _l("Vaults")),
    ("dashboard.payouts.index", _l("Payouts")),
    ("dashboard.developers.index", _l("Developers")),
    ("dashboard.settings.index", _l("Settings")),
]


# Statuses as a merchant reads them on a page (CSV exports and the APIs keep the provider's words). A status not
# listed is shown as the provider writes it.
STATUS_LABELS = {
    "INITIAL": _l("Waiting for the customer"),
    "PROCESSING": _l("Processing"),
    "AUTHORIZED": _l("Authorized"),
    "REFUSED": _l("Refused"),
    "SUCCESS": _l("Paid"),
    "EXPIRED": _l("Expired"),
    "CANCEL": _l("Canceled"),
    "REFUNDED": _l("Refunded"),
}
REFUND_LABELS = {"PROCESSING": _l("Processing"), "SUCCESS": _l("Refunded"), "FAILED": _l("Failed")}
# A payout's statuses (docs/payout.md, Lifecycle): IN_PROCESSING until the bank takes it, PROCESSING at the bank.
PAYOUT_STATUS_LABELS = {
    "IN_PROCESSING": _l("Processing"),
    "PROCESSING": _l("Processing at the bank"),
    "PAID": _l("Paid"),
    "REJECTED": _l("Rejected by the bank"),
    "REFUNDED": _l("Refunded by the bank"),
    "PARTIAL_REFUNDED": _l("Refunded in part by the bank"),
}
VAULT_STATUS_LABELS = {
    "PENDING": _l("Waiting for approval"),
    "ACTIVE": _l("Active"),
    "DECLINED": _l("Declined"),
    "VOIDED": _l("Voided"),
    "EXPIRED": _l("Expired"),
}
VAULT_TYPE_LABELS = {"Card": _l("Card"), "pix": "Pix Automático"}


def word(table: dict, value: str) -> str:
    """`value` in the words one of the tables above gives it, or as the provider writes it when not listed."""
    return str(table.get(value, value))


status_label = functools.partial(word, STATUS_LABELS)
refund_label = functools.partial(word, REFUND_LABELS)
payout_status_label = functools.partial(word, PAYOUT_STATUS_LABELS)
vault_status_label = functools.partial(word, VAULT_STATUS_LABELS)
vault_type_label = functools.partial(word, VAULT_TYPE_LABELS)


def money_text(value: Decimal | str, currency: str) -> str:
    """An amount as the user's language writes it with its currency's symbol ("R$ 1.943,17", "US$ 10,50")."""
    return i18n.format_currency(value if isinstance(value, Decimal) else Decimal(value), currency)


def trade_status_text(status: str, amount_minor: int, refunded_minor: int, currency: str) -> str:
    """A payment's status in words; a part refunded says how much of what (the provider says REFUNDED for both)."""
    if status == "REFUNDED" and 0 < refunded_minor < amount_minor:
        return _(
            "Refunded in part: %(refunded)s of %(amount)s",
            refunded=money_text(money.from_minor(refunded_minor, currency), currency),
            amount=money_text(money.from_minor(amount_minor, currency), currency),
        )
    return status_label(status)


def choose_language() -> None:
    """The language the dashboard speaks: `?language=` when given, else the browser's."""
    g.page_locale = layout.choose_locale(None)


def no_nul_in_the_path() -> None:
    """Nothing has a NUL in its name (PostgreSQL refuses one in text, which would be a 500): not found.
    Filters and form fields refuse it with their own message (NO_NUL)."""
    if any("\x00" in str(value) for value in (request.view_args or {}).values()):
        abort(404)


def page_headers(response: Response) -> Response:
    """The pages' strict headers: CSP with a nonce, never framed, never cached, no sniffing."""
    g.frame_origins = []
    return security.apply_headers(response)


def section(endpoint: str) -> str:
    """The navigation entry an endpoint belongs to: the overview for itself only, an area's index for every
    endpoint of its blueprint (`dashboard.payments.index` for `dashboard.payments.detail`, its actions...)."""
    for entry, _label in NAV:
        area = entry.rpartition(".")[0]
        if endpoint == entry or (entry != OVERVIEW and endpoint.startswith(area + ".")):
            return entry
    return ""


def error_page(status: int) -> Response:
    """What an HTTP error under /dashboard answers (an unknown path, a refused form, a missing object, a
    failure): a dashboard page with the dashboard's headers, never the API's JSON."""
    if "page_locale" not in g:  # an unknown path matched no route, so the blueprint's hooks did not run
        choose_language()
    body, code = render("dashboard/error.html", status, error_status=status)
    response = make_response(body, code)
    g.frame_origins = []
    return security.apply_headers(response)


def render(template: str, status: int = 200, **context):
    return (
        render_template(
            template,
            csp_nonce=security.nonce(),
            html_lang=g.page_locale.replace("_", "-"),
            sandbox=current_app.config["SANDBOX"],
            signup=current_app.config["DASHBOARD_SIGNUP"],
            language=request.args.get("language") or None,
            # formdata=None: it only writes its token, and must not read a body (one too large to read
            # is what a 413 page is answering).
            logout_form=LogoutForm(formdata=None) if current_user.is_authenticated else None,
            nav=NAV if current_user.is_authenticated else [],
            active=section(request.endpoint or ""),
            format_datetime=i18n.format_datetime,
            when_text=i18n.format_utc,
            status_label=status_label,
            refund_label=refund_label,
            payout_status_label=payout_status_label,
            vault_status_label=vault_status_label,
            vault_type_label=vault_type_label,
            trade_status_text=trade_status_text,
            delivery_event=deliveries.event,
            delivery_state=deliveries.state,
            method_label=method_name,
            money_text=money_text,
            csrf_token=generate_csrf,
            **context,
        ),
        status,
    )


def here(endpoint: str, **values) -> str:
    """A dashboard URL that keeps the `?language=` the user chose."""
    return url_for(endpoint, language=request.args.get("language") or None, **values)


def client_address() -> str:
    """Whom the dashboard's limits count a request against: its address, an IPv6 /64 as one (as
    `checkout serve` counts connections)."""
    return origins.address_key(request.remote_addr or "unknown")


def back_to(value: str | None, default: str) -> str:
    """Where an action returns: a path inside the dashboard only, never another site (`//host`, `\\host`)."""
    inside = bool(value) and (value == "/dashboard" or str(value).startswith(("/dashboard/", "/dashboard?")))
    dotted = ".." in str(value).split("?", 1)[0].split("/")
    if inside and not dotted and "\\" not in str(value) and not any(ord(c) < 32 for c in str(value)):
        return str(value)
    return default


def merchant() -> Merchant:
    """The signed-in user's merchant: every query of a dashboard view is scoped to it."""
    found = db.session.get(Merchant, current_user.merchant_id)
    assert found is not None  # a user's merchant_id is a foreign key
    return found


def sandbox_only() -> None:
    """Sandbox actions (the customer pays, the bank decides, the clock moves) are 404 with the sandbox off."""
    if not current_app.config["SANDBOX"]:
        abort(404)


def refused(error: DomainError) -> dict:
    """A service's refusal, shown on the page as the API would word it (reason = the payin sub_code)."""
    return {"reason": error.reason, "message": error.message}


def list_page(template: str, form, chosen, listing):
    """A list by its filters and keyset cursor; a filter or cursor no link of ours makes answers the page
    with its error (400). The next page's link keeps the filters (empty ones left out)."""
    page = None
    if form.validate():
        try:
            page = listing(db.session, current_user.merchant_id, chosen(form), form.before.data or None)
        except records.BadCursor:
            form.before.errors = [_("This page link is not valid any more. Start again from the newest.")]
    args = {name: field.data for name, field in form._fields.items() if name != "before" and field.data}
    return render(template, 400 if form.errors else 200, form=form, page=page, args=args)


def locked_page(error: users.Locked):
    """The answer to a locked login (or password typed again), or to sign-ups paused for an address: 429,
    and when to try again."""
    minutes = max(1, int((error.retry_at - clock.real_now()).total_seconds() + 59) // 60)
    return render(
        "dashboard/locked.html",
        429,
        retry_at=clock.format_utc(error.retry_at),
        minutes=minutes,
        signing_up=isinstance(error, users.SignupsPaused),
    )


def password_again(form: FlaskForm, password: Field):
    """None when the form is valid and `password` is the signed-in user's; else the answer: a status for
    the form's own page (its errors; a wrong password is counted as a failed login) or the locked page."""
    if not form.validate_on_submit():
        return 400
    try:
        users.confirm_password(
            db.session,
            email=current_user.email,
            password=password.data or "",
            address=client_address(),
        )
    except users.Locked as locked:
        db.session.rollback()
        return locked_page(locked)
    except users.WrongPassword:
        db.session.commit()  # the failure counts toward the login limit
        password.errors = [_("This is not your password.")]
        return 400
    db.session.commit()
    return None
