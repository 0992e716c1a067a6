"""An optional peer: localstripe, a Stripe sandbox in Python that keeps its state in memory, measured on this
machine with the same wrk settings as the service (its create and retrieve of a PaymentIntent beside our
/trade/pay and /trade/query). Installed only with the `peer` extra; without it the run says so and goes on.

`python3 -m tests.bench.peer PORT` serves localstripe's own aiohttp app as its CLI (`localstripe --port N
--from-scratch`) does, except that it listens on 127.0.0.1 only (the CLI binds every interface) and writes no
access-log line per request (our servers log warnings only). localstripe itself still rewrites a pickle of
its whole store to /tmp/localstripe.pickle after each write: that is how it ships, and it is measured so.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from pathlib import Path

import requests

from .load import Request
from .servers import Server, serve

NOT_INSTALLED = "peer not installed"
API_KEY = "sk_test_checkoutbench0000000000"
CREATE_BODY = "amount=2000&currency=brl&payment_method_types[]=card"
READY_PATH = "/js.stripe.com/v3/"  # a plain GET that answers 200 once its app serves
INTENTS = 200  # created beforehand for the retrieve plan, round robin like our query's sample


def installed() -> bool:
    return importlib.util.find_spec("localstripe") is not None and importlib.util.find_spec("aiohttp") is not None


def version() -> str | None:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as of

    try:
        return of("localstripe")
    except PackageNotFoundError:
        return None


def headers(form: bool = False) -> dict[str, str]:
    out = {"Authorization": f"Bearer {API_KEY}"}
    if form:
        out["Content-Type"] = "application/x-www-form-urlencoded"
    return out


def create_request() -> Request:
    return Request("POST", "/v1/payment_intents", headers(form=True), CREATE_BODY)


def retrieve_request(intent_id: str) -> Request:
    return Request("GET", f"/v1/payment_intents/{intent_id}", headers())


def create_intents(url: str, count: int = INTENTS) -> list[str]:
    """PaymentIntents made beforehand for the retrieve plan (each checked: 200 and an id)."""
    ids = []
    with requests.Session() as session:
        for _ in range(count):
            answer = session.post(url + "/v1/payment_intents", data=CREATE_BODY, headers=headers(form=True), timeout=10)
            answer.raise_for_status()
            ids.append(answer.json()["id"])
    return ids


def localstripe(log: Path) -> contextlib.AbstractContextManager[Server]:
    """localstripe as its own process on a free port of 127.0.0.1 until the block ends (also on errors)."""
    return serve(lambda port: [sys.executable, "-m", "tests.bench.peer", str(port)], "localstripe", READY_PATH, log)


def _serve(port: int) -> None:
    from aiohttp import web
    from localstripe.server import app  # type: ignore[import-not-found,unused-ignore]

    # As `localstripe --from-scratch`: a fresh store, not the pickle a previous run left in /tmp.
    web.run_app(app, host="127.0.0.1", port=port, access_log=None, print=None)


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
