"""`checkout listen`: a merchant's notifications, streamed from a sandbox (local or remote) and forwarded to a
receiver on the developer's own machine, each answer reported back."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from datetime import UTC, datetime

import click
import requests

FORWARD_TIMEOUT = 10.0
POLL_WAIT = 25  # seconds the service holds a poll open; the read timeout allows it and a margin
BACKOFF = (1, 2, 4, 8, 10)  # seconds between attempts to reach the service again
SNIPPET = 1024  # characters of the local answer reported back


class Lost(Exception):
    """The service could not be reached, or answered something that is no stream: try again after a pause."""


class Refused(click.ClickException):
    """The service refused the credentials or the request: trying again would not help."""


class Listener:
    """One listener: the cursor it has handled, the service's API, the forward. Nothing here keeps state across
    runs: a message is handled (forwarded and reported) before the cursor moves past it, so a restart from the
    last cursor repeats at most the batch in hand (at least once)."""

    def __init__(
        self,
        url: str,
        app_id: str,
        security_key: str,
        forward_to: str,
        *,
        after: str | None = None,
        echo: Callable[[str], None] = click.echo,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.url = url.rstrip("/")
        raw = f"{app_id}:{security_key}".encode()
        self.auth = {"Authorization": "Basic " + base64.b64encode(raw).decode()}
        self.forward_to = forward_to
        self.cursor = after
        self.echo = echo
        self.sleep = sleep
        self.wait = POLL_WAIT
        self.ready = False
        self.api = requests.Session()
        self.local = requests.Session()
        self.local.trust_env = False  # the receiver is local: never through an environment proxy

    def run(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Poll, forward and report until `stop()` (or Ctrl-C); an unreachable service is tried again after
        1, 2, 4, 8, then every 10 seconds."""
        failures = 0
        while not stop():
            try:
                self.step()
            except Lost as lost:
                pause = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                self.echo(f"! {lost}; trying again in {pause} s")
                self.sleep(pause)
                continue
            if failures:
                self.echo("✓ connected again")
            failures = 0

    def step(self) -> int:
        """One poll: every message in it forwarded and reported, then the cursor moved; answers their count."""
        started = time.monotonic()
        wait = 0 if self.cursor is None else self.wait  # the first poll only fixes where the stream starts
        params = {"wait": str(wait)} | ({} if self.cursor is None else {"after": self.cursor})
        batch = self._call("GET", "/sandbox/notifications/stream", params=params, timeout=(5, wait + 15))
        if not self.ready:  # the service answered the credentials: said once, before anything is forwarded
            self.ready = True
            self.echo(f"Ready: forwarding notifications to {self.forward_to} (Ctrl-C stops)")
        first = self.cursor is None
        for message in batch["messages"]:
            self.handle(message)
        self.cursor = batch["cursor"]
        if not first and not batch["messages"] and time.monotonic() - started < 1:
            self.sleep(1)  # the service answered at once with nothing (it was busy): no tight loop
        return len(batch["messages"])

    def handle(self, message: dict) -> None:
        """Forward one message as the service would send it, and report the local answer."""
        result = self.forward(message)
        shown = result["status_code"] if result["status_code"] is not None else result["error"]
        self.echo(f"→ {message['kind']} {message['id']} {_now()} {shown}")
        self._call("POST", f"/sandbox/notifications/stream/{message['id']}/result", json=result, timeout=(5, 30))

    def forward(self, message: dict) -> dict:
        started = time.monotonic()
        try:
            response = self.local.post(
                self.forward_to,
                data=message["body"].encode("utf-8"),
                headers=message["headers"],
                timeout=FORWARD_TIMEOUT,
                allow_redirects=False,
            )
        except requests.RequestException as exc:
            error = f"{type(exc).__name__}: {exc}"[:1024]
            return {"status_code": None, "response": None, "error": error, "duration_ms": _since(started)}
        return {
            "status_code": response.status_code,
            "response": response.text[:SNIPPET],
            "error": None,
            "duration_ms": _since(started),
        }

    def _call(self, method: str, path: str, **options) -> dict:
        try:
            response = self.api.request(method, self.url + path, headers=self.auth, **options)
        except requests.RequestException as exc:
            raise Lost(f"cannot reach {self.url}: {type(exc).__name__}") from None
        try:
            body = response.json()
        except ValueError:
            raise Lost(f"{self.url} answered HTTP {response.status_code}, not the API") from None
        if response.status_code == 200 and body.get("code") == "10000":
            return body
        if response.status_code == 400 and "sub_msg" in body:
            if body.get("sub_code") == "delivery-not-exist":
                return body  # the message is gone (the sandbox was reset): nothing to report it on
            raise Refused(f"{self.url} refused: {body['sub_msg']}")
        if response.status_code == 404:
            raise Refused(f"{self.url} has no sandbox stream (is it a sandbox, CHECKOUT_SANDBOX=on?)")
        raise Lost(f"{self.url} answered HTTP {response.status_code}")


def _since(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@click.command()
@click.option("--forward-to", required=True, help="Your receiver, e.g. http://localhost:3000/notify.")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True, help="The sandbox's base URL.")
@click.option("--app-id", envvar="CHECKOUT_APP_ID", required=True, help="Or CHECKOUT_APP_ID.")
@click.option("--security-key", envvar="CHECKOUT_SECURITY_KEY", required=True, help="Or CHECKOUT_SECURITY_KEY.")
@click.option("--after", help="Resume after this cursor (printed when the command stops); none: from now.")
def listen(forward_to, url, app_id, security_key, after):
    """Forward this merchant's notifications to a local receiver, as the service sends them (body and
    signature headers unchanged), and report each answer back to the delivery. Needs a sandbox."""
    listener = Listener(url, app_id, security_key, forward_to, after=after)
    try:
        listener.run()
    except KeyboardInterrupt:
        pass
    finally:
        if listener.cursor is not None:
            click.echo(f"Stopped. Resume with --after {listener.cursor}", err=True)
