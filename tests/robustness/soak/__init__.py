"""The soak test's parts: the live service and receiver, the merchant load, the invariant checks."""
