"""Virtual SPEI accounts: a standing CLABE per customer of a merchant, and the transfers it receives."""
