"""pyinstrument profiles of an endpoint whose figure failed, taken in-process on the run's database."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask

from .load import Request

SECONDS = 3.0


def profile(app: Flask, next_request: Callable[[int], Request], out: Path, seconds: float = SECONDS) -> dict:
    """Send next_request(n) for n = 0, 1, ... through the Flask test client for `seconds` under pyinstrument (no
    gunicorn, one thread: where the time of one request goes); writes HTML and text next to the results."""
    from pyinstrument import Profiler

    client = app.test_client()
    statuses: dict[int, int] = {}
    profiler = Profiler(interval=0.0005)
    count = 0
    started = time.monotonic()
    profiler.start()
    try:
        while time.monotonic() - started < seconds:
            request = next_request(count)
            answer = client.open(
                request.path,
                method=request.method,
                headers=request.headers,
                data=request.body.encode() if request.body is not None else None,
            )
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            count += 1
    finally:
        profiler.stop()
    out.parent.mkdir(parents=True, exist_ok=True)
    html, txt = out.with_suffix(".html"), out.with_suffix(".txt")
    html.write_text(profiler.output_html(), encoding="utf-8")
    txt.write_text(profiler.output_text(unicode=True, color=False, show_all=False), encoding="utf-8")
    return {
        "requests": count,
        "per_request_ms": round(1000 * (time.monotonic() - started) / max(count, 1), 2),
        "statuses": statuses,
        "html": str(html),
        "text": str(txt),
    }
