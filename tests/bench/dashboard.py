"""Dashboard pages on the large dataset: each list and detail page timed one request at a time, signed in."""

from __future__ import annotations

import re
import statistics
import time
from html import unescape

import requests

from . import servers
from .datasets import Sample

EMAIL, PASSWORD = "bench@shop.example", "bench-password-0123"
TIMES = 30  # requests per page, one at a time: the figure is how long one person waits, not throughput
WARM = 3


def sign_in(base: str, database: servers.Database, app_id: str) -> requests.Session:
    """A dashboard user of the benchmark merchant, made by the CLI as an operator would, then logged in."""
    servers.cli(database.env(), "users", "create", "--app-id", app_id, "--email", EMAIL, "--password", PASSWORD)
    browser = requests.Session()
    form = browser.get(f"{base}/dashboard/login", timeout=30).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    if token is None:
        raise RuntimeError("the login page has no CSRF token")
    answer = browser.post(
        f"{base}/dashboard/login",
        data={"csrf_token": token.group(1), "email": EMAIL, "password": PASSWORD},
        allow_redirects=False,
        timeout=30,
    )
    if answer.status_code != 302:
        raise RuntimeError(f"dashboard login answered {answer.status_code}")
    return browser


def _older(html: str) -> str:
    """The list's next-page link (keyset cursor), as the page itself offers it."""
    found = re.search(r'href="(/dashboard/payments\?[^"]*after=[^"]+)"', html)
    if found is None:
        raise RuntimeError("the payments list offers no older page")
    return unescape(found.group(1))


def pages_of(browser: requests.Session, base: str, sample: Sample) -> dict[str, str]:
    """What a merchant opens, by name: the lists (first page, a filter, a search, the next page) and details."""
    first = browser.get(f"{base}/dashboard/payments", timeout=60).text
    trade_no, transaction_id = sample.trade_nos[len(sample.trade_nos) // 2], sample.transaction_ids[0]
    return {
        "overview": "/dashboard",
        "payments": "/dashboard/payments",
        "payments, next page": _older(first),
        "payments by status": "/dashboard/payments?status=SUCCESS",
        "payments, search": f"/dashboard/payments?q={trade_no}",
        # A filter that matches none of the million: without its own index it walks them all.
        "payments by a method none used": "/dashboard/payments?method=OXXO",
        "payment detail": f"/dashboard/payments/{trade_no}",
        "payouts": "/dashboard/payouts",
        "payout detail": f"/dashboard/payouts/{transaction_id}",
        "payouts by a status none has": "/dashboard/payouts?status=REFUNDED",
        "vaults": "/dashboard/vaults",
    }


def measure(base: str, database: servers.Database, app_id: str, sample: Sample) -> dict:
    """Median and 95th percentile milliseconds of each page, and the slowest page's p95."""
    browser = sign_in(base, database, app_id)
    results: dict[str, dict] = {}
    for name, path in pages_of(browser, base, sample).items():
        timings = []
        for number in range(WARM + TIMES):
            started = time.perf_counter()
            answer = browser.get(base + path, timeout=60)
            elapsed = (time.perf_counter() - started) * 1000
            if answer.status_code != 200:
                raise RuntimeError(f"{name} ({path}) answered {answer.status_code}")
            if number >= WARM:
                timings.append(elapsed)
        timings.sort()
        results[name] = {
            "path": path,
            "median_ms": round(statistics.median(timings), 1),
            "p95_ms": round(timings[int(0.95 * (len(timings) - 1))], 1),
            "bytes": len(answer.content),
        }
    worst = max(results, key=lambda name: results[name]["p95_ms"])
    return {"pages": results, "worst": worst, "worst_p95_ms": results[worst]["p95_ms"]}
