"""E-mails from the outbox (the refund bank-data request): SMTP when configured, else held as skipped."""

from __future__ import annotations

import smtplib
import time
from email.message import EmailMessage

from .result import Result

NOT_CONFIGURED = "no SMTP server configured (CHECKOUT_SMTP_HOST)"

SUBJECTS = {"refund-bank-data": "We need your bank details to refund your payment"}


def _text(payload: dict) -> str:
    return (
        f"Hello {payload.get('name') or ''},\n\n{payload.get('merchant')} is refunding "
        f"{payload.get('refund_amount')} {payload.get('refund_currency')} (payment {payload.get('trade_no')}).\n"
        "Please reply with the bank, agency, account number and account type the money should go to.\n"
    )


def send(outgoing, config):
    host = config.get("SMTP_HOST")
    if not host:
        return Result(succeeded=False, error=NOT_CONFIGURED, skipped=True)
    started = time.monotonic()
    mail = EmailMessage()
    mail["From"] = config.get("SMTP_FROM", "no-reply@checkout.invalid")
    mail["To"] = outgoing.target
    mail["Subject"] = SUBJECTS.get(outgoing.payload.get("template"), "A message about your payment")
    mail.set_content(_text(outgoing.payload))
    try:
        with smtplib.SMTP(host, int(config.get("SMTP_PORT", 25)), timeout=10) as smtp:
            smtp.send_message(mail)
    except (OSError, ValueError, smtplib.SMTPException) as exc:
        return Result(
            succeeded=False,
            error=f"{type(exc).__name__}: {exc}"[:255],
            duration_ms=int((time.monotonic() - started) * 1000),
        )
    return Result(succeeded=True, duration_ms=int((time.monotonic() - started) * 1000))
