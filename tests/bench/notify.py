"""Notification deliveries per second by one worker, against a bare `requests` loop to the same receiver."""

from __future__ import annotations

import time

import requests
from flask import Flask
from sqlalchemy import func, select

from checkout import worker
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.notifications import outbox
from checkout.notifications.models import DELIVERED, OutboxMessage
from checkout.notifications.transport import body_of

TIME_LIMIT = 300  # seconds: a worker that cannot deliver stops being waited for


def _queue(app: Flask, app_id: str, target: str, count: int, tag: str) -> list[bytes]:
    """`count` payin callbacks, each about its own trade (so none waits behind another), as the service
    queues them; answers their bodies."""
    with app.app_context():
        merchant = find_by_app_id(db.session, app_id)
        messages = []
        for n in range(count):
            trade_no = f"{tag}{n:010d}"
            messages.append(
                outbox.enqueue(
                    db.session,
                    merchant_id=merchant.id,
                    kind="payin.callback",
                    target=target,
                    subject_id=trade_no,
                    payload={
                        "trade_no": trade_no,
                        "out_trade_no": f"order-{tag}-{n}",
                        "trade_status": "SUCCESS",
                        "method": "PIX",
                        "order_amount": "100.50",
                        "order_currency": "BRL",
                        "timestamp": "2026-11-21 10:00:00",
                    },
                )
            )
        db.session.commit()
        return [body_of(message.payload) for message in messages]


def _delivered(app: Flask, tag: str) -> int:
    with app.app_context():
        return db.session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.subject_id.like(f"{tag}%"), OutboxMessage.status == DELIVERED)
        )


PAIRS = 3  # interleaved: a worker's batch, then the bare loop over the same bodies, three times


def _worker_batch(app: Flask, app_id: str, receiver: str, count: int, tag: str) -> tuple[list[bytes], int, float]:
    bodies = _queue(app, app_id, receiver, count, tag)
    started = time.monotonic()
    rounds = 0
    # One worker: rounds until nothing is due (a failed message is due again only minutes later).
    while worker.run_once(app) > 0 and time.monotonic() - started < TIME_LIMIT:
        rounds += 1
    return bodies, rounds, time.monotonic() - started


def _bare_loop(receiver: str, bodies: list[bytes]) -> tuple[int, float]:
    started = time.monotonic()
    answered = 0
    with requests.Session() as http:
        for body in bodies:
            answered += http.post(receiver, data=body, timeout=10).text.strip() == "success"
    return answered, time.monotonic() - started


def measure(app: Flask, app_id: str, receiver: str, count: int) -> dict:
    """`count` messages delivered by one worker, then the same bodies posted by a bare loop, PAIRS times in
    turn (one pair of 3-second shots moved by ±0.1 from run to run with whatever else the machine did);
    the ratio is of the totals."""
    tag = f"N{int(time.time())}"
    worker_seconds = bare_seconds = 0.0
    rounds = delivered = answered = 0
    pairs = []
    for pair in range(PAIRS):
        bodies, pair_rounds, seconds = _worker_batch(app, app_id, receiver, count, f"{tag}p{pair}-")
        pair_delivered = _delivered(app, f"{tag}p{pair}-")
        pair_answered, pair_bare = _bare_loop(receiver, bodies)
        worker_seconds, bare_seconds = worker_seconds + seconds, bare_seconds + pair_bare
        rounds, delivered, answered = rounds + pair_rounds, delivered + pair_delivered, answered + pair_answered
        pairs.append(round((pair_delivered / seconds) / (pair_answered / pair_bare), 2) if pair_answered else None)
    worker_rate, bare_rate = delivered / worker_seconds, answered / bare_seconds
    return {
        "messages": count * PAIRS,
        "delivered": delivered,
        "rounds": rounds,
        "worker_s": round(worker_seconds, 2),
        "worker_per_s": round(worker_rate, 1),
        "bare_answered": answered,
        "bare_s": round(bare_seconds, 2),
        "bare_per_s": round(bare_rate, 1),
        "ratio": worker_rate / bare_rate if bare_rate else None,
        "pairs": pairs,
        "complete": delivered == count * PAIRS,
    }
