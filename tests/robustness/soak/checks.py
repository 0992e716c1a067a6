"""After the soak: settle everything on the sandbox clock, then check trades, payouts, ledger and deliveries."""

from __future__ import annotations

import base64
import collections
import hashlib
import hmac
import time
from datetime import datetime

import pytest
import requests
from sqlalchemy import func, select

from checkout import clock
from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.notifications.models import DELIVERED, PENDING, SKIPPED, OutboxMessage
from checkout.payins import states as trades
from checkout.payins.models import Trade
from checkout.payouts import ledger, lifecycle
from checkout.payouts.models import Payout
from checkout.signing import payout_signature
from checkout.statemachine import TradeStatus
from checkout.vaults import service as vaults
from checkout.vaults.models import Vault

from .load import REJECTED_BENEFICIARY, REQUEST_TIMEOUT, Stats
from .service import Receiver

SETTLE_TIMEOUT = 240  # a worker killed mid-delivery holds its messages for the 60 s lease (wall clock)
NOTIFY_KINDS = ("payin.callback", "vault.callback", "payout.notification")
TRADE_STATUSES = set(TradeStatus)
REFUND_STATUSES = {trades.REFUND_PROCESSING, trades.REFUND_SUCCESS, trades.REFUND_FAILED}
PAYOUT_STATUSES = {
    lifecycle.IN_PROCESSING,
    lifecycle.PROCESSING,
    lifecycle.PAID,
    lifecycle.REJECTED,
    lifecycle.REFUNDED,
    lifecycle.PARTIAL_REFUNDED,
}
VAULT_STATUSES = {vaults.PENDING, vaults.ACTIVE, vaults.DECLINED, vaults.VOIDED, vaults.EXPIRED}


def _as_unix(moment) -> int:
    return clock.unix(moment)


def _clock_api(base: str, credentials: dict, stats: Stats, seconds: int | None = None) -> int:
    """The sandbox clock's now (unix) through the public API; moved forward first when `seconds` is given."""
    raw = f"{credentials['app_id']}:{credentials['security_key']}".encode()
    headers = {"Authorization": "Basic " + base64.b64encode(raw).decode()}
    if seconds is None:
        response = requests.get(f"{base}/sandbox/clock", headers=headers, timeout=REQUEST_TIMEOUT)
    else:
        response = requests.post(
            f"{base}/sandbox/clock",
            headers=headers,
            timeout=REQUEST_TIMEOUT,
            json={
                "app_id": credentials["app_id"],
                "timestamp": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
                "advance_seconds": seconds,
            },
        )
    stats.count("settle.clock", response.status_code)
    assert response.status_code == 200, response.text
    return response.json()["now"]


def settle(app, base: str, merchants: list[dict], stats: Stats) -> int:
    """Move each merchant's own clock until its payouts are final, its vault debits and expiries ran and its
    outbox is empty; answers how many times a clock was moved."""
    advances = 0
    deadline = time.monotonic() + SETTLE_TIMEOUT
    with app.app_context():
        ids = {
            m["app_id"]: db.session.scalar(select(Merchant.id).where(Merchant.app_id == m["app_id"])) for m in merchants
        }
        db.session.rollback()
    while True:
        waiting = []
        for credentials in merchants:
            merchant_id = ids[credentials["app_id"]]
            now = _clock_api(base, credentials, stats)
            state = _pending(app, merchant_id)
            if any(state.values()):
                waiting.append((credentials, now, state))
        if not waiting:
            return advances
        if time.monotonic() > deadline:
            totals = {
                key: sum(len(s[key]) if isinstance(s[key], list) else s[key] for _, _, s in waiting)
                for key in waiting[0][2]
            }
            pytest.fail(f"not settled after {SETTLE_TIMEOUT} s: {totals}")
        moved = False
        for credentials, now, state in waiting:
            moments = [_as_unix(m) for m in (*state["messages"], *state["payouts"], *state["unpaid"]) if m is not None]
            if state["debits"] or any(moment <= now for moment in moments):
                continue  # the worker has something due on this clock already
            _clock_api(base, credentials, stats, min(moments) - now + 1)
            advances += 1
            moved = True
        if not moved:
            time.sleep(0.2)  # polling the worker's progress on what is already due


def _pending(app, merchant_id: int) -> dict:
    """What of one merchant still waits: the first pending message of each subject (a message waits behind
    an earlier one about the same subject), payouts in progress, vault debits, unpaid direct trades."""
    with app.app_context():
        outbox = db.session.execute(
            select(OutboxMessage.target, OutboxMessage.subject_id, OutboxMessage.next_attempt_at)
            .where(OutboxMessage.status == PENDING, OutboxMessage.merchant_id == merchant_id)
            .order_by(OutboxMessage.id)
        ).all()
        payouts = db.session.scalars(
            select(Payout.next_step_at).where(
                Payout.status.in_((lifecycle.IN_PROCESSING, lifecycle.PROCESSING)), Payout.merchant_id == merchant_id
            )
        ).all()
        debits = db.session.scalar(
            select(func.count())
            .select_from(Trade)
            .where(Trade.kind == "vault", Trade.status == trades.PROCESSING, Trade.merchant_id == merchant_id)
        )
        unpaid = db.session.scalars(
            select(Trade.expires_at).where(
                Trade.kind == "direct", Trade.status == trades.PROCESSING, Trade.merchant_id == merchant_id
            )
        ).all()
        db.session.rollback()
    heads: dict = {}
    for target, subject, due in outbox:
        heads.setdefault((target, subject), due)
    return {"messages": list(heads.values()), "payouts": payouts, "debits": debits, "unpaid": unpaid}


def _statuses_by_subject(session, kind: str, field: str) -> dict[str, list[str]]:
    """The statuses a subject's messages of one kind announced, in the order they were queued."""
    statuses = collections.defaultdict(list)
    for subject, payload in session.execute(
        select(OutboxMessage.subject_id, OutboxMessage.payload)
        .where(OutboxMessage.kind == kind)
        .order_by(OutboxMessage.id)
    ):
        statuses[subject].append(payload[field])
    return statuses


def check_trades(session, problems: list[str]) -> collections.Counter:
    by_status: collections.Counter = collections.Counter()
    callbacks = _statuses_by_subject(session, "payin.callback", "trade_status")
    for trade in session.scalars(select(Trade).order_by(Trade.id)):
        by_status[trade.status] += 1
        where = f"trade {trade.trade_no} ({trade.kind} {trade.method}, {trade.status})"
        if trade.status not in TRADE_STATUSES:
            problems.append(f"{where}: status outside the documented set")
        previous = None
        for event in trade.events:
            if event.from_status != previous or not trades.TRADE.can(event.from_status, event.to_status):
                problems.append(f"{where}: history step {event.from_status} -> {event.to_status} after {previous}")
            previous = event.to_status
        if previous != trade.status:
            problems.append(f"{where}: history ends at {previous}")
        changes = [e.to_status for e in trade.events if e.to_status != trades.PROCESSING]
        if callbacks.get(trade.trade_no, []) != changes:
            problems.append(f"{where}: callbacks {callbacks.get(trade.trade_no)} for status changes {changes}")
        refunds = [r for r in trade.refunds if r.status != trades.REFUND_FAILED]
        refunded = sum(r.amount_minor for r in refunds)
        if any(r.status not in REFUND_STATUSES or r.currency != trade.currency for r in trade.refunds):
            problems.append(f"{where}: refund with an unknown status or another currency")
        if 0 < refunded <= trade.amount_minor:
            expected = {trades.REFUNDED}
        elif refunded == 0:
            expected = TRADE_STATUSES - {trades.REFUNDED}
        else:
            expected = set()  # more refunded than paid
        if trade.status not in expected:
            problems.append(f"{where}: refunded {refunded} of {trade.amount_minor}")
        with clock.merchant(trade.merchant_id):  # its merchant's own clock
            now, today = clock.now(), clock.brazil_today()
        if trade.status == trades.PROCESSING and (
            (trade.kind == "vault" and (trade.method == "CreditCard" or trade.scheduled_date <= today))
            # A direct card has no expiry: the worker charges it in its next round.
            or (trade.kind == "direct" and (trade.method == "CreditCard" or clock.as_utc(trade.expires_at) <= now))
        ):
            problems.append(f"{where}: still PROCESSING after its date")
    return by_status


def check_payouts(session, problems: list[str]) -> collections.Counter:
    by_status: collections.Counter = collections.Counter()
    notifications = _statuses_by_subject(session, "payout.notification", "status")
    for merchant_id, custom_code, count in session.execute(
        select(Payout.merchant_id, Payout.custom_code, func.count())
        .group_by(Payout.merchant_id, Payout.custom_code)
        .having(func.count() > 1)
    ):
        problems.append(f"merchant {merchant_id}: {count} payouts with custom_code {custom_code}")
    for payout in session.scalars(select(Payout).order_by(Payout.id)):
        by_status[payout.status] += 1
        where = f"payout {payout.transaction_id} ({payout.country} {payout.method}, {payout.status})"
        rejected = REJECTED_BENEFICIARY in (payout.account, payout.email)
        if payout.status not in PAYOUT_STATUSES - {lifecycle.IN_PROCESSING, lifecycle.PROCESSING}:
            problems.append(f"{where}: not final after the clock passed the bank's steps")
        if (payout.status == lifecycle.REJECTED) != rejected or payout.next_step_at is not None:
            problems.append(f"{where}: outcome does not follow the beneficiary, or a step is still planned")
        arrival = sum(r.arrival_minor for r in payout.refunds)
        source = sum(r.source_minor for r in payout.refunds)
        expected = {lifecycle.REFUNDED: payout.arrival_minor, lifecycle.PAID: 0, lifecycle.REJECTED: 0}.get(
            payout.status
        )
        if (expected is not None and arrival != expected) or (
            payout.status == lifecycle.PARTIAL_REFUNDED and not (0 < arrival < payout.arrival_minor)
        ):
            problems.append(f"{where}: refunds of {arrival} for an arrival of {payout.arrival_minor}")
        if source > payout.settlement_minor or (
            payout.status == lifecycle.REFUNDED and source != payout.settlement_minor
        ):
            problems.append(f"{where}: {source} credited back of a settlement of {payout.settlement_minor}")
        steps, running = [lifecycle.REJECTED if rejected else lifecycle.PAID], 0
        for refund in payout.refunds:
            running += refund.arrival_minor
            if refund.arrival_minor < payout.arrival_minor:
                steps.append(lifecycle.PARTIAL_REFUNDED)
            if running == payout.arrival_minor:
                steps.append(lifecycle.REFUNDED)
        if notifications.get(payout.transaction_id, []) != steps:
            problems.append(f"{where}: notifications {notifications.get(payout.transaction_id)}, expected {steps}")
    return by_status


def check_ledger(session, problems: list[str]) -> None:
    for transaction, total in session.execute(
        select(ledger.LedgerEntry.transaction_id, func.sum(ledger.LedgerEntry.amount_minor))
        .group_by(ledger.LedgerEntry.transaction_id)
        .having(func.sum(ledger.LedgerEntry.amount_minor) != 0)
    ):
        problems.append(f"ledger transaction {transaction} sums to {total}")
    books = collections.defaultdict(collections.Counter)
    for merchant_id, currency, account, total in session.execute(
        select(
            ledger.LedgerEntry.merchant_id,
            ledger.LedgerEntry.currency,
            ledger.LedgerEntry.account,
            func.sum(ledger.LedgerEntry.amount_minor),
        ).group_by(ledger.LedgerEntry.merchant_id, ledger.LedgerEntry.currency, ledger.LedgerEntry.account)
    ):
        books[(merchant_id, currency)][account] = int(total)
    expected = collections.defaultdict(collections.Counter)
    for payout in session.scalars(select(Payout)):
        if payout.status == lifecycle.REJECTED:
            continue
        book = expected[(payout.merchant_id, payout.source_currency)]
        credited = sum(r.source_minor for r in payout.refunds)
        book[ledger.AVAILABLE] += credited - payout.source_minor
        book[ledger.PAID_OUT] += payout.settlement_minor - credited
        book[ledger.FEES] += payout.fee_minor
        book[ledger.TAXES] += payout.tax_minor
    for key in set(books) | set(expected):
        accounts = books.get(key, collections.Counter())
        if sum(accounts.values()) != 0:
            problems.append(f"ledger of merchant {key[0]} in {key[1]} sums to {sum(accounts.values())}")
        funding = -accounts[ledger.FUNDING]
        for account in (ledger.AVAILABLE, ledger.IN_TRANSIT, ledger.PAID_OUT, ledger.FEES, ledger.TAXES):
            want = expected[key][account] + (funding if account == ledger.AVAILABLE else 0)
            if accounts[account] != want:
                problems.append(
                    f"ledger of merchant {key[0]} in {key[1]}: {account} is {accounts[account]}, "
                    f"the payouts make it {want}"
                )


def check_balance_history(session, problems: list[str]) -> None:
    """The daily balance history (what /api/balance and /api/balance/history read) holds, for every merchant,
    currency, account and UTC day, exactly the net of that day's ledger entries."""
    day = ledger.utc_day(session, ledger.LedgerEntry.created_at)
    entries = {
        (merchant_id, currency, account, str(moved_on)): int(net)
        for merchant_id, currency, account, moved_on, net in session.execute(
            select(
                ledger.LedgerEntry.merchant_id,
                ledger.LedgerEntry.currency,
                ledger.LedgerEntry.account,
                day,
                func.sum(ledger.LedgerEntry.amount_minor),
            ).group_by(ledger.LedgerEntry.merchant_id, ledger.LedgerEntry.currency, ledger.LedgerEntry.account, day)
        )
    }
    days = {
        (row.merchant_id, row.currency, row.account, str(row.day)): row.net_minor
        for row in session.scalars(select(ledger.LedgerDay))
    }
    for key in set(entries) | set(days):
        if entries.get(key, 0) != days.get(key, 0):
            problems.append(f"balance history {key}: {days.get(key)}, the entries make it {entries.get(key)}")


def check_deliveries(session, receiver: Receiver, keys: dict[int, dict], problems: list[str]) -> dict:
    messages = {m.notify_id: m for m in session.scalars(select(OutboxMessage))}
    for message in messages.values():
        where = f"{message.kind} {message.notify_id} about {message.subject_id}"
        wanted = DELIVERED if message.kind in NOTIFY_KINDS else SKIPPED
        if message.status != wanted:
            problems.append(f"{where}: {message.status} after {message.attempts} attempts ({message.last_error})")
        if message.kind in NOTIFY_KINDS and receiver.seen[message.notify_id] == 0:
            problems.append(f"{where}: marked {message.status} but never received")
    for request in receiver.requests:
        body, headers = request["json"] or {}, request["headers"]
        message = messages.get(body.get("notify_id"))
        if message is None or body != message.payload or headers.get("X-Notify-Id") != message.notify_id:
            problems.append(f"received something the outbox does not hold: {request['raw'][:200]!r}")
            continue
        credentials = keys.get(message.merchant_id)
        if credentials is None:
            problems.append(f"{message.kind} {message.notify_id} of another merchant reached the soak's receiver")
            continue
        if message.kind == "payout.notification":
            signed = headers.get("Authorization") == payout_signature(body, credentials["app_key"])
        else:
            parts = dict(part.split("=", 1) for part in headers.get("Pagsmile-Signature", "").split(",") if "=" in part)
            mac = hmac.new(credentials["security_key"].encode(), request["raw"], hashlib.sha256).hexdigest()
            signed = hmac.compare_digest(mac, parts.get("v2", ""))
        if not signed:
            problems.append(f"bad signature on {message.kind} {message.notify_id}")
    received = sum(receiver.seen.values())
    return {
        "messages": len(messages),
        "received": received,
        "unique": len(receiver.seen),
        "failed_on_purpose": len(receiver.failed_on_purpose),
        "duplicates": received - len(receiver.seen) - len(receiver.failed_on_purpose),
        "kinds": collections.Counter(m.kind for m in messages.values()),
        "sent": {notify_id: m for notify_id, m in messages.items() if m.kind in NOTIFY_KINDS},
    }


def check_vaults(session, problems: list[str]) -> None:
    for token, status in session.execute(select(Vault.token, Vault.status)):
        if status not in VAULT_STATUSES:
            problems.append(f"vault {token}: status {status}")
