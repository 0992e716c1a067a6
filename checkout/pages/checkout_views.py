"""The hosted checkout page (`web_url` of /trade/create): method picker, customer data, card with sandbox 3-D Secure."""

from __future__ import annotations

from typing import cast
from urllib.parse import urlencode

from flask import Blueprint, current_app, redirect, request
from sqlalchemy import select

from .. import clock, links, money, wiring
from ..cards import service as cards
from ..cards.models import CardToken
from ..db import db
from ..errors import DomainError
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..payins import card_attempts, checkout, methods, states
from ..payins.models import Trade
from . import card_outcomes
from .common import Page, PageError, allow_form_target, check_post, open_page, read_token, render
from .method_names import METHOD_NAMES, method_name
from .payin_forms import CheckoutForm
from .trades import PAY_TOKEN_TTL, country_of

bp = Blueprint("checkout", __name__)

ENTERED = "entered"  # the trade's details: the customer's answers but the card's, kept across a declined card


def _checkout_page(lock: bool = False) -> tuple[Page, Trade]:
    token, payload = read_token(links.CHECKOUT_PAGE, PAY_TOKEN_TTL)
    query = select(Trade).where(Trade.trade_no == payload.get("trade"))
    trade = db.session.scalar(query.with_for_update(of=Trade) if lock else query)
    if trade is None:
        raise PageError(404, "not-found")
    merchant = cast(Merchant, db.session.get(Merchant, trade.merchant_id))
    page = open_page(token, merchant, country_of(trade))
    return page, trade


def _return_url(page: Page, trade: Trade) -> str | None:
    """The merchant may append `&return_url=` to web_url (the provider's checkout page allows it)."""
    given = request.values.get("return_url")
    if not given:
        return trade.return_url
    try:
        check_return_url(given, page.merchant, current_app.config["SANDBOX"])
    except DomainError:
        raise PageError(400, "invalid") from None
    return given


def _to_payment_page(page: Page, trade: Trade):
    url = links.current().pay_page(trade.trade_no)
    return redirect(f"{url}&{urlencode({'view': page.view, 'language': page.locale})}", 303)


def _chosen(trade: Trade) -> str | None:
    offered = checkout.offered(trade)
    if trade.method:
        return trade.method
    if len(offered) == 1:
        return offered[0]
    wanted = request.args.get("method")
    return wanted if wanted in offered else None


def _form(trade: Trade, method: str, formdata=None) -> CheckoutForm:
    # After a declined card, what the customer typed besides the card (name, e-mail, instalments) stays.
    entered = {**checkout.prefilled(trade), **trade.details.get(ENTERED, {})}
    form = CheckoutForm(formdata=formdata, data=entered if formdata is None else None)
    banks = [(bank.bank_id, bank.name) for bank in methods.banks_for(method, trade.currency)]
    amount = money.from_minor(trade.amount_minor, trade.currency)
    channels = [] if trade.channel else methods.channels_for(trade.currency, amount) if method == "Wallet" else []
    form.keep_for(
        method,
        banks,
        channels,
        documents=methods.documents(method, trade.currency),
        bank=methods.needs_bank(method, trade.currency),
        account=method == "Wallet" and "Todito" in ([trade.channel] if trade.channel else channels),
        payer_account=methods.payer_account(method, trade.currency),
        instalments=_instalments(trade) if method == card_attempts.CARD else None,
    )
    return form


def _instalments(trade: Trade) -> list[tuple[str, str]] | None:
    """The select's options, when the amount can be split at all."""
    choices = card_outcomes.instalment_choices(trade.amount_minor, trade.currency)
    return choices if len(choices) > 1 else None


def _decline(trade: Trade, method: str | None) -> dict | None:
    """What the page says after a declined card: on the card form and on the picker, never on another method's form."""
    last = card_attempts.last_decline(trade)
    if last is None or method not in (None, card_attempts.CARD):
        return None
    card_offered = card_attempts.CARD in checkout.offered(trade)
    return {
        "message": card_outcomes.decline_message(last.get("code")),
        "left": card_attempts.left(trade) if card_offered else 0,
        "others": any(name != card_attempts.CARD for name in checkout.offered(trade)),
        "card": f"{last.get('brand', '').upper()} •••• {last.get('last_four', '')}".strip(),
    }


def _answer(page: Page, trade: Trade, method: str | None, form: CheckoutForm | None = None, status: int = 200):
    expired = trade.expires_at is not None and clock.as_utc(trade.expires_at) <= clock.now()
    return_url = _return_url(page, trade)
    if method is not None and form is None:
        form = _form(trade, method)
    decline = _decline(trade, method) if status == 200 else None
    if decline and form is not None and "card_no" in form:
        # Ready for another card: the number first (the form shows no card data back).
        form.card_no.render_kw = {**(form.card_no.render_kw or {}), "autofocus": True}
    return render(
        "pages/checkout/checkout.html",
        page,
        status,
        trade=trade,
        amount=money.from_minor(trade.amount_minor, trade.currency),
        expired=expired or trade.status == states.EXPIRED,
        method=method,
        choices=[(name, method_name(name)) for name in checkout.offered(trade)],
        labels=METHOD_NAMES,
        form=form,
        return_url=return_url if return_url != trade.return_url else None,
        can_choose_again=not trade.method and len(checkout.offered(trade)) > 1,
        decline=decline,
        # After a decline the other methods stay one tap away, below the card form.
        others=[(name, method_name(name)) for name in checkout.offered(trade) if name != method]
        if decline and method
        else [],
    )


@bp.get("/checkout")
def show():
    page, trade = _checkout_page()
    if trade.status not in (states.INITIAL, states.EXPIRED):
        return _to_payment_page(page, trade)
    if "pending" in trade.details:
        return redirect(page.url("pages.checkout.threeds"), 303)
    return _answer(page, trade, _chosen(trade))


@bp.post("/checkout")
def submit():
    page, trade = _checkout_page(lock=True)
    check_post(page)
    if trade.status != states.INITIAL:
        return _to_payment_page(page, trade)
    method = _chosen(trade)
    if method is None:
        raise PageError(400, "invalid")
    return_url = _return_url(page, trade)
    form = _form(trade, method, request.form)
    if not form.validate():
        return _answer(page, trade, method, form, 422)
    values = {field.name: field.data for field in form}
    customer, address = checkout.customer_of(values)
    channel = trade.channel or values.get("channel")
    try:
        checkout.open_for_submission(trade)
        trade.return_url = return_url
        if method == "CreditCard":
            # The card is tokenized now; the sandbox's 3-D Secure step decides before it is charged.
            card = _tokenize(page, form)
            # Until the 3-D Secure answer the trade keeps the customer's other answers and the card's token:
            # never the number, the code, the expiry or the name on the card (PCI DSS: no CVV after
            # authorization, and no PAN where a token serves).
            kept = {name: value for name, value in values.items() if name not in form.CARD_DATA}
            trade.details = {
                **trade.details,
                "pending": {"values": kept, "card_token": card.token, "brand": card.brand},
            }
            db.session.commit()
            return redirect(page.url("pages.checkout.threeds"), 303)
        payment = checkout.payment_of(
            trade,
            method=method,
            channel=channel,
            customer=customer,
            address=address,
            bank=values.get("bank"),
            wallet_account=(values.get("account_number"), values.get("account_verification_code")),
            payer_account=(values.get("payer_account"), values.get("payer_account_type")),
        )
        checkout.submit(db.session, trade, payment, links.current(), methods.collector(current_app.config))
    except DomainError as error:
        db.session.rollback()
        form.form_errors.append(error.message)
        return _answer(page, trade, method, form, 422)
    db.session.commit()
    allow_form_target(trade.return_url)
    return _to_payment_page(page, trade)


def _tokenize(page: Page, form: CheckoutForm):
    typed = cards.CardInput(form.digits, form.cvv.data, form.expiry[0], form.expiry[1], form.holder.data)
    return wiring.tokenizer().tokenize(db.session, page.merchant, typed)


@bp.get("/checkout/3ds")
def threeds():
    page, trade = _checkout_page()
    if trade.status != states.INITIAL or "pending" not in trade.details:
        return redirect(page.url("pages.checkout.show"), 303)
    pending = trade.details["pending"]
    card = db.session.scalar(select(CardToken).where(CardToken.token == pending.get("card_token")))
    return render(
        "pages/checkout/threeds.html",
        page,
        trade=trade,
        amount=money.from_minor(trade.amount_minor, trade.currency),
        brand=pending.get("brand", ""),
        last_four=card.last_four if card else None,
        instalments=card_outcomes.chosen_instalments(
            trade.amount_minor, trade.currency, int(pending["values"].get("installments") or 1)
        ),
    )


@bp.post("/checkout/3ds")
def threeds_answer():
    """The sandbox issuer's 3-D Secure challenge: the customer confirms (Y) or fails (N) it."""
    page, trade = _checkout_page(lock=True)
    check_post(page)
    if trade.status != states.INITIAL or "pending" not in trade.details:
        return redirect(page.url("pages.checkout.show"), 303)
    answer = request.form.get("authentication")
    if answer not in ("confirm", "fail"):
        raise PageError(400, "invalid")
    pending = trade.details["pending"]
    details = {key: value for key, value in trade.details.items() if key != "pending"}
    trade.details = details
    customer, address = checkout.customer_of(pending["values"])
    try:
        card = cards.usable_token(db.session, page.merchant, pending["card_token"], "token")
        payment = checkout.payment_of(
            trade,
            method="CreditCard",
            channel=None,
            customer=customer,
            address=address,
            token=card.token,
            issuer=card.brand,
            user_ip=request.remote_addr or "127.0.0.1",
            installments=int(pending["values"].get("installments") or 1),
        )
        checkout.submit(
            db.session,
            trade,
            payment,
            links.current(),
            methods.collector(current_app.config),
            card=card,
            acquirer=wiring.acquirer(),
            authenticated=answer == "confirm",
        )
    except DomainError:
        db.session.rollback()
        raise PageError(410, "expired") from None
    if trade.status == states.INITIAL:  # declined, and the order can still be paid: back to the page
        trade.details = {**trade.details, ENTERED: pending["values"]}
        db.session.commit()
        again = card_attempts.CARD if card_attempts.CARD in checkout.offered(trade) else None
        return redirect(page.url("pages.checkout.show", method=again), 303)
    db.session.commit()
    return _to_payment_page(page, trade)
