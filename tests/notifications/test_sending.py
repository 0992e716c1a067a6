"""The sending threads: one subject in order, merchants in turn and within their share, outcomes as they come."""

import threading
import time

from checkout.notifications.result import Result
from checkout.notifications.sending import Sender


class Message:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return self.name


def collect_all(sender: Sender, messages, seconds: float = 5) -> list:
    deadline = time.monotonic() + seconds
    outcomes: list = []
    while len(outcomes) < len(messages) and time.monotonic() < deadline:
        sender.wait_any(messages, deadline)
        outcomes += sender.collect(messages)
    return outcomes


def test_a_subject_is_sent_in_order_and_stops_at_its_first_failure():
    sender: Sender = Sender(threads=4, per_merchant=4)
    sent: list[str] = []

    def send(message):
        sent.append(message.name)
        return Result(succeeded=message.name != "b")

    messages = [Message(n) for n in "abc"]
    sender.submit(1, messages, send, manual=False)
    outcomes = collect_all(sender, messages)
    assert [(o.message.name, o.result and o.result.succeeded) for o in outcomes] == [
        ("a", True),
        ("b", False),
        ("c", None),  # not sent: it waits for b's retry
    ]
    assert sent == ["a", "b"]


def test_one_merchant_never_holds_more_than_its_share_of_the_threads():
    sender: Sender = Sender(threads=4, per_merchant=2)
    release = threading.Event()
    running: list[str] = []

    def hang(message):
        running.append(message.name)
        release.wait(5)
        return Result(succeeded=True)

    slow = [Message(f"slow-{i}") for i in range(6)]
    for message in slow:
        sender.submit(1, [message], hang, manual=False)
    fast = Message("fast")
    sender.submit(2, [fast], lambda message: Result(succeeded=True), manual=False)
    started = time.monotonic()
    [outcome] = collect_all(sender, [fast], seconds=3)
    assert outcome.result.succeeded and time.monotonic() - started < 1  # served beside the slow ones
    assert len([name for name in running if name.startswith("slow")]) == 2  # its share, not 4
    release.set()
    assert len(collect_all(sender, slow)) == 6


def test_outcomes_are_collected_by_their_owner():
    sender: Sender = Sender(threads=2, per_merchant=2)
    mine, theirs = Message("mine"), Message("theirs")
    for message in (mine, theirs):
        sender.submit(1, [message], lambda message: Result(succeeded=True), manual=message is mine)
    assert [o.message for o in collect_all(sender, [mine])] == [mine]
    [left] = collect_all(sender, [theirs])
    assert (left.message, left.manual) == (theirs, False)
    assert sender.collect() == [] and sender.unfinished() == set()


def test_a_send_stuck_past_the_limit_is_given_up_and_its_thread_replaced():
    sender: Sender = Sender(threads=1, per_merchant=1)
    release, began, returned = threading.Event(), threading.Event(), threading.Event()

    def stuck(message):
        began.set()
        release.wait(5)
        returned.set()
        return Result(succeeded=True)

    first, second, third = Message("first"), Message("second"), Message("third")
    sender.submit(1, [first, second], stuck, manual=False)
    sender.submit(1, [third], lambda message: Result(succeeded=True), manual=False)
    assert began.wait(2)
    time.sleep(0.15)  # past the limit below
    assert sender.reap(limit=0.1) == 1
    outcomes = collect_all(sender, [first, second, third])
    release.set()
    assert [(o.message.name, o.result and (o.result.succeeded, o.result.error)) for o in outcomes] == [
        ("first", (False, "timed out")),
        ("second", None),  # its subject waits for the retry of `first`
        ("third", (True, None)),  # served by the thread that replaced the stuck one
    ]
    assert returned.wait(2)
    deadline = time.monotonic() + 0.2
    while time.monotonic() < deadline:  # the stuck thread's answer is thrown away, now and later
        assert sender.collect() == [] and sender.unfinished() == set()
