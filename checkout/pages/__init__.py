"""Hosted pages: PIX Automático authorization, card consent, card entry, payin payment, payout checkout."""
