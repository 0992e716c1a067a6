"""Merchant accounts: credentials, allowed return hosts and frame origins, logos."""
