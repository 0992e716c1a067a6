"""Payout platform: quotes, payouts, balances and their ledger."""
