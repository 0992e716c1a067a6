"""Choosing the providers by configuration: sandbox by default, an unknown name stops the app's start."""

from __future__ import annotations

import pytest

from checkout import create_app, providers
from checkout.providers.sandbox import SandboxAcquirer, SandboxPayoutBank

CONFIG = {"PAYOUT_PROCESSING_AFTER": 30, "PAYOUT_DECIDED_AFTER": 90}


def test_sandbox_is_the_default():
    chosen = providers.build(CONFIG)
    assert isinstance(chosen.acquirer, SandboxAcquirer)
    assert chosen.payout_bank == SandboxPayoutBank(processing_after=30, decided_after=90)


def test_named_providers():
    chosen = providers.build({**CONFIG, "ACQUIRER": "sandbox", "PAYOUT_BANK": "sandbox"})
    assert isinstance(chosen.acquirer, SandboxAcquirer)
    assert isinstance(chosen.payout_bank, SandboxPayoutBank)


def test_unknown_names_are_refused():
    with pytest.raises(providers.UnknownProvider) as error:
        providers.build({**CONFIG, "ACQUIRER": "stripe"})
    assert str(error.value) == "ACQUIRER (CHECKOUT_ACQUIRER) must be one of sandbox, not 'stripe'"
    with pytest.raises(providers.UnknownProvider) as error:
        providers.build({**CONFIG, "PAYOUT_BANK": "itau"})
    assert str(error.value) == "PAYOUT_BANK (CHECKOUT_PAYOUT_BANK) must be one of sandbox, not 'itau'"


def test_app_does_not_start_with_an_unknown_provider(tmp_path):
    with pytest.raises(providers.UnknownProvider, match="CHECKOUT_ACQUIRER"):
        create_app({"ACQUIRER": "nope", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "SECRET_KEY": "k"})
