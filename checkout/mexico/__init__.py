"""Mexican codecs shared by payins and payouts (CLABE)."""
