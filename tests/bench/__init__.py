"""Benchmark harness (`python3 -m tests.bench`): the service under gunicorn, measured against a bare Flask route."""
