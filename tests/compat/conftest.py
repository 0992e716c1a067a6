"""Fixtures of the compatibility suite: the merchant's receiver of notifications."""

from tests.notifications.conftest import receiver  # noqa: F401  (a fixture, used by name)
