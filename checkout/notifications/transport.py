"""One attempt at one claimed message: its body, its signed headers and the bounded POST, or the e-mail."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import requests
import urllib3

from .. import clock, signing
from . import mail, targets
from .queries import Outgoing
from .result import Result

CONNECT_TIMEOUT, READ_TIMEOUT, TOTAL_TIMEOUT = 3.0, 5.0, 10.0
MAX_RESPONSE = 64 * 1024
USER_AGENT = "checkout-notifier/1.0"


def body_of(payload: dict) -> bytes:
    """What is sent and signed: the payload as compact JSON, in UTF-8."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def headers_for(outgoing: Outgoing) -> dict[str, str]:
    """Payout notifications carry the payout signature; payin callbacks the provider's Pagsmile-Signature."""
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": USER_AGENT,
        "X-Notify-Id": outgoing.payload.get("notify_id", ""),
    }
    # Every message has a merchant (foreign key), so the claim filled in its keys.
    if outgoing.kind == "payout.notification":
        assert outgoing.app_key is not None
        headers["Authorization"] = signing.payout_signature(outgoing.payload, outgoing.app_key)
    else:
        assert outgoing.security_key is not None
        headers["Pagsmile-Signature"] = signing.callback_signature(
            outgoing.body, outgoing.security_key, clock.unix(clock.real_now())
        )
    return headers


def send(outgoing: Outgoing, config: Mapping[str, Any]) -> Result:
    """Send one message by its transport, timed on its merchant's clock (this runs on a sending thread)."""
    with clock.merchant(outgoing.merchant_id):
        started_at = clock.now()
    if outgoing.app_key is None:
        result = Result(succeeded=False, error="the merchant no longer exists", final=True)
    elif outgoing.kind.endswith(".email"):
        result = mail.send(outgoing, config)
    else:
        allowed = targets.private_allowed(config)
        result = post(outgoing.target, outgoing.body, headers_for(outgoing), allow_private=allowed)
    result.started_at = started_at
    return result


def post(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool) -> Result:
    """One POST with bounded connect, read and total time and a bounded response read."""
    started = time.monotonic()

    def result(**fields) -> Result:
        return Result(duration_ms=int((time.monotonic() - started) * 1000), **fields)

    try:
        with _sent(url, body, headers, allow_private=allow_private) as response:
            received = bytearray()
            while len(received) < MAX_RESPONSE:
                # read1: what one receive brings, so that a receiver trickling its answer meets the limit.
                chunk = response.raw.read1(4096, decode_content=True)
                if not chunk:
                    break
                received += chunk
                if time.monotonic() - started > TOTAL_TIMEOUT:
                    return result(succeeded=False, status_code=response.status_code, error="timed out")
            text = bytes(received[:MAX_RESPONSE]).decode("utf-8", "replace")
            ok = response.status_code == 200 and text.strip() == "success"
            error = None if ok else f"answered {response.status_code} without the body 'success'"
            return result(succeeded=ok, status_code=response.status_code, response=text[:255], error=error)
    except targets.BlockedAddress as exc:
        return result(succeeded=False, error=str(exc)[:255], final=True)
    except requests.Timeout:
        return result(succeeded=False, error="timed out")
    except requests.ConnectionError as exc:
        return result(succeeded=False, error=f"connection failed: {exc}"[:255])
    except urllib3.exceptions.ReadTimeoutError:  # from read1(): the answer stalled mid-body
        return result(succeeded=False, error="timed out")
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError, ValueError) as exc:
        return result(succeeded=False, error=f"{type(exc).__name__}: {exc}"[:255])


def _sent(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool) -> requests.Response:
    """The POST's response, sent once more at once on a new connection when the receiver closed the
    connection without a word of answer.

    That is how a server's keep-alive timeout meets a kept-alive connection we take up again at that moment
    (a worker delivering in bursts leaves its connections idle in between): the receiver closed it as the
    request left, unread, and the attempt would otherwise wait for its retry, minutes later. A receiver that
    does read it and then closes gets it twice, which notifications allow (each is resent until
    acknowledged); one closing every connection costs a second connection per attempt, no more."""
    options = {"timeout": (CONNECT_TIMEOUT, READ_TIMEOUT), "allow_redirects": False, "stream": True}
    try:
        return targets.send(url, body, headers, allow_private=allow_private, **options)
    except requests.ConnectionError as exc:
        if not _closed_unanswered(exc):
            raise
    return targets.send(url, body, headers, allow_private=allow_private, **options)


def _closed_unanswered(exc: requests.ConnectionError) -> bool:
    """urllib3's ProtocolError("Connection aborted.", <why>), the why a reset or a close before any answer
    (http.client.RemoteDisconnected is a ConnectionResetError), never a refused or timed-out connect."""
    aborted = exc.args[0] if exc.args else None
    why = aborted.args[1] if isinstance(aborted, urllib3.exceptions.ProtocolError) and len(aborted.args) > 1 else None
    return isinstance(why, ConnectionResetError | BrokenPipeError)
