"""Providers: the acquirer and the payout bank behind the services, chosen by configuration (sandbox by default)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .base import Acquirer, PayoutBank
from .sandbox import SandboxAcquirer, SandboxPayoutBank

# Name (config ACQUIRER / PAYOUT_BANK) -> a factory taking the app's configuration. A real connector adds
# its entry here; the services only ever see the Acquirer / PayoutBank interfaces.
ACQUIRERS: dict[str, Callable[[Mapping[str, Any]], Acquirer]] = {"sandbox": lambda config: SandboxAcquirer()}
PAYOUT_BANKS: dict[str, Callable[[Mapping[str, Any]], PayoutBank]] = {"sandbox": SandboxPayoutBank.from_config}


class UnknownProvider(ValueError):
    """A configured provider name that no registry entry answers to."""


def _pick(registry: dict, key: str, config: Mapping[str, Any]):
    name = config.get(key, "sandbox")
    factory = registry.get(name)
    if factory is None:
        raise UnknownProvider(f"{key} (CHECKOUT_{key}) must be one of {', '.join(sorted(registry))}, not {name!r}")
    return factory(config)


def acquirer(config: Mapping[str, Any]) -> Acquirer:
    """The acquirer the configuration names (ACQUIRER)."""
    return _pick(ACQUIRERS, "ACQUIRER", config)


def payout_bank(config: Mapping[str, Any]) -> PayoutBank:
    """The payout bank the configuration names (PAYOUT_BANK)."""
    return _pick(PAYOUT_BANKS, "PAYOUT_BANK", config)


def check(config: Mapping[str, Any]) -> None:
    """Fail at app start, not at the first payment, when a configured provider does not exist."""
    acquirer(config)
    payout_bank(config)
