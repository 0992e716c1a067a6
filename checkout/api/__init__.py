"""One operation layer for both APIs: envelopes, the error registry, error handlers and the OpenAPI document."""
