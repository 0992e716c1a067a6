"""Payin payment page: every method's instructions, bar codes and PDF voucher, the result; follows the trade."""

from __future__ import annotations

from babel import numbers
from flask import Blueprint, Response, current_app, g, redirect, request
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select

from .. import clock, links, money, signing
from ..brazil import qrimage
from ..config import collector_name
from ..db import db
from ..errors import DomainError
from ..payins import service as payins
from ..payins.models import Trade
from . import card_outcomes, pay_journeys, pay_slips, qr
from .common import Page, PageError, base_url, check_post, read_token, render
from .pay_codes import PasteForm, pays
from .returns import with_token
from .trades import PAY_TOKEN_TTL, UNFINISHED, amount_text, country_of, method_name, open_pay_page, shown_status

bp = Blueprint("pay", __name__)

# A deadline closer than this is counted down; a farther one (a boleto's days) is a date and time.
COUNTDOWN_SECONDS = 24 * 3600


def _details(trade: Trade) -> dict:
    fields = trade.details.get("response", {})
    details: dict = {"fields": fields, "slip": pay_slips.slip_of(trade)}
    details.update(card_outcomes.on_result(trade))  # instalments; a checkout's card attempts that ended it
    if "qr_code" in fields:
        details["qr_svg"] = qr.svg(fields["qr_code"])
    if fields.get("app_link_url"):  # a custom scheme: a desktop hands it to the phone by this QR
        details["app_qr_svg"] = qr.svg(fields["app_link_url"])
    if details["slip"] is not None:
        details["slip_shown"] = pay_slips.shown_digits(details["slip"])
    details["amount_due"] = pay_slips.amount_due(trade)
    bank_name = pay_journeys.listed_bank_name(trade)
    if bank_name:
        details["bank_name"] = bank_name
    journey = pay_journeys.journey(trade)
    details["journey"] = journey
    details["hands_off"] = pay_journeys.hands_off(trade)
    # Back from the bank's or wallet's page without an answer (its "go back" link): said once, on this view.
    details["came_back"] = details["hands_off"] and request.args.get("left") == "1"
    label = method_name(trade)
    if journey == pay_journeys.VOUCHER:
        details["place"] = pay_journeys.place(trade, label, bank_name)
        details["reference_shown"] = pay_slips.grouped(fields.get("reference") or "")
        details["virtual_account"] = pay_journeys.virtual_account(trade)
    elif journey == pay_journeys.BANK:
        details["bank"] = pay_journeys.bank_details(trade)
    elif journey == pay_journeys.HANDOFF:
        details["destination"] = pay_journeys.destination(trade, label)
    return details


def typed_amount(trade: Trade) -> dict[str, str]:
    """The exact amount as the customer types it into a bank app's amount field (`amount_typed`: the page's
    decimal sign, no grouping, no currency: "1234,56" in Brazil, "1234.56" in Mexico), and its label naming
    the currency (`amount_label`: the locale's symbol, or the ISO code where the symbol is a bare "$")."""
    locale = g.get("page_format_locale") or str(get_locale())
    symbol = numbers.get_currency_symbol(trade.currency, locale=locale)
    return {
        "amount_typed": money.format_minor(trade.amount_minor, trade.currency).replace(
            ".", numbers.get_decimal_symbol(locale)
        ),
        "amount_label": _("Exact amount (%(currency)s)", currency=trade.currency if symbol == "$" else symbol),
    }


def _answer(page: Page, trade: Trade, paste: PasteForm | None = None, status_code: int = 200):
    status = shown_status(trade)
    finished = status not in UNFINISHED
    back = token = None
    if finished:  # the signed result: for return_url and for the merchant's frame (even without return_url)
        token = signing.return_token(
            page.merchant.security_key,
            issuer=base_url(),
            app_id=page.merchant.app_id,
            subject=trade.trade_no,
            status=status,
            reference={"out_trade_no": trade.out_trade_no},
        )
        back = with_token(trade.return_url, token) if trade.return_url else None
    deadline = clock.unix(trade.expires_at) if trade.expires_at else None
    now = clock.unix(clock.now())
    data: dict = {"status": status, "deadline": deadline, "now": now}
    if finished:
        data["message"] = {"type": "checkout.payment", "status": status, "token": token}
    else:
        data.update(poll=page.url("pages.pay.status"), interval=3000)
    return render(
        "pages/pay/pay.html",
        page,
        status_code,
        trade=trade,
        shown=status,
        finished=finished,
        back=back,
        deadline=deadline,
        countdown=deadline is not None and deadline - now < COUNTDOWN_SECONDS,
        pay_by=pay_slips.pay_by(trade.expires_at) if trade.expires_at else None,
        time_left=pay_slips.time_left(deadline - now) if deadline is not None else None,
        amount=amount_text(trade),
        **typed_amount(trade),
        method_label=method_name(trade),
        collector=collector_name(current_app.config, country_of(trade)),
        paste=paste or PasteForm(formdata=None),
        **_details(trade),
        data=data,
    )


@bp.get("/pay")
def show():
    return _answer(*open_pay_page())


@bp.get("/wallet")
def wallet():
    """`wallet_url`s already handed out: the same payment page; its own links say /pay."""
    return _answer(*open_pay_page())


@bp.get("/pay/qr.png")
def qr_image():
    """A PIX trade's QR (`qr_code_url`), for the merchant to show on its own page."""
    _, payload = read_token(links.QR_IMAGE, PAY_TOKEN_TTL)
    trade = db.session.scalar(select(Trade).where(Trade.trade_no == payload.get("trade")))
    code = trade.details.get("response", {}).get("qr_code") if trade is not None else None
    if code is None:
        raise PageError(404, "not-found")
    response = Response(qrimage.png(code), mimetype="image/png")
    response.headers["Cache-Control"] = "private, max-age=3600"  # a trade's code never changes
    return response


def _slip() -> tuple[Page, Trade, pay_slips.Slip]:
    page, trade = open_pay_page()
    slip = pay_slips.slip_of(trade)
    if slip is None:
        raise PageError(404, "not-found")
    return page, trade, slip


@bp.get("/pay/barcode.png")
def barcode_image():
    """The slip's bar code (boleto and lotérica: ITF; OXXO: Code 128), behind the page's own token."""
    _, _, slip = _slip()
    return Response(pay_slips.barcode_png(slip), mimetype="image/png")


@bp.get("/pay/voucher.pdf")
def voucher():
    """The slip as a one-page text PDF: a boleto's ficha de compensação, or a cash voucher (amount, reference,
    bar code, where to pay, deadline)."""
    page, trade, slip = _slip()
    config = current_app.config  # a boleto's beneficiary: the collector, as Brazil's banks show it
    pdf = pay_slips.voucher_pdf(
        trade, slip, page.merchant.name, collector_name(config, "BRA"), config["COLLECTOR_CNPJ"]
    )
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="voucher-{trade.trade_no}.pdf"'
    return response


@bp.get("/pay/status")
def status():
    page, trade = open_pay_page()
    return {"status": shown_status(trade), "next": page.url("pages.pay.show")}


def _sandbox_page() -> tuple[Page, Trade]:
    page, trade = open_pay_page()
    check_post(page)
    if not current_app.config["SANDBOX"]:
        raise PageError(403, "forbidden")
    return page, trade


@bp.post("/pay/sandbox")
def sandbox():
    """Sandbox only: play the customer paying, from the page itself."""
    page, trade = _sandbox_page()
    try:
        payins.sandbox_pay(db.session, page.merchant, trade.trade_no)
        db.session.commit()
    except DomainError:
        db.session.rollback()
    return redirect(page.url("pages.pay.show"), 303)


@bp.post("/pay/sandbox/paste")
def sandbox_paste():
    """Sandbox only: pay by pasting what this page gave to copy, as into a bank's app; anything else is
    refused on the page and changes nothing."""
    page, trade = _sandbox_page()
    form = PasteForm()
    if not form.validate():
        return _answer(page, trade, form, 422)
    if not pays(trade, form.code.data or ""):
        form.code.errors = [_("This is not this payment's code. Paste the code, line, CLABE or reference shown above.")]
        return _answer(page, trade, form, 422)
    try:
        payins.sandbox_pay(db.session, page.merchant, trade.trade_no)
        db.session.commit()
    except DomainError:
        db.session.rollback()
        form.code.errors = [_("This payment can no longer be paid.")]
        return _answer(page, trade, form, 422)
    return redirect(page.url("pages.pay.show"), 303)
