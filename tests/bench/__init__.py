"""Benchmark harness (`python3 -m tests.bench`): the service under `checkout serve`, measured against a bare Flask route."""
