"""Card tokens: tokenization and the tokens payins, vaults and the card-entry page use."""
