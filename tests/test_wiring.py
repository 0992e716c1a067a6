"""The app's services: built once by create_app, the same instances for every request and job of that app."""

from __future__ import annotations

from checkout import wiring
from checkout.providers.sandbox import SandboxPayoutBank


def test_the_app_builds_its_services_once(app):
    with app.app_context():
        assert wiring.acquirer() is wiring.acquirer() is wiring.of(app).acquirer
        assert wiring.payout_bank() is wiring.of(app).payout_bank
        assert wiring.payout_bank() == SandboxPayoutBank(
            processing_after=app.config["PAYOUT_PROCESSING_AFTER"], decided_after=app.config["PAYOUT_DECIDED_AFTER"]
        )
        assert wiring.tokenizer().acquirer is wiring.acquirer()
        assert wiring.tokenizer().ttl_seconds == app.config["CARD_TOKEN_TTL"]
