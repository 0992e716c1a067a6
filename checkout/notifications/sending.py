"""The sending threads: one subject's messages in order, merchants served in turn, results handed back as
they come (so that a round records them without waiting for the slowest receiver)."""

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
    result: Result | None  # None: not sent (an earlier message of its subject failed): give it back
    manual: bool


@dataclass(eq=False)
class _Group(Generic[M]):
    merchant: int
    messages: list[M]
    send: Callable[[M], Result]
    manual: bool
    current: M | None = None  # the message being sent, since `since` (monotonic)
    since: float = 0.0
    abandoned: bool = False  # given up on (reap): whatever its thread still does is thrown away


class Sender(Generic[M]):
    """`threads` threads shared by every merchant. A merchant runs at most `per_merchant` of them at once,
    and whenever a thread frees up the next merchant in turn is served, so one merchant's backlog or slow
    receiver leaves threads to the others. Finished outcomes wait in `collect()`."""

    def __init__(self, threads: int, per_merchant: int):
        self.threads, self.per_merchant = threads, per_merchant
        self._cond = threading.Condition()
        self._waiting: dict[int, deque[_Group[M]]] = {}
        self._turns: deque[int] = deque()  # merchants with groups waiting, in the order they are served
        self._running: Counter[int] = Counter()
        self._unfinished: set[M] = set()
        self._finished: list[Outcome[M]] = []
        self._running_groups: set[_Group[M]] = set()
        self._started = 0

    def submit(self, merchant: int, messages: list[M], send: Callable[[M], Result], *, manual: bool) -> None:
        """Queue one subject's messages, to be sent in this order."""
        with self._cond:
            if merchant not in self._waiting or not self._waiting[merchant]:
                self._waiting[merchant] = deque()
                self._turns.append(merchant)
            self._waiting[merchant].append(_Group(merchant, messages, send, manual))
            self._unfinished.update(messages)
            self._start_threads()
            self._cond.notify_all()

    def _next(self) -> _Group[M] | None:
        for _ in range(len(self._turns)):
            merchant = self._turns.popleft()
            if self._running[merchant] >= self.per_merchant:
                self._turns.append(merchant)  # at its share: the others go first
                continue
            group = self._waiting[merchant].popleft()
            if self._waiting[merchant]:
                self._turns.append(merchant)
            self._running[merchant] += 1
            return group
        return None

    def _work(self) -> None:
        while True:
            with self._cond:
                group = self._next()
                while group is None:
                    self._cond.wait()
                    group = self._next()
                self._running_groups.add(group)
            if not self._run(group):
                return  # given up on and replaced by a new thread: this one ends

    def _run(self, group: _Group[M]) -> bool:
        """Send one subject's messages in order, each outcome handed back as it comes; after a failure
        the rest are not sent (they wait for its retry). False when the group was given up on meanwhile."""
        for index, message in enumerate(group.messages):
            with self._cond:
                if group.abandoned:
                    return False
                group.current, group.since = message, time.monotonic()
            result = group.send(message)
            with self._cond:
                if group.abandoned:
                    return False
                self._finish(Outcome(message, result, group.manual))
                if not result.succeeded:
                    for rest in group.messages[index + 1 :]:
                        self._finish(Outcome(rest, None, group.manual))
                    break
        with self._cond:
            self._release(group)
        return True

    def _finish(self, outcome: Outcome[M]) -> None:
        self._finished.append(outcome)
        self._unfinished.discard(outcome.message)
        self._cond.notify_all()

    def _release(self, group: _Group[M]) -> None:
        group.current = None
        self._running[group.merchant] -= 1
        self._running_groups.discard(group)
        self._cond.notify_all()

    def reap(self, limit: float) -> int:
        """Give up on sends running longer than `limit` seconds (a receiver that trickles its headers):
        each is answered "timed out", the rest of its subject is not sent, and a new thread takes the
        stuck one's place. What the stuck thread sends or learns afterwards is thrown away."""
        now = time.monotonic()
        with self._cond:
            stuck = [g for g in self._running_groups if g.current is not None and now - g.since > limit]
            for group in stuck:
                group.abandoned = True
                current = group.messages.index(group.current)  # type: ignore[arg-type]  # set while running
                self._finish(Outcome(group.messages[current], Result(succeeded=False, error="timed out"), group.manual))
                for rest in group.messages[current + 1 :]:
                    self._finish(Outcome(rest, None, group.manual))
                self._release(group)
                self._started -= 1
            self._start_threads()
            return len(stuck)

    def _start_threads(self) -> None:
        while self._started < self.threads:
            self._started += 1
            threading.Thread(target=self._work, name=f"checkout-delivery-{self._started}", daemon=True).start()

    def wait_any(self, messages: Iterable[M] | None, deadline: float) -> bool:
        """Wait until an outcome of `messages` (None: of any) is ready or none of them is unfinished (True),
        or the deadline (False)."""
        wanted = None if messages is None else set(messages)

        def ready() -> bool:
            if wanted is None:
                return bool(self._finished) or not self._unfinished
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

    def collect(self, only: Iterable[M] | None = None) -> list[Outcome[M]]:
        """Take the finished outcomes (of `only`, when given; the others stay for their owner)."""
        with self._cond:
            if only is None:
                taken, self._finished = self._finished, []
                return taken
            wanted = set(only)
            taken = [o for o in self._finished if o.message in wanted]
            self._finished = [o for o in self._finished if o.message not in wanted]
            return taken
