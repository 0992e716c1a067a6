"""Payin gateway: trades (pre-authorization, pay with vault, direct payment), refunds, card tokens."""
