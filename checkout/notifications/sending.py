"""The sending threads: one subject's messages in order, merchants served in turn, results handed back as
they come (so that a round records them without waiting for the slowest receiver). A Sender starts its
threads with its first message and ends them at close(); its owner (the worker, a command) makes and closes
it, never an import."""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .result import Result

M = TypeVar("M", bound=Hashable)  # a message as the caller knows it (its id must be unique)


@dataclass
class Outcome(Generic[M]):
    message: M
    result: Result | None  # None: not sent (an earlier message of its subject failed, or too late): give it back
    manual: bool


@dataclass(eq=False)
class _Group(Generic[M]):
    merchant: int
    messages: list[M]
    send: Callable[[M], Result]
    manual: bool
    start_by: float  # monotonic: a group not started by then is given back unsent (its hold runs out)
    current: M | None = None  # the message being sent, since `since` (monotonic)
    since: float = 0.0
    abandoned: bool = False  # given up on (reap): whatever its thread still does is thrown away
    replaced: bool = False  # ... and a new thread took its place


class Sender(Generic[M]):
    """`threads` threads shared by every merchant. While n merchants have work, each runs at most
    threads // n of them (at least one, at most three quarters), and whenever a thread frees up the next
    merchant in turn is served, so one merchant's backlog or slow receiver leaves threads to the others.
    Finished outcomes wait in `collect()`."""

    def __init__(self, threads: int):
        self.threads = threads
        self._cond = threading.Condition()
        self._waiting: dict[int, deque[_Group[M]]] = {}
        self._turns: deque[int] = deque()  # merchants with groups waiting, in the order they are served
        self._running: Counter[int] = Counter()  # groups per merchant, stuck ones included until they end
        self._unfinished: set[M] = set()
        self._finished: list[Outcome[M]] = []
        self._running_groups: set[_Group[M]] = set()
        self._started = 0  # threads serving the queue (a replaced stuck one no longer counts)
        self._zombies = 0  # stuck threads given up on that have not ended yet
        self._closed = False  # close(): no more threads start, and idle ones end

    # --- queue --------------------------------------------------------------------------------------

    def submit(
        self, merchant: int, messages: list[M], send: Callable[[M], Result], *, manual: bool, start_by: float
    ) -> None:
        """Queue one subject's messages, to be sent in this order if a thread takes them by `start_by`."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the sender is closed")
            if not self._waiting.get(merchant):
                self._waiting[merchant] = deque()
                self._turns.append(merchant)
            self._waiting[merchant].append(_Group(merchant, messages, send, manual, start_by))
            self._unfinished.update(messages)
            self._start_threads()
            self._cond.notify_all()

    def share(self) -> int:
        """Threads one merchant may hold: an even part among the merchants with work, and never more than
        three quarters, so that a merchant arriving finds threads free even beside one that hangs."""
        active = {m for m, n in self._running.items() if n > 0} | set(self._turns)
        return max(1, min(self.threads * 3 // 4, self.threads // max(1, len(active))))

    def _next(self) -> _Group[M] | None:
        share = self.share()
        for _ in range(len(self._turns)):
            merchant = self._turns.popleft()
            if self._running[merchant] >= share:
                self._turns.append(merchant)  # at its share: the others go first
                continue
            group = self._waiting[merchant].popleft()
            if self._waiting[merchant]:
                self._turns.append(merchant)
            if time.monotonic() > group.start_by:  # its hold is nearly over: another round sends it
                for message in group.messages:
                    self._finish(Outcome(message, None, group.manual))
                return self._next()
            self._running[merchant] += 1
            self._running_groups.add(group)
            return group
        return None

    # --- threads ------------------------------------------------------------------------------------

    def close(self) -> None:
        """End the threads: each ends once it is idle (a send in flight is finished, and its outcome kept
        for nobody: an unrecorded message is sent again once its hold ends, as after a crash)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _start_threads(self) -> None:
        while self._started < self.threads and not self._closed:
            self._started += 1
            threading.Thread(target=self._work, name=f"checkout-delivery-{self._started}", daemon=True).start()

    def _work(self) -> None:
        while True:
            with self._cond:
                group = self._next()
                while group is None:
                    if self._closed:
                        return
                    self._cond.wait()
                    group = self._next()
            if not self._run(group):
                return  # given up on and replaced by a new thread: this one ends

    def _run(self, group: _Group[M]) -> bool:
        """Send one subject's messages in order, each outcome handed back as it comes; after a failure
        the rest are not sent (they wait for its retry). False when this thread was replaced meanwhile."""
        for index, message in enumerate(group.messages):
            with self._cond:
                group.current, group.since = message, time.monotonic()
            try:
                result = group.send(message)
            except Exception as exc:  # a transport fault must not end the thread
                result = Result(succeeded=False, error=f"{type(exc).__name__}: {exc}"[:255])
            with self._cond:
                if group.abandoned:
                    return self._end_abandoned(group)
                # One critical section: the outcome, the end of `current`, and the group's release when it
                # is done, so that reap() never answers a message that has just been answered.
                self._finish(Outcome(message, result, group.manual))
                group.current = None
                last = index == len(group.messages) - 1
                if not result.succeeded:
                    for rest in group.messages[index + 1 :]:
                        self._finish(Outcome(rest, None, group.manual))
                if last or not result.succeeded:
                    self._release(group)
                    return True
        return True  # a group always has a message: not reached

    def _end_abandoned(self, group: _Group[M]) -> bool:
        """A stuck send came back after reap() answered it: its merchant's thread is free only now."""
        self._zombies -= 1
        self._running[group.merchant] -= 1
        self._running_groups.discard(group)
        self._cond.notify_all()
        return not group.replaced  # a thread that was replaced ends; one that was not serves on

    def _finish(self, outcome: Outcome[M]) -> None:
        self._finished.append(outcome)
        self._unfinished.discard(outcome.message)
        self._cond.notify_all()

    def _release(self, group: _Group[M]) -> None:
        self._running[group.merchant] -= 1
        self._running_groups.discard(group)
        self._cond.notify_all()

    def reap(self, limit: float) -> int:
        """Give up on sends running longer than `limit` seconds (a receiver that trickles its headers):
        each is answered "timed out" and the rest of its subject is not sent. A new thread takes the stuck
        one's place, up to as many stuck threads as there are threads; the stuck group still counts
        against its merchant's share until its thread comes back, so a merchant cannot pile them up."""
        now = time.monotonic()
        with self._cond:
            stuck = [g for g in self._running_groups if not g.abandoned and g.current is not None]
            stuck = [g for g in stuck if now - g.since > limit]
            for group in stuck:
                group.abandoned = True
                self._zombies += 1
                current = group.messages.index(group.current)  # type: ignore[arg-type]  # set while running
                self._finish(Outcome(group.messages[current], Result(succeeded=False, error="timed out"), group.manual))
                for rest in group.messages[current + 1 :]:
                    self._finish(Outcome(rest, None, group.manual))
                if self._zombies <= self.threads:
                    group.replaced = True
                    self._started -= 1
            self._start_threads()
            return len(stuck)

    # --- results ------------------------------------------------------------------------------------

    def wait_any(self, messages: Iterable[M] | None, deadline: float, *, manual: bool | None = None) -> bool:
        """Wait until an outcome of `messages` (None: of any, of manual or automatic sends only with
        `manual`) is ready or none of them is unfinished (True), or the deadline (False)."""
        wanted = None if messages is None else set(messages)

        def ready() -> bool:
            if wanted is None:
                return any(manual in (None, o.manual) for o in self._finished) or not self._unfinished
            return any(o.message in wanted for o in self._finished) or not wanted & self._unfinished

        with self._cond:
            while not ready():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def unfinished(self, messages: Iterable[M] | None = None) -> set[M]:
        with self._cond:
            return set(self._unfinished) if messages is None else set(messages) & self._unfinished

    def collect(self, only: Iterable[M] | None = None, *, manual: bool | None = None) -> list[Outcome[M]]:
        """Take the finished outcomes: of `only` when given, else of every message (of manual or automatic
        sends only, with `manual`); the others stay for their owner."""
        wanted = None if only is None else set(only)
        with self._cond:
            taken: list[Outcome[M]] = []
            kept: list[Outcome[M]] = []
            for outcome in self._finished:
                mine = (wanted is None or outcome.message in wanted) and manual in (None, outcome.manual)
                (taken if mine else kept).append(outcome)
            self._finished = kept
            return taken
