"""A merchant's callback receiver: POST /notify, answered `success` only when the Pagsmile-Signature holds.

Only the standard library. Set SECURITY_KEY (from `checkout merchants create`) and run it; `--port` (default
3000). Each callback whose signature holds is printed as one line; any other is answered 401 and printed as
refused. `shop.py` uses the same check.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def callback_is_genuine(raw_body: bytes, header: str, security_key: str) -> bool:
    """Pagsmile-Signature: t=<unix>,v2=<HMAC-SHA256 of the raw body, keyed with the security key>."""
    parts = dict(item.strip().split("=", 1) for item in header.split(",") if "=" in item)
    expected = hmac.new(security_key.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts.get("v2", ""))


def say(line: str) -> None:
    print(line, flush=True)  # noqa: T201 (what the receiver got, one line each, on its standard output)


class Receiver(BaseHTTPRequestHandler):
    """POST /notify: a payin callback; `on_callback` gets each genuine one (its JSON body)."""

    security_key = ""
    on_callback = staticmethod(lambda callback: say(describe(callback)))

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        header = self.headers.get("Pagsmile-Signature", "")
        genuine = self.path == "/notify" and callback_is_genuine(raw, header, self.security_key)
        self.send_response(200 if genuine else 401)
        self.end_headers()
        self.wfile.write(b"success" if genuine else b"bad signature")
        if genuine:
            self.on_callback(json.loads(raw))
        else:
            say(f"refused a callback to {self.path}: its signature does not hold")

    def log_message(self, format: str, *args) -> None:  # quiet: say() prints what matters
        pass


def describe(callback: dict) -> str:
    return (
        f"verified callback: {callback.get('out_trade_no')} {callback.get('trade_status')} "
        f"{callback.get('amount')} {callback.get('currency')}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=3000)
    port = parser.parse_args().port
    Receiver.security_key = os.environ.get("SECURITY_KEY", "")
    if not Receiver.security_key:
        sys.exit("set SECURITY_KEY (from `checkout merchants create`)")
    server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)
    say(f"listening on http://localhost:{port}/notify (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
