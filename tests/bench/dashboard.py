"""Dashboard pages on the large dataset: each list and detail page timed one request at a time, signed in."""

from __future__ import annotations

import re
import statistics
import time
from html import unescape

import requests

from . import servers
from .datasets import Sample, Seeder

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
        **searches(sample),
        # A filter that matches none of the million: without its own index it walks them all.
        "payments by a method none used": "/dashboard/payments?method=OXXO",
        "payment detail": f"/dashboard/payments/{trade_no}",
        "payouts": "/dashboard/payouts",
        "payout detail": f"/dashboard/payouts/{transaction_id}",
        "payouts by a status none has": "/dashboard/payouts?status=REFUNDED",
        "vaults": "/dashboard/vaults",
    }


def _pt_br(minor: int) -> str:
    """An amount as a Brazilian user types it: 1.234,56."""
    whole, cents = divmod(minor, 100)
    return f"{whole:,}".replace(",", ".") + f",{cents:02d}"


def searches(sample: Sample) -> dict[str, str]:
    """The searches of issue 33 on one trade of the sample (its number n is the trade_no's last ten digits),
    and the exports, each with a search (the download is timed whole) or none (timed to its first 1,000 rows)."""
    trade_no, transaction_id = sample.trade_nos[0], sample.transaction_ids[0]
    n = int(trade_no[-10:])
    amount = _pt_br(Seeder.amount_minor(n)).replace(".", "%2E").replace(",", "%2C")
    return {
        "payments by customer e-mail": f"/dashboard/payments?email={Seeder.customer_email(n)}",
        "payments by customer document": f"/dashboard/payments?document={Seeder.customer_document(n)}",
        "payments by amount (pt-BR)": f"/dashboard/payments?language=pt-BR&amount={amount}",
        "payments by a trade_no prefix": f"/dashboard/payments?q={trade_no[:-3]}",
        "payments by an out_trade_no prefix": f"/dashboard/payments?q=order-{n:09d}"[:-2],
        "payments by a prefix none has": "/dashboard/payments?q=zz",
        "payments by e-mail and status": f"/dashboard/payments?email={Seeder.customer_email(n)}&status=SUCCESS",
        "payouts by payee": "/dashboard/payouts?payee=ana",
        "payouts by amount": "/dashboard/payouts?amount=100.00",
        "payouts by an id prefix": f"/dashboard/payouts?q={transaction_id[:-3]}",
        "payments export, by e-mail": f"/dashboard/payments/export?email={Seeder.customer_email(n)}",
        "payouts export, by id prefix": f"/dashboard/payouts/export?q={transaction_id[:-3]}",
    }


EXPORT_FIRST_ROWS = 1000


def _first_rows(browser: requests.Session, url: str) -> int:
    """Reads a whole-list export up to its first EXPORT_FIRST_ROWS lines and lets go: what a streamed download
    costs before the browser shows progress; the rest arrives at the same pace, a batch at a time."""
    lines = 0
    with browser.get(url, timeout=60, stream=True) as answer:
        if answer.status_code != 200:
            raise RuntimeError(f"{url} answered {answer.status_code}")
        for chunk in answer.iter_content(chunk_size=None):
            lines += chunk.count(b"\n")
            if lines > EXPORT_FIRST_ROWS:
                break
    return lines


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
    for name, path in (
        ("payments export, first 1,000 rows", "/dashboard/payments/export"),
        ("payouts export, first 1,000 rows", "/dashboard/payouts/export"),
    ):
        timings = []
        for number in range(WARM + TIMES):
            started = time.perf_counter()
            _first_rows(browser, base + path)
            if number >= WARM:
                timings.append((time.perf_counter() - started) * 1000)
        timings.sort()
        results[name] = {
            "path": path,
            "median_ms": round(statistics.median(timings), 1),
            "p95_ms": round(timings[int(0.95 * (len(timings) - 1))], 1),
            "bytes": 0,
        }
    worst = max(results, key=lambda name: results[name]["p95_ms"])
    return {"pages": results, "worst": worst, "worst_p95_ms": results[worst]["p95_ms"]}
