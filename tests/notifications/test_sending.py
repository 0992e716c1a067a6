"""The sending threads: one subject in order, merchants in turn and within their share, outcomes as they come."""

import threading
import time

from checkout.notifications.result import Result
from checkout.notifications.sending import Sender

LATER = float("inf")  # start_by: no deadline to start


class Message:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return self.name


def ok(message):
    return Result(succeeded=True)


def collect_all(sender: Sender, messages, seconds: float = 5) -> list:
    deadline = time.monotonic() + seconds
    outcomes: list = []
    while len(outcomes) < len(messages) and time.monotonic() < deadline:
        sender.wait_any(messages, deadline)
        outcomes += sender.collect(messages)
    return outcomes


def until(condition, seconds: float = 5) -> bool:
    """Poll a condition another thread makes true (bounded)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_subject_is_sent_in_order_and_stops_at_its_first_failure():
    sender: Sender = Sender(threads=4)
    sent: list[str] = []

    def send(message):
        sent.append(message.name)
        return Result(succeeded=message.name != "b")

    messages = [Message(n) for n in "abc"]
    sender.submit(1, messages, send, manual=False, start_by=LATER)
    outcomes = collect_all(sender, messages)
    assert [(o.message.name, o.result and o.result.succeeded) for o in outcomes] == [
        ("a", True),
        ("b", False),
        ("c", None),  # not sent: it waits for b's retry
    ]
    assert sent == ["a", "b"]


def test_a_transport_fault_is_a_failed_attempt_and_the_thread_lives_on():
    sender: Sender = Sender(threads=1)

    def broken(message):
        raise ConnectionResetError("reset by peer")

    first, second = Message("first"), Message("second")
    sender.submit(1, [first], broken, manual=False, start_by=LATER)
    sender.submit(1, [second], ok, manual=False, start_by=LATER)
    outcomes = collect_all(sender, [first, second])
    assert [(o.message.name, o.result.succeeded, o.result.error) for o in outcomes] == [
        ("first", False, "ConnectionResetError: reset by peer"),
        ("second", True, None),
    ]


def test_one_merchant_never_holds_more_than_its_share_of_the_threads():
    sender: Sender = Sender(threads=4)
    release = threading.Event()
    running: list[str] = []

    def hang(message):
        running.append(message.name)
        release.wait(5)
        return Result(succeeded=True)

    slow = [Message(f"slow-{i}") for i in range(6)]
    for message in slow:
        sender.submit(1, [message], hang, manual=False, start_by=LATER)
    assert until(lambda: len(running) == 3)  # alone: three quarters of the threads
    fast = Message("fast")
    sender.submit(2, [fast], ok, manual=False, start_by=LATER)
    started = time.monotonic()
    [outcome] = collect_all(sender, [fast], seconds=3)
    assert outcome.result.succeeded and time.monotonic() - started < 1  # served beside the slow ones
    assert len(running) == 3  # no fourth thread went to the slow merchant
    release.set()
    assert len(collect_all(sender, slow)) == 6


def test_a_group_not_started_in_time_is_given_back_unsent():
    sender: Sender = Sender(threads=1)
    late = Message("late")
    sender.submit(1, [late], ok, manual=False, start_by=time.monotonic() - 1)
    [outcome] = collect_all(sender, [late])
    assert outcome.result is None  # its hold was running out: the next round claims it again


def test_outcomes_are_collected_by_their_owner():
    sender: Sender = Sender(threads=2)
    mine, theirs = Message("mine"), Message("theirs")
    for message in (mine, theirs):
        sender.submit(1, [message], ok, manual=message is mine, start_by=LATER)
    assert until(lambda: not sender.unfinished())
    assert [o.message for o in sender.collect(manual=False)] == [theirs]  # the worker leaves the resend's
    assert [o.message for o in sender.collect([mine])] == [mine]
    assert sender.collect() == [] and sender.unfinished() == set()


def test_a_send_stuck_past_the_limit_is_given_up_and_its_thread_replaced():
    sender: Sender = Sender(threads=1)
    release, began, returned = threading.Event(), threading.Event(), threading.Event()

    def stuck(message):
        began.set()
        release.wait(5)
        returned.set()
        return Result(succeeded=True)

    first, second, third = Message("first"), Message("second"), Message("third")
    sender.submit(1, [first, second], stuck, manual=False, start_by=LATER)
    sender.submit(2, [third], ok, manual=False, start_by=LATER)
    assert began.wait(2)
    assert until(lambda: sender.reap(limit=0.1) == 1)
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


def test_a_stuck_group_counts_against_its_merchant_until_its_thread_ends():
    sender: Sender = Sender(threads=2)
    release = threading.Event()
    began: list[str] = []

    def stuck(message):
        began.append(message.name)
        release.wait(5)
        return Result(succeeded=True)

    hog = [Message(f"hog-{i}") for i in range(3)]
    for message in hog:
        sender.submit(1, [message], stuck, manual=False, start_by=LATER)
    assert until(lambda: len(began) == 1)  # alone: one of two threads (three quarters, at least one)
    assert until(lambda: sender.reap(limit=0.05) == 1)
    assert until(lambda: sender.collect([hog[0]]) != [])
    time_to_check = time.monotonic() + 0.2
    while time.monotonic() < time_to_check:  # its share is still held by the stuck thread
        assert len(began) == 1
    release.set()
    assert len(collect_all(sender, hog[1:])) == 2
