"""The hosted checkout: an INITIAL trade that the customer completes on our page by choosing a method."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, money
from ..cards.models import CardToken
from ..errors import IllegalState, InvalidField
from ..links import Links
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..providers.base import Acquirer, Decision
from . import card_attempts, instalments, methods, states, timeouts
from .models import Trade
from .schemas import Address, Customer, DirectPayment, HostedCheckout, Identify
from .service import direct_expiry, voucher_validity
from .trades import CANCEL_WHEN_UNPAID, duplicate_check, new_trade

KIND = "checkout"


def create(session: Session, merchant: Merchant, order: HostedCheckout, sandbox: bool) -> Trade:
    """An INITIAL trade for the hosted checkout: `method` given shows only that method, none shows every
    method valid for the currency (the provider's checkout page)."""
    offered = methods.for_currency(order.order_currency, order.order_amount)
    chosen, channel = "", None  # as the catalogue spells them (the merchant's may be in any case)
    if order.method is not None:
        method = methods.lookup(order.method, order.channel)
        if method.name not in methods.for_currency(order.order_currency):
            raise InvalidField("method", f"{method.name} does not take {order.order_currency}")
        if method.name not in offered:
            raise InvalidField(
                "order_amount", f"{method.name} does not take {order.order_amount} {order.order_currency}"
            )
        channels = method.channels or methods.channels_for(order.order_currency, order.order_amount)
        if order.channel is not None:
            channel = next((c for c in channels if c.casefold() == order.channel.casefold()), None)
            if channel is None:
                raise InvalidField("channel", f"must be one of {', '.join(channels)} for this currency")
        offered, chosen = [method.name], method.name
    elif order.channel is not None:
        raise InvalidField("channel", "only with method Wallet")
    if not offered:
        raise InvalidField("order_amount", f"no method takes {order.order_amount} {order.order_currency}")
    now = clock.now()
    if order.cancellation_express is not None:
        timeouts.cancellation(order.cancellation_express, order.timeout_express, now)
    if order.return_url:
        check_return_url(order.return_url, merchant, sandbox)
    duplicate_check(session, merchant, order.out_trade_no)
    details: dict[str, Any] = {
        "offered": offered,
        # What the merchant gave (None dropped, nested fields too), as it sent it.
        "customer": order.customer.model_dump(exclude_none=True) if order.customer else {},
        "address": order.address.model_dump(exclude_none=True) if order.address else {},
    }
    if order.regions:
        details["regions"] = list(order.regions)
    if order.cancellation_express is not None:
        details["cancellation_express"] = order.cancellation_express
    trade = new_trade(
        session,
        merchant,
        order,
        kind=KIND,
        method=chosen,
        status=states.INITIAL,
        channel=channel,
        now=now,
        expires_at=timeouts.expiry(order.timeout_express, now),
    )
    trade.details = details
    return trade


def by_prepay_id(session: Session, prepay_id: str) -> Trade | None:
    """The hosted checkout a prepay_id names, whichever merchant's: the id is the customer's key to paying
    that one order (the provider's `?prepay_id=` link), never to another kind of trade."""
    return session.scalar(select(Trade).where(Trade.prepay_id == prepay_id, Trade.kind == KIND))


def expired(trade: Trade) -> bool:
    """Too late to pay: EXPIRED, or past its deadline before a method was submitted (the worker may not
    have marked it yet). Read on the trade's merchant's clock."""
    if trade.status == states.EXPIRED:
        return True
    deadline = trade.expires_at
    return trade.status == states.INITIAL and deadline is not None and clock.as_utc(deadline) <= clock.now()


def offered(trade: Trade) -> list[str]:
    return list(trade.details.get("offered", []))


def open_for_submission(trade: Trade) -> None:
    if trade.status != states.INITIAL:
        raise IllegalState(reason="trade-status-invalid", message=f"trade is {trade.status}")
    if trade.expires_at is not None and clock.as_utc(trade.expires_at) <= clock.now():
        raise IllegalState(reason="trade-expired", message="the checkout expired before a method was submitted")


def payment_of(
    trade: Trade,
    *,
    method: str,
    channel: str | None,
    customer: Customer,
    address: Address,
    bank: str | None = None,
    token: str | None = None,
    issuer: str | None = None,
    user_ip: str | None = None,
    wallet_account: tuple[str | None, str | None] = (None, None),
    payer_account: tuple[str | None, str | None] = (None, None),
    installments: int = 1,
) -> DirectPayment:
    """The direct payment the customer's choices on the page amount to, for the checks a direct payment
    passes (the order's own fields come from the trade, checked when it was placed; the page's form checked
    the customer's, and the method's checks follow)."""
    return DirectPayment.model_construct(
        out_trade_no=trade.out_trade_no,
        method=method,
        channel=channel,
        order_currency=trade.currency,
        order_amount=money.from_minor(trade.amount_minor, trade.currency),
        subject=trade.subject,
        content=trade.content,
        notify_url=trade.notify_url,
        buyer_id=trade.buyer_id,
        timeout_express=None,
        token=token,
        fingerprint="hosted-checkout" if token else None,
        issuer=issuer,
        installments=installments,
        bank=bank,
        language_code=methods.bank_language(method, bank),  # the page does not ask: the bank's first
        customer=customer,
        address=address,
        user_ip=user_ip,
        return_url=trade.return_url,
        account_number=wallet_account[0] or payer_account[0] or None,
        account_verification_code=wallet_account[1] or None,
        account_type=payer_account[1] or None,
    )


def submit(
    session: Session,
    trade: Trade,
    payment: DirectPayment,
    links: Links,
    collector: methods.Collector,
    card: CardToken | None = None,
    acquirer: Acquirer | None = None,
    authenticated: bool = True,
) -> Trade:
    """The customer submitted a method: the trade becomes that method's payment (PROCESSING), with the
    same checks and answer fields as a direct payment. A card is authorized at once, after the sandbox's
    3-D Secure step (`authenticated`); a declined one leaves the trade INITIAL while the order can still be
    paid (card_attempts), else it is REFUSED."""
    open_for_submission(trade)
    method = methods.lookup(payment.method, payment.channel)
    if method.name not in offered(trade):
        raise InvalidField("method", f"must be one of {', '.join(offered(trade))}")
    checked = method.check(payment)
    if not instalments.offered(trade.amount_minor, trade.currency, payment.installments):
        raise InvalidField("installments", "not offered for this amount")
    refused = decision = None
    if card is not None:
        assert acquirer is not None  # a card is always submitted with its acquirer
        decision = acquirer.authorize(card, trade.amount_minor, trade.currency) if authenticated else None
        refused = card_attempts.refusal(authenticated, decision)
        if refused is not None:
            final = card_attempts.record(session, trade, refused, card)
            if final is None:
                return trade  # still payable: another card, or another method
            refused = Decision(refused.status, final, refused.code)
    now = clock.now()
    trade.method = method.name
    trade.channel = checked.get("channel") if method.name == "Wallet" or method.channels else None
    trade.card_token_id = card.id if card else None
    validity = voucher_validity(method.name, trade.currency, payment.customer.identify.type)
    trade.expires_at = direct_expiry(method, None, now, collector, validity)
    cancel_when_unpaid = "cancellation_express" in trade.details
    if cancel_when_unpaid:
        # Counted from the checkout's creation, as the provider's page compares it with timeout_express.
        trade.expires_at = clock.as_utc(trade.created_at) + timeouts.duration(trade.details["cancellation_express"])
    trade.details = {
        **trade.details,
        **checked,
        **({CANCEL_WHEN_UNPAID: True} if cancel_when_unpaid else {}),
        "customer": payment.customer.model_dump(),
        "address": payment.address.model_dump(),
    }
    trade.details = {**trade.details, "response": method.present(trade, links, collector)}
    states.set_status(session, trade, states.PROCESSING, "submitted on the hosted checkout")
    if card is not None:
        if refused is None:
            states.set_status(session, trade, states.SUCCESS, decision.reason if decision else None)
        else:
            states.set_status(session, trade, states.REFUSED, refused.reason)
    return trade


def prefilled(trade: Trade) -> dict[str, Any]:
    """What the merchant told us of the customer, flattened for the page's form."""
    customer = trade.details.get("customer", {})
    address = trade.details.get("address", {})
    identify = customer.get("identify") or {}
    return {
        "name": customer.get("name"),
        "email": customer.get("email"),
        "phone": customer.get("phone"),
        "document_type": identify.get("type"),
        "document_number": identify.get("number"),
        **{key: address.get(key) for key in ("zip_code", "state", "city", "street", "street_number", "neighborhood")},
    }


def customer_of(values: dict[str, Any]) -> tuple[Customer, Address]:
    """The page's answers as the customer and address a direct payment carries ("" where not asked)."""

    def text(key: str) -> str:
        return (values.get(key) or "").strip()

    # Not held to the API's rules: the page's form decides what it asks, and the method's checks what it needs.
    customer = Customer.model_construct(
        name=text("name"),
        email=text("email"),
        phone=text("phone"),
        identify=Identify.model_construct(number=text("document_number"), type=text("document_type")),
    )
    address = Address.model_construct(
        zip_code=text("zip_code"),
        state=text("state"),
        city=text("city"),
        street_number=text("street_number"),
        street=text("street"),
        neighborhood=text("neighborhood") or None,
    )
    return customer, address
