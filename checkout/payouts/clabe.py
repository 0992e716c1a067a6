"""CLABE for payouts: the codec lives in checkout.mexico.clabe (payins answer CLABEs too)."""

from __future__ import annotations

from ..mexico.clabe import BANKS, WEIGHTS, check_digit, validate

__all__ = ["BANKS", "WEIGHTS", "check_digit", "validate"]
