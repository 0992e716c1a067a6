"""What the hostile-input tests share: the hostile values, and a body with each of its leaves replaced."""

from __future__ import annotations

from tests import builders

HOSTILE = [None, "", " ", 0, -1, 10**30, True, [], {}, "x" * 5000, "💸", "1e999", "-0.00", "١٢٣"]


def leaves(body: dict, prefix: tuple = ()):
    for key, value in body.items():
        if isinstance(value, dict):
            yield from leaves(value, (*prefix, key))
        yield (*prefix, key)


def replaced(body: dict, path: tuple, value) -> dict:
    override = value
    for key in reversed(path):
        override = {key: override}
    return builders.merge(body, override)
