"""A minimal merchant integration: a Pix payment, its signed callback received and verified, a signed payout.

Only `requests` and the standard library. Set CHECKOUT_URL (default http://127.0.0.1:8000), APP_ID,
SECURITY_KEY and APP_KEY (from `checkout merchants create`), and SHOP_PORT for the callback server
(default 3000). The payout spends the merchant's USD balance: `checkout merchants fund` it first.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
import time
from http.server import ThreadingHTTPServer

import requests
from receiver import Receiver  # beside this file: the callback receiver, its signature check

CHECKOUT_URL = os.environ.get("CHECKOUT_URL", "http://127.0.0.1:8000").rstrip("/")
APP_ID, SECURITY_KEY, APP_KEY = (os.environ.get(name, "") for name in ("APP_ID", "SECURITY_KEY", "APP_KEY"))
SHOP_PORT = int(os.environ.get("SHOP_PORT", "3000"))

callbacks: queue.Queue[dict] = queue.Queue()


def payout_signature(body: dict) -> str:
    """The payout platform's signature: non-empty top-level keys sorted, `k=v` joined by `&`, the app key
    appended, SHA-256 in lowercase hex."""

    def text(value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return value
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    pairs = sorted((key, text(value)) for key, value in body.items() if value is not None and value != "")
    joined = "&".join(f"{key}={value}" for key, value in pairs) + APP_KEY
    return hashlib.sha256(joined.encode()).hexdigest()


def say(line: str) -> None:
    print(line, flush=True)  # noqa: T201 (what the script does, step by step, on its standard output)


def payin(path: str, body: dict) -> dict:
    answer = requests.post(CHECKOUT_URL + path, json=body, auth=(APP_ID, SECURITY_KEY), timeout=30).json()
    if answer.get("code") != "10000":
        sys.exit(f"{path} refused: {answer}")
    return answer


def payout(path: str, body: dict) -> dict:
    raw = json.dumps(body)
    headers = {"Content-Type": "application/json", "AppId": APP_ID, "Authorization": payout_signature(body)}
    answer = requests.post(CHECKOUT_URL + path, data=raw, headers=headers, timeout=30).json()
    if answer.get("code") != 200:
        sys.exit(f"{path} refused: {answer}")
    return answer["data"]


def main() -> None:
    if not (APP_ID and SECURITY_KEY and APP_KEY):
        sys.exit("set APP_ID, SECURITY_KEY and APP_KEY (from `checkout merchants create`)")
    Receiver.security_key = SECURITY_KEY
    Receiver.on_callback = staticmethod(callbacks.put)
    server = ThreadingHTTPServer(("127.0.0.1", SHOP_PORT), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    order = f"order-{int(time.time() * 1000)}"
    trade = payin(
        "/trade/pay",
        {
            "app_id": APP_ID,
            "timestamp": time.strftime("%Y-%m-%d %H:%M:%S"),
            "out_trade_no": order,
            "method": "PIX",
            "order_currency": "BRL",
            "order_amount": "100.50",
            "subject": "Order 1",
            "notify_url": f"http://127.0.0.1:{SHOP_PORT}/notify",
            "buyer_id": "buyer-1",
            "customer": {
                "name": "Ana Souza",
                "email": "ana@example.com",
                "phone": "+5511987654321",
                "identify": {"type": "CPF", "number": "39053344705"},
            },
            "address": {
                "zip_code": "01310100",
                "state": "SP",
                "city": "São Paulo",
                "street_number": "1000",
                "street": "Avenida Paulista",
            },
        },
    )
    say(f"payment {trade['trade_no']}: {trade['trade_status']}")
    payin(f"/sandbox/trades/{trade['trade_no']}/pay", {})  # the customer pays (sandbox only)
    callback = callbacks.get(timeout=60)
    say(
        f"verified callback: {callback['out_trade_no']} {callback['trade_status']} {callback['amount']} {callback['currency']}"
    )

    sent = payout(
        "/api/payout",
        {
            "name": "Ana Souza",
            "email": "ana@example.com",
            "account": "39053344705",
            "account_type": "CPF",
            "document_id": "39053344705",
            "document_type": "CPF",
            "method": "PIX",
            "custom_code": f"payout-{order}",
            "fee_bear": "merchant",
            "amount": "100.00",
            "source_currency": "USD",
            "arrival_currency": "BRL",
            "country": "BRA",
            "timestamp": int(time.time()),
        },
    )
    say(
        f"payout {sent['transaction_id']}: {sent['status']} ({sent['arrival_amount']} BRL for {sent['source_amount']} USD)"
    )
    # The sandbox bank pays it 360 s later on the merchant's sandbox clock: move the clock instead of waiting.
    payin("/sandbox/clock", {"advance_seconds": 360})
    status = payout("/api/payout/status", {"custom_code": sent["custom_code"]})
    say(f"payout {status['payout_id']}: {status['status']}")
    server.shutdown()


if __name__ == "__main__":
    main()
