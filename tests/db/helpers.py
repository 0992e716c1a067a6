"""What the database tests share: waiting for a change to be heard."""

from __future__ import annotations

import time

from checkout.db import Changes


def heard(changes: Changes, name: str, stamp: int | None, seconds: float = 5.0) -> bool:
    """Wait until a change to `name` since `stamp` is heard (the row no longer `unchanged`) and noted (a stamp
    taken now vouches for a read again: nothing waits on the socket); False past `seconds`."""
    deadline = time.monotonic() + seconds
    while changes.unchanged(name, stamp) or not changes.unchanged(name, changes.stamp()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True
