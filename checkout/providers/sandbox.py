"""The sandbox providers: an issuer with fixed test cards and a bank that decides on the sandbox clock."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .. import clock, money
from ..cards.models import CardToken
from .base import (
    APPROVED,
    CARD_DECLINED,
    EXPIRED_CARD,
    INCORRECT_CVC,
    PAID,
    PROCESSING,
    REFUSED,
    REJECTED,
    Authorization,
    Decision,
    PayoutOrder,
    Step,
    Submission,
)

APPROVE, DECLINE, INSUFFICIENT_FUNDS = "approve", "decline", "insufficient_funds"
EXPIRED, WRONG_CVC = "expired_card", "incorrect_cvc"

# The sandbox issuer's fixed answers; any other valid card approves. The provider's published test
# cards (its "data for test" page) all approve, and win where one of ours had the same number.
TEST_CARDS = {
    "4111111111111111": APPROVE,
    "4000000000000119": DECLINE,
    "4000000000009995": INSUFFICIENT_FUNDS,
    "5105105105105100": DECLINE,
    # The issuer's own refusals of a card whose date and code look right (Stripe's test numbers for them).
    "4000000000000069": EXPIRED,
    "4000000000000127": WRONG_CVC,
}
# The provider's cards with the expiry it publishes: some of those dates have passed, and the sandbox
# still takes these cards at exactly those dates, as the provider's page tells merchants to send them.
PUBLISHED_CARDS: dict[str, tuple[int, int] | None] = {
    "4000000000000002": None,  # "current year", month 12: an ordinary future date
    "5555555555554444": None,
    "4242424242424242": (2025, 2),
    "4075595716483764": None,
    "5474925432670366": None,
    "5413330089020011": (2025, 12),
    "4005520000000129": (2027, 12),
    "4012001037141112": (2027, 12),
    "5455460920094260": (2023, 4),
}
# The cardholder's name decides, before the number (the provider's test cards are held by "APRO"; the
# other two follow the same acquirer convention).
HOLDER_OUTCOMES = {"APRO": APPROVE, "OTHE": DECLINE, "FUND": INSUFFICIENT_FUNDS, "EXPI": EXPIRED, "SECU": WRONG_CVC}

REFUSAL_REASONS = {
    DECLINE: "card declined by the issuer",
    INSUFFICIENT_FUNDS: "insufficient funds",
    EXPIRED: "expired card",
    WRONG_CVC: "incorrect security code",
}
# The code each refusal is reported with (providers.base).
REFUSAL_CODES = {
    DECLINE: CARD_DECLINED,
    INSUFFICIENT_FUNDS: INSUFFICIENT_FUNDS,
    EXPIRED: EXPIRED_CARD,
    WRONG_CVC: INCORRECT_CVC,
}

# A payout to this account or e-mail is rejected by the sandbox bank; any other is paid.
REJECTED_IN_SANDBOX = "rejected@sandbox.test"
# The provider's sandbox accounts that are rejected (its "data for test" page and the submit pages' sandbox
# notes), by country and method; they win over ours where the two meet.
PROVIDER_REJECTED = {
    ("BRA", "PIX"): {"pagsmile_test_reject@pagsmile.com"},
    ("BRA", "BANKTRANSFER"): {"11111111"},
    ("MEX", "SPEI"): {"138580000007439590", "014027000005555558"},
    ("CHL", "BANKTRANSFER"): {"111111111111"},
    ("CHL", "WALLET"): {"rejected@pagsmile.com"},
    ("COL", "BANKTRANSFER"): {"111111111111"},
    ("COL", "TRANSFIYA"): {"571111111111"},
    ("COL", "WALLET"): {"+57311111111", "57311111111"},
    ("ECU", "BANKTRANSFER"): {"1111111111"},
    ("PER", "BANKTRANSFER"): {"1111111111111"},
    ("RUS", "WALLET"): {"79991112244"},
}
# The PayPal page: "paid@pagsmile.com ... for testing success payout, any other PayPal account will be failed".
PAYPAL_PAID = "paid@pagsmile.com"
IN_PROCESSING = "IN_PROCESSING"


class SandboxAcquirer:
    """The sandbox issuer. A card's answer is noted on its token at tokenization (the card number is not
    kept), which is why card_tokens keeps its sandbox_outcome column: only this class writes its value
    (through outcome_for) and reads it."""

    def outcome_for(self, card_no: str, holder_name: str = "") -> str:
        by_holder = HOLDER_OUTCOMES.get(holder_name.strip().upper())
        return by_holder or TEST_CARDS.get(card_no, APPROVE)

    def published_expiry(self, card_no: str) -> tuple[int, int] | None:
        return PUBLISHED_CARDS.get(card_no)

    def _answer(self, card: CardToken) -> Decision:
        if card.sandbox_outcome == APPROVE:
            return Decision(APPROVED)
        return Decision(REFUSED, REFUSAL_REASONS[card.sandbox_outcome], REFUSAL_CODES[card.sandbox_outcome])

    def authorize(self, card: CardToken, amount_minor: int, currency: str) -> Decision:
        return self._answer(card)

    def capture(self, authorization: Authorization, amount_minor: int) -> Decision:
        """The sandbox takes any part still held."""
        held = authorization.amount_minor - authorization.captured_minor
        if not 0 < amount_minor <= held:
            return Decision(
                REFUSED, f"capture must be between 0.01 and {money.format_minor(held, authorization.currency)}"
            )
        return Decision(APPROVED)

    def void(self, authorization: Authorization) -> Decision:
        """The sandbox releases whatever is still held."""
        if authorization.captured_minor >= authorization.amount_minor:
            return Decision(REFUSED, "nothing left to void: the authorization is fully captured")
        return Decision(APPROVED)

    def debit_card_vault(self, card: CardToken, amount_minor: int, currency: str) -> Decision:
        return self._answer(card)

    def debit_pix_automatic(self, amount_minor: int, plan_max_minor: int) -> Decision:
        if amount_minor > plan_max_minor:
            return Decision(
                REFUSED, f"amount above the plan's maximum of {money.format_minor(plan_max_minor, 'BRL')} BRL"
            )
        return Decision(APPROVED, "debited on its scheduled date")


@dataclass(frozen=True)
class SandboxPayoutBank:
    """The sandbox bank: IN_PROCESSING -> PROCESSING after `processing_after` seconds, then PAID or REJECTED
    `decided_after` seconds later, as decided at submission; the cash methods' PIN or voucher at submission."""

    processing_after: int = 60
    decided_after: int = 300

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SandboxPayoutBank:
        return cls(int(config["PAYOUT_PROCESSING_AFTER"]), int(config["PAYOUT_DECIDED_AFTER"]))

    def submit(self, order: PayoutOrder, now: datetime) -> Submission:
        rejected = (
            REJECTED_IN_SANDBOX in (order.account, order.email)
            or order.account in PROVIDER_REJECTED.get((order.country, order.method), ())
            or (order.channel == "PAYPAL" and order.account != PAYPAL_PAID)
        )
        return Submission(
            REJECTED if rejected else PAID, now + timedelta(seconds=self.processing_after), collection(order.method)
        )

    def advance(
        self, status: str, outcome: str, next_step_at: datetime, bank_number: str | None, now: datetime
    ) -> Step | None:
        if status == IN_PROCESSING:
            return Step(PROCESSING, None, clock.as_utc(next_step_at) + timedelta(seconds=self.decided_after))
        if status == PROCESSING and outcome == PAID:
            return Step(PAID, "paid", None, bank_reference(bank_number, now))
        if status == PROCESSING:
            return Step(REJECTED, "rejected by the beneficiary's bank: account closed")
        return None

    def refund(self, arrival_minor: int) -> str:
        return "D" + f"{secrets.randbelow(10**15):015d}"


def collection(method: str) -> dict[str, Any]:
    """Method-specific data the beneficiary needs to collect the money (seed: extra)."""
    if method == "CASHOUT":
        return {"pin": f"{secrets.randbelow(10**6):06d}", "valid_days": 30}
    if method == "CASH":
        return {"upt_ref": f"UPT{secrets.randbelow(10**10):010d}"}
    if method == "CASHPICKUP":
        return {"voucher": f"V{secrets.randbelow(10**12):012d}"}
    return {}


def bank_reference(bank_number: str | None, at: datetime) -> str:
    """An end-to-end id shaped like the central bank's: E + ISPB + timestamp + 11 characters."""
    ispb = (bank_number or "18236120").rjust(8, "0")[:8]
    return f"E{ispb}{clock.as_utc(at):%Y%m%d%H%M}{secrets.token_hex(6)[:11].upper()}"
