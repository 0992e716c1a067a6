"""Virtual SPEI accounts: opening a standing CLABE, reading and cancelling it, and the pool's usage."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import clock, money
from ..errors import Duplicate, IllegalState, NotFound, Refused
from ..links import Links
from ..merchants.models import Merchant
from ..mexico import clabe
from ..payins.methods.answers import SPEI_BANK, SPEI_PLAZA
from ..payins.models import Trade
from ..statemachine import VIRTUAL_ACCOUNT, VirtualAccountStatus
from .models import VirtualAccount, VirtualTransfer
from .schemas import NewAccount

ACTIVE, CANCELED = VirtualAccountStatus.ACTIVE, VirtualAccountStatus.CANCELED
CURRENCY = "MXN"
METHOD = "SPEI"
PROVIDER = clabe.BANKS[SPEI_BANK]  # "STP", the bank every sandbox CLABE belongs to
# The accounts a merchant may open in the sandbox; a cancelled account's CLABE is never given again, so
# it stays counted.
POOL_SIZE = 10_000
LISTED_TRANSFERS = 100
# The page a sandbox customer transfers from (its token's purpose) and how long a link to it opens it.
TRANSFER_PAGE = "spei-transfer"
TRANSFER_PAGE_TTL = 7 * 24 * 3600
_ACCOUNT_ID = string.ascii_uppercase + string.digits
_ATTEMPTS = 8


def _new_numbers() -> tuple[str, str]:
    """A fresh account id (16 letters and digits, as the provider's) and CLABE: STP, the sandbox plaza, 11
    random digits and the check digit."""
    account_id = "".join(secrets.choice(_ACCOUNT_ID) for _ in range(16))
    return account_id, clabe.build(SPEI_BANK, SPEI_PLAZA, f"{secrets.randbelow(10**11):011d}")


def open_account(session: Session, merchant: Merchant, req: NewAccount, beneficiary_name: str) -> VirtualAccount:
    """The customer's standing CLABE. A customer (`buyer_id`) has one ACTIVE account: asking again with the
    same details answers it as it is, so a retried request opens no second CLABE; with other details it is
    refused, never answered as if they were taken. Each new account takes one from the pool."""
    # One creation at a time per merchant, so the pool's count and the customer's one account stay true; a
    # no-key lock, so the merchant's payments (rows that only reference it) are not held up meanwhile.
    session.scalar(select(Merchant.id).where(Merchant.id == merchant.id).with_for_update(key_share=True))
    customer = req.customer
    existing = session.scalar(
        select(VirtualAccount).where(
            VirtualAccount.merchant_id == merchant.id,
            VirtualAccount.buyer_id == customer.buyer_id,
            VirtualAccount.status == ACTIVE,
        )
    )
    if existing is not None:
        _same_details(existing, req)
        return existing
    if _used(session, merchant) >= POOL_SIZE:
        raise Refused("account pool run out", reason="account-pool-run-out")
    now = clock.now()
    for _ in range(_ATTEMPTS):
        account_id, number = _new_numbers()
        account = VirtualAccount(
            account_id=account_id,
            account_number=number,
            merchant_id=merchant.id,
            buyer_id=customer.buyer_id,
            name=customer.name,
            email=customer.email,
            identify_type=customer.identify.type,
            identify_number=customer.identify.number,
            notify_url=req.notify_url,
            beneficiary_name=beneficiary_name,
            created_at=now,
        )
        VIRTUAL_ACCOUNT.move(account, ACTIVE, at=now)
        try:
            # Another account holding this id or CLABE (one in 10^11) undoes only this savepoint.
            with session.begin_nested():
                session.add(account)
                session.flush()
        except IntegrityError:
            continue
        return account
    raise RuntimeError("no free CLABE found")  # pragma: no cover  (eight collisions in a row)


def _same_details(account: VirtualAccount, req: NewAccount) -> None:
    """A repeat of the request that opened `account`, or the refusal naming what differs: the pages have no
    operation that changes an account, and a create that kept the old notify_url or document while answering
    success would send the customer's transfers where the merchant no longer expects them."""
    customer = req.customer
    pairs = {
        "notify_url": (account.notify_url, req.notify_url),
        "customer.name": (account.name, customer.name),
        "customer.email": (account.email, customer.email),
        "customer.identify.type": (account.identify_type, customer.identify.type),
        "customer.identify.number": (account.identify_number, customer.identify.number),
    }
    differ = [field for field, (kept, asked) in pairs.items() if kept != asked]
    if differ:
        raise Duplicate(
            f"customer.buyer_id: already has ACTIVE account {account.account_id}, opened with another "
            f"{', '.join(differ)}; cancel it to open one with these details",
            reason="duplicate-buyer_id",
        )


def _used(session: Session, merchant: Merchant) -> int:
    count = session.scalar(select(func.count()).where(VirtualAccount.merchant_id == merchant.id))
    return int(count or 0)


def find(session: Session, merchant: Merchant, account_id: str, *, lock: bool = False) -> VirtualAccount:
    """The merchant's own account; another merchant's is as unknown as one never opened."""
    query = select(VirtualAccount).where(
        VirtualAccount.account_id == account_id, VirtualAccount.merchant_id == merchant.id
    )
    if lock:
        query = query.with_for_update(of=VirtualAccount).execution_options(populate_existing=True)
    account = session.scalar(query)
    if account is None:
        raise NotFound(reason="account-not-exist", message="account_id: no such account")
    return account


def cancel(session: Session, merchant: Merchant, account_id: str) -> VirtualAccount:
    """The CLABE takes no more transfers; a transfer racing the cancellation waits for it (the row lock)."""
    account = find(session, merchant, account_id, lock=True)
    if not VIRTUAL_ACCOUNT.can(account.status, CANCELED):
        raise IllegalState(reason="account-not-active", message=f"account is {account.status} and cannot be cancelled")
    now = clock.now()
    VIRTUAL_ACCOUNT.move(account, CANCELED, at=now, changes={"canceled_at": now})
    return account


def transfer_url(links: Links, account: VirtualAccount) -> str:
    """The sandbox page where the account's customer transfers to its CLABE, and to no other: the link is
    handed to one customer, so it names that one account."""
    return links.page("spei/transfer", TRANSFER_PAGE, {"merchant": account.merchant_id, "account": account.account_id})


@dataclass(frozen=True)
class Usage:
    used: int
    unused: int
    transfers: list[dict[str, Any]]


def usage(session: Session, merchant: Merchant, account_id: str | None = None) -> Usage:
    """The pool's use, and the last transfers received (of one account, when named)."""
    query = (
        select(
            VirtualAccount.account_id,
            VirtualAccount.account_number,
            Trade.trade_no,
            Trade.out_trade_no,
            Trade.status,
            VirtualTransfer.amount_minor,
            VirtualTransfer.currency,
            VirtualTransfer.created_at,
        )
        .select_from(VirtualTransfer)
        .join(VirtualAccount, VirtualAccount.id == VirtualTransfer.account_id)
        .join(Trade, Trade.id == VirtualTransfer.trade_id)
        .where(VirtualTransfer.merchant_id == merchant.id)
    )
    if account_id is not None:
        query = query.where(VirtualTransfer.account_id == find(session, merchant, account_id).id)
    rows = session.execute(
        query.order_by(VirtualTransfer.created_at.desc(), VirtualTransfer.id.desc()).limit(LISTED_TRANSFERS)
    ).all()
    used = _used(session, merchant)
    return Usage(used=used, unused=max(POOL_SIZE - used, 0), transfers=[_listed(row) for row in rows])


def _listed(row: Any) -> dict[str, Any]:
    return {
        "account_id": row.account_id,
        "account_number": row.account_number,
        "trade_no": row.trade_no,
        "out_trade_no": row.out_trade_no,
        "trade_status": row.status,
        "amount": money.format_minor(row.amount_minor, row.currency),
        "currency": row.currency,
        "transfer_timestamp": clock.unix(row.created_at),
        "transfer_time": clock.format_utc(row.created_at),
    }
