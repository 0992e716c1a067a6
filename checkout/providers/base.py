"""The provider interfaces: an Acquirer answers for cards and PIX Automático, a PayoutBank carries payouts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ..cards.models import CardToken

APPROVED, REFUSED = "APPROVED", "REFUSED"
# Why an issuer refused a card, as a code the pages turn into the customer's words (Stripe's decline codes).
CARD_DECLINED, INSUFFICIENT_FUNDS = "card_declined", "insufficient_funds"
EXPIRED_CARD, INCORRECT_CVC = "expired_card", "incorrect_cvc"
# Payout statuses a bank reports; the same names as the payout lifecycle's.
PROCESSING, PAID, REJECTED = "PROCESSING", "PAID", "REJECTED"


@dataclass(frozen=True)
class Decision:
    """An acquirer's answer: APPROVED or REFUSED, and why (None when there is nothing to say); a refused
    card also says why as a `code` (CARD_DECLINED, ...)."""

    status: str
    reason: str | None = None
    code: str | None = None

    @property
    def approved(self) -> bool:
        return self.status == APPROVED


@dataclass(frozen=True)
class Authorization:
    """An authorized amount the acquirer holds on a card, in minor units of its currency."""

    card: CardToken
    amount_minor: int
    currency: str
    captured_minor: int = 0


class Acquirer(Protocol):
    def outcome_for(self, card_no: str, holder_name: str = "") -> str:
        """What the acquirer notes about a card at tokenization: kept on the card token (its sandbox_outcome
        column), since the number is not, and read back only by the acquirer from the token it is given."""
        ...

    def published_expiry(self, card_no: str) -> tuple[int, int] | None:
        """(year, month) at which a published test card is taken even though that date has passed."""
        ...

    def authorize(self, card: CardToken, amount_minor: int, currency: str) -> Decision:
        """A pre-authorization or a direct card payment."""
        ...

    def capture(self, authorization: Authorization, amount_minor: int) -> Decision:
        """Take `amount_minor` of an authorization (`/trade/capture`)."""
        ...

    def void(self, authorization: Authorization) -> Decision:
        """Release what is left of an authorization (`/trade/void`, or never captured in time)."""
        ...

    def debit_card_vault(self, card: CardToken, amount_minor: int, currency: str) -> Decision:
        """A debit of a card kept in a vault, without the customer present."""
        ...

    def debit_pix_automatic(self, amount_minor: int, plan_max_minor: int) -> Decision:
        """A PIX Automático debit on its scheduled date, under the authorized plan's maximum (BRL)."""
        ...


@dataclass(frozen=True)
class PayoutOrder:
    """What a bank is told of a payout when it is submitted."""

    country: str
    method: str
    channel: str | None
    account: str | None
    email: str | None
    arrival_currency: str
    arrival_minor: int


@dataclass(frozen=True)
class Submission:
    """The bank's receipt: where it will take the payout (PAID or REJECTED), when it moves next, and what
    the beneficiary needs to collect the money (a PIN, a voucher: the payout's `extra`). The payout keeps
    `outcome` (its sandbox_outcome column) only to hand it back to the bank's `advance`: the services
    record the bank's answer and never decide on it."""

    outcome: str
    next_step_at: datetime
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One step of a payout at the bank: its new status, the remark to show, when it moves next."""

    status: str
    remark: str | None = None
    next_step_at: datetime | None = None
    bank_reference: str | None = None


class PayoutBank(Protocol):
    def submit(self, order: PayoutOrder, now: datetime) -> Submission:
        """Accept a payout (already validated, priced and debited)."""
        ...

    def advance(
        self, status: str, outcome: str, next_step_at: datetime, bank_number: str | None, now: datetime
    ) -> Step | None:
        """The payout's next step, now that it is due; None when the bank has nothing more to do."""
        ...

    def refund(self, arrival_minor: int) -> str:
        """The recipient's bank sends `arrival_minor` back; answers the bank's reference of the refund."""
        ...
