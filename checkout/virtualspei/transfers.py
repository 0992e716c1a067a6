"""Transfers to a virtual SPEI account's CLABE: each becomes a trade paid at once, whose callback is the
provider's Virtual SPEI notification, and a row of the account's usage."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, money
from ..errors import IllegalState, InvalidField, NotFound
from ..merchants.models import Merchant
from ..mexico import clabe
from ..payins import states
from ..payins import trades as payins
from ..payins.models import Trade
from .models import VirtualAccount, VirtualTransfer
from .service import ACTIVE, CURRENCY, METHOD, PROVIDER

KIND = "virtual_account"  # the trade's kind: paid by a transfer to a standing CLABE, never on a page


def check_clabe(number: str, field: str = "clabe") -> None:
    """A well-formed CLABE (18 digits, its check digit, a known bank), or the rule it breaks."""
    try:
        clabe.validate(number)
    except ValueError as exc:
        raise InvalidField(field, str(exc)) from None


def new_tracking_key(now: datetime) -> str:
    """SPEI's tracking key (clave de rastreo, up to 30 letters and digits): the sending bank's; here ours."""
    return f"SBX{now:%Y%m%d%H%M%S}{secrets.randbelow(10**10):010d}"


def _locked_account(session: Session, merchant: Merchant, account_number: str) -> VirtualAccount:
    """The merchant's account of this CLABE, locked: its transfers are taken one at a time."""
    check_clabe(account_number)
    account = session.scalar(
        select(VirtualAccount)
        .where(VirtualAccount.account_number == account_number, VirtualAccount.merchant_id == merchant.id)
        .with_for_update(of=VirtualAccount)
        .execution_options(populate_existing=True)
    )
    if account is None:
        raise NotFound(reason="account-not-exist", message="clabe: no account of this merchant has this CLABE")
    return account


def _transfer_account(account: VirtualAccount, now: datetime) -> dict:
    """The account a transfer reached, as the trade's callback says it (`transfer_account`)."""
    return {
        "account_id": account.account_id,
        "account_number": account.account_number,
        "beneficiary_name": account.beneficiary_name,
        "provider": PROVIDER,
        "transfer_timestamp": clock.unix(now),
    }


def receive(
    session: Session, merchant: Merchant, account_number: str, amount: Decimal, *, key: str | None = None
) -> tuple[Trade, VirtualAccount]:
    """A SPEI transfer of `amount` MXN reaches the merchant's CLABE: a trade, paid (SUCCESS) in the same
    step, whose callback carries the account in `transfer_account`, and a row of the account's usage.

    `key` is the tracking key the sending bank chose before sending (the transfer page's form): a transfer
    already received under it is answered as it was, so a form posted again sends nothing twice."""
    account = _locked_account(session, merchant, account_number)
    # Looked for under the account's lock: a repeat racing its first waits for it, then finds it.
    earlier = received(session, merchant, key) if key is not None else None
    if earlier is not None:
        return earlier
    if account.status != ACTIVE:
        raise IllegalState(
            reason="account-not-active",
            message=f"account {account.account_id} is {account.status}: a cancelled CLABE takes no transfers",
        )
    try:
        amount_minor = money.to_minor(amount, CURRENCY)
    except money.MoneyError as exc:
        raise InvalidField("amount", str(exc)) from None
    now = clock.now()
    sent_as = key or new_tracking_key(now)
    trade = payins.new_trade(
        session,
        merchant,
        _order(account, sent_as, amount),
        kind=KIND,
        method=METHOD,
        status=states.PROCESSING,
        now=now,
        prepare=lambda trade: _details(account, sent_as),
    )
    payins.change_status(
        session,
        trade,
        states.SUCCESS,
        "paid by a SPEI transfer to its CLABE",
        user=_user(account),
        transfer_account=_transfer_account(account, now),
    )
    session.add(
        VirtualTransfer(
            merchant_id=merchant.id,
            account_id=account.id,
            trade_id=trade.id,
            tracking_key=sent_as,
            amount_minor=amount_minor,
            currency=CURRENCY,
            created_at=now,
        )
    )
    session.flush()
    return trade, account


def received(session: Session, merchant: Merchant, key: str) -> tuple[Trade, VirtualAccount] | None:
    """The merchant's transfer received under this tracking key, and its account (by the trade's unique
    out_trade_no); None if none was."""
    row = session.execute(
        select(Trade, VirtualAccount)
        .join(VirtualTransfer, VirtualTransfer.trade_id == Trade.id)
        .join(VirtualAccount, VirtualAccount.id == VirtualTransfer.account_id)
        .where(Trade.merchant_id == merchant.id, Trade.out_trade_no == key)
    ).first()
    return None if row is None else (row[0], row[1])


@dataclass(frozen=True)
class _Transfer:
    """The trade's order fields (what `new_trade` reads): the merchant placed no order, the transfer is one."""

    out_trade_no: str
    order_amount: Decimal
    buyer_id: str
    notify_url: str
    subject: str
    order_currency: str = CURRENCY
    content: str | None = None
    return_url: str | None = None


def _order(account: VirtualAccount, tracking_key: str, amount: Decimal) -> _Transfer:
    return _Transfer(
        out_trade_no=tracking_key,
        order_amount=amount,
        buyer_id=account.buyer_id,
        notify_url=account.notify_url,
        subject=f"SPEI transfer to virtual account {account.account_id}",
    )


def _details(account: VirtualAccount, tracking_key: str) -> dict[str, Any]:
    """What the trade keeps: the payer as /trade/query shows it, and the account and transfer it came by."""
    return {
        "customer": {
            "name": account.name,
            "email": account.email,
            "phone": "",
            "identify": {"type": account.identify_type, "number": account.identify_number},
        },
        "virtual_account": {"account_id": account.account_id, "account_number": account.account_number},
        "tracking_key": tracking_key,
    }


def _user(account: VirtualAccount) -> dict[str, Any]:
    """`user` as the Virtual SPEI notification's example has it (`name`; `ip` "0.0.0.0": a bank transfer has
    no customer address), with the general notification's `username` and `phone` too."""
    return {
        "buyer_id": account.buyer_id,
        "email": account.email,
        "identify": {"number": account.identify_number, "type": account.identify_type},
        "ip": "0.0.0.0",  # noqa: S104  (a value of the notification, not an address bound)
        "name": account.name,
        "username": account.name,
        "phone": "",
    }
