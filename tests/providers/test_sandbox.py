"""The sandbox providers: test-card answers, PIX Automático rule, capture and void, the bank's steps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from checkout.providers import base, sandbox
from checkout.providers.base import Authorization, Decision, PayoutOrder

ACQUIRER = sandbox.SandboxAcquirer()
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def _card(card_no: str) -> SimpleNamespace:
    return SimpleNamespace(sandbox_outcome=ACQUIRER.outcome_for(card_no))


def test_test_cards_answer_as_listed_and_others_approve():
    assert ACQUIRER.outcome_for("4000000000000119") == "decline"
    assert ACQUIRER.outcome_for("4000000000000002") == "approve"  # the provider's Brazilian Visa
    assert ACQUIRER.outcome_for("4000000000000119", "APRO") == "approve"  # the holder's name decides first
    assert ACQUIRER.outcome_for("4111111111111111", " othe ") == "decline"
    assert ACQUIRER.outcome_for("4111111111111111", "FUND") == "insufficient_funds"
    assert ACQUIRER.outcome_for("4000000000009995") == "insufficient_funds"
    assert ACQUIRER.outcome_for("4242424242424242") == "approve"
    assert ACQUIRER.authorize(_card("4111111111111111"), 100, "BRL") == Decision("APPROVED", None)
    assert ACQUIRER.authorize(_card("5105105105105100"), 100, "BRL") == Decision(
        "REFUSED", "card declined by the issuer", base.CARD_DECLINED
    )
    assert ACQUIRER.debit_card_vault(_card("4000000000009995"), 100, "BRL") == Decision(
        "REFUSED", "insufficient funds", base.INSUFFICIENT_FUNDS
    )
    # The issuer's refusals of a card whose date and code look right: by number, or by the holder's name.
    assert ACQUIRER.authorize(_card("4000000000000069"), 100, "BRL") == Decision(
        "REFUSED", "expired card", base.EXPIRED_CARD
    )
    assert ACQUIRER.authorize(_card("4000000000000127"), 100, "BRL") == Decision(
        "REFUSED", "incorrect security code", base.INCORRECT_CVC
    )
    assert ACQUIRER.outcome_for("4111111111111111", "EXPI") == "expired_card"
    assert ACQUIRER.outcome_for("4111111111111111", "SECU") == "incorrect_cvc"


def test_pix_automatic_debits_up_to_the_plan_maximum():
    assert ACQUIRER.debit_pix_automatic(50000, 50000) == Decision("APPROVED", "debited on its scheduled date")
    assert ACQUIRER.debit_pix_automatic(50001, 50000) == Decision(
        "REFUSED", "amount above the plan's maximum of 500.00 BRL"
    )


def test_capture_takes_what_is_still_held_and_void_releases_it():
    held = Authorization(card=_card("4111111111111111"), amount_minor=10000, currency="BRL", captured_minor=4000)
    assert ACQUIRER.capture(held, 6000).approved
    assert ACQUIRER.capture(held, 6001) == Decision("REFUSED", "capture must be between 0.01 and 60.00")
    assert ACQUIRER.capture(held, 0).status == base.REFUSED
    assert ACQUIRER.void(held) == Decision("APPROVED", None)
    captured = Authorization(card=held.card, amount_minor=10000, currency="BRL", captured_minor=10000)
    assert ACQUIRER.void(captured) == Decision("REFUSED", "nothing left to void: the authorization is fully captured")


def _order(account: str | None = "ana@example.com", email: str | None = None) -> PayoutOrder:
    return PayoutOrder("BRA", "PIX", None, account, email, "BRL", 10000)


def test_bank_decides_at_submission_and_steps_on_its_clock():
    bank = sandbox.SandboxPayoutBank(processing_after=60, decided_after=300)
    paid = bank.submit(_order(), NOW)
    assert (paid.outcome, paid.next_step_at) == ("PAID", NOW + timedelta(seconds=60))
    assert bank.submit(_order(email="rejected@sandbox.test"), NOW).outcome == "REJECTED"
    assert bank.submit(_order(account="rejected@sandbox.test"), NOW).outcome == "REJECTED"

    first = bank.advance("IN_PROCESSING", "PAID", paid.next_step_at, None, NOW)
    assert first == base.Step("PROCESSING", None, NOW + timedelta(seconds=360))
    second = bank.advance("PROCESSING", "PAID", first.next_step_at, "60701190", NOW)
    assert (second.status, second.remark, second.next_step_at) == ("PAID", "paid", None)
    assert second.bank_reference.startswith("E60701190202503011200") and len(second.bank_reference) == 32
    assert bank.advance("PROCESSING", "REJECTED", first.next_step_at, None, NOW) == base.Step(
        "REJECTED", "rejected by the beneficiary's bank: account closed"
    )
    assert bank.advance("PAID", "PAID", None, None, NOW) is None


def test_bank_gives_what_the_beneficiary_collects_the_money_with():
    bank = sandbox.SandboxPayoutBank()
    assert bank.submit(_order(), NOW).extra == {}
    cash = bank.submit(PayoutOrder("MEX", "CASHOUT", None, None, None, "MXN", 10000), NOW).extra
    assert set(cash) == {"pin", "valid_days"} and len(cash["pin"]) == 6 and cash["valid_days"] == 30
    assert bank.submit(PayoutOrder("COL", "CASH", None, None, None, "COP", 10000), NOW).extra["upt_ref"][:3] == "UPT"
    assert len(bank.submit(PayoutOrder("PER", "CASHPICKUP", None, None, None, "PEN", 100), NOW).extra["voucher"]) == 13


def test_bank_refund_reference():
    reference = sandbox.SandboxPayoutBank().refund(100)
    assert reference.startswith("D") and len(reference) == 16 and reference[1:].isdigit()
