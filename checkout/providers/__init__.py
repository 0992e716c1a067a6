"""Providers: the acquirer and the payout bank behind the services, chosen by configuration (sandbox by default)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .base import Acquirer, PayoutBank
from .sandbox import SandboxAcquirer, SandboxPayoutBank

# Name (config ACQUIRER / PAYOUT_BANK) -> a factory taking the app's configuration. A real connector adds
# its entry here; the services only ever see the Acquirer / PayoutBank interfaces.
ACQUIRERS: Mapping[str, Callable[[Mapping[str, Any]], Acquirer]] = MappingProxyType(
    {"sandbox": lambda config: SandboxAcquirer()}
)
PAYOUT_BANKS: Mapping[str, Callable[[Mapping[str, Any]], PayoutBank]] = MappingProxyType(
    {"sandbox": SandboxPayoutBank.from_config}
)


class UnknownProvider(ValueError):
    """A configured provider name that no registry entry answers to."""


@dataclass(frozen=True)
class Providers:
    """The acquirer and the payout bank one app runs with: built once at its start, then handed to the
    services that need them (routes, pages and jobs get them through checkout.wiring)."""

    acquirer: Acquirer
    payout_bank: PayoutBank


def _pick(registry: Mapping[str, Callable[[Mapping[str, Any]], Any]], key: str, config: Mapping[str, Any]):
    name = config.get(key, "sandbox")
    factory = registry.get(name)
    if factory is None:
        raise UnknownProvider(f"{key} (CHECKOUT_{key}) must be one of {', '.join(sorted(registry))}, not {name!r}")
    return factory(config)


def build(config: Mapping[str, Any]) -> Providers:
    """The providers the configuration names (ACQUIRER, PAYOUT_BANK); an unknown name raises UnknownProvider."""
    return Providers(
        acquirer=_pick(ACQUIRERS, "ACQUIRER", config), payout_bank=_pick(PAYOUT_BANKS, "PAYOUT_BANK", config)
    )
