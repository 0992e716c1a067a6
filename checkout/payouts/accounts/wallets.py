"""The wallets reached from anywhere: PayPal, Skrill and this service's own (GLOBAL), and the Pagsmile wallet."""

from __future__ import annotations

import uuid

from ...errors import InvalidField
from .common import Beneficiary, email, one_of, required


def wallet(req) -> Beneficiary:
    """The wallet's channel is checked against the corridors (corridors.beneficiary) before this runs."""
    account = required(req.account, "account")
    if req.channel == "PAYPAL":
        # The PayPal page: account_type "Fixed: EMAIL", the PayPal account's e-mail.
        if req.account_type not in (None, "EMAIL"):
            raise InvalidField("account_type", "must be EMAIL for PayPal")
        email(account, "account", "the PayPal account's e-mail")
    return Beneficiary(account=account, account_type="WALLET")


def pagsmile(req) -> Beneficiary:
    """The Pagsmile wallet: its account is a UUID (32 hex digits, hyphens optional), account_type UUID."""
    one_of(req.account_type, "account_type", ("UUID",))
    account = required(req.account, "account")
    try:
        parsed = uuid.UUID(account)
    except ValueError:
        raise InvalidField("account", "must be a Pagsmile wallet account: a UUID") from None
    if account.lower() not in (str(parsed), parsed.hex):
        raise InvalidField("account", "must be a Pagsmile wallet account: a UUID")
    return Beneficiary(account=account.lower(), account_type="UUID")
