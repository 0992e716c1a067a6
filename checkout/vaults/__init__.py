"""Vaults: stored credentials (cards on file, PIX Automático authorizations) and their lifecycle."""
