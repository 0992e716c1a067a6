"""After the soak: did the receiver get each subject's notifications in the order they were written?

Words, for one notification (an outbox message, known by its notify_id): its *first arrival* is the
first request the receiver got carrying it; its *acceptance* is the first of those the receiver answered
200 (the receiver refuses some first attempts on purpose). A *subject* is a trade (its refunds announce
themselves on it), a vault or a payout, with the URL it notifies: the outbox's (target, subject_id).
Within a subject the messages are written in outbox id order.

- out of order: a message whose first arrival comes before the first arrival of an earlier message of
  its subject (the receiver saw a later status first);
- overtaking: a message whose first arrival comes before the acceptance of an earlier message of its
  subject (the dispatcher holds a message while an earlier one of its subject is pending, so this is
  the stricter form of the same rule, and must not happen either);
- copies: the receiver answers 200 to every arrival but a refused first one; a message accepted more
  than twice is an error. A second copy is allowed (a worker killed between the receiver's answer and
  recording it, or a resend), and so is that copy coming after later messages of its subject: only first
  arrivals are ordered.
"""

from __future__ import annotations

import collections

MAX_COPIES = 2


def check_ordering(messages: dict, requests: list[dict], problems: list[str]) -> dict:
    """`messages`: notify_id -> outbox message (of the kinds sent over HTTP); `requests`: the receiver's, in
    arrival order. Answers the counts the summary prints."""
    first: dict[str, int] = {}
    accepted: dict[str, int] = {}
    copies: collections.Counter[str] = collections.Counter()
    for position, request in enumerate(requests):
        notify_id = request["notify_id"]
        first.setdefault(notify_id, position)
        if request["status"] == 200:
            accepted.setdefault(notify_id, position)
            copies[notify_id] += 1
    subjects: dict[tuple[str, str], list] = collections.defaultdict(list)
    for message in messages.values():
        subjects[(message.target, message.subject_id)].append(message)
    out_of_order = overtaking = 0
    for (_, subject), group in subjects.items():
        group.sort(key=lambda m: m.id)
        latest_first = latest_accepted = -1  # over the earlier messages of the subject
        for message in group:
            arrived = first.get(message.notify_id)
            if arrived is None:
                continue  # never received: check_deliveries reports it
            where = f"{message.kind} {message.notify_id} (outbox {message.id}) about {subject}"
            if arrived < latest_first:
                out_of_order += 1
                problems.append(f"{where}: {_status(message)} arrived before an earlier message of its subject")
            elif arrived < latest_accepted:
                overtaking += 1
                problems.append(f"{where}: {_status(message)} arrived before an earlier one was acknowledged")
            latest_first = max(latest_first, arrived)
            latest_accepted = max(latest_accepted, accepted.get(message.notify_id, len(requests)))
    too_many = {notify_id: n for notify_id, n in copies.items() if n > MAX_COPIES}
    for notify_id, n in too_many.items():
        problems.append(f"notification {notify_id} accepted {n} times (at most {MAX_COPIES})")
    return {
        "subjects": len(subjects),
        "out_of_order": out_of_order,
        "overtaking": overtaking,
        "second_copies": sum(1 for n in copies.values() if n == MAX_COPIES),
        "over_copies": len(too_many),
    }


def _status(message) -> str:
    payload = message.payload or {}
    return str(payload.get("trade_status") or payload.get("status") or payload.get("vault_status") or "?")
