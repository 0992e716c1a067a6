"""Notifications: the outbox of callbacks, payout notifications and e-mails, and their delivery."""
