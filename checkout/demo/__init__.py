"""A merchant demo (sandbox only): a small shop that uses the service strictly through its public HTTP API."""
