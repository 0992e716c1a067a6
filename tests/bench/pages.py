"""Hosted pages: sessions opened through the API as a merchant would, and what each page weighs."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import requests

from checkout.signing import payout_signature
from tests import builders

from .signed import get, payin

# The page families, in the order the table shows them.
FAMILIES = [
    "payout checkout",
    "PIX payment",
    "Boleto payment",
    "PIX Automático authorization",
    "card consent",
    "card entry",
]
BROWSER = get("/").headers


class _Assets(HTMLParser):
    """The stylesheets and scripts a page makes the browser fetch."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and "stylesheet" in (attrs.get("rel") or "").split() and attrs.get("href"):
            self.urls.append(attrs["href"])
        elif tag == "script" and attrs.get("src"):
            self.urls.append(attrs["src"])


def _payin(base: str, credentials: dict, path: str, fields: dict) -> dict:
    request = payin(credentials, path, fields)
    answer = requests.post(base + path, data=request.body.encode(), headers=request.headers, timeout=30).json()
    if answer.get("code") != "10000":
        raise RuntimeError(f"{path} refused: {answer}")
    return answer


def _payout(base: str, credentials: dict, path: str, fields: dict) -> dict:
    headers = {"AppId": credentials["app_id"], "Authorization": payout_signature(fields, credentials["app_key"])}
    answer = requests.post(f"{base}/api{path}", json=fields, headers=headers, timeout=30).json()
    if answer.get("code") != 200:
        raise RuntimeError(f"/api{path} refused: {answer}")
    return answer["data"]


def payout_checkout(base: str, credentials: dict, notify_url: str, custom_code: str) -> str:
    """A hosted payout page's link, from /api/checkout."""
    return _payout(base, credentials, "/checkout", builders.checkout_session(custom_code, notify_url=notify_url))[
        "checkout_url"
    ]


def keep(url: str, file: Path) -> None:
    """The page as the service serves it, with the nonce it carries, for the page floor (bare.py)."""
    page = requests.get(url, headers=BROWSER, timeout=30)
    if page.status_code != 200:
        raise RuntimeError(f"{url} answered {page.status_code}")
    nonce = re.search(r"'nonce-([^']+)'", page.headers.get("Content-Security-Policy", ""))
    if nonce is None:
        raise RuntimeError(f"{url} has no CSP nonce")
    file.write_text(json.dumps({"html": page.text, "nonce": nonce.group(1)}), encoding="utf-8")


def openers(base: str, credentials: dict, notify_url: str) -> dict[str, Callable[[], str]]:
    """For each page family, how to get a live link to it: the operation that hands it out."""
    brazil_today = (datetime.now(UTC) - timedelta(hours=3)).date()

    def card_consent() -> str:
        card = _payin(base, credentials, "/card/token", builders.card())
        return _payin(
            base,
            credentials,
            "/vault/create",
            builders.card_vault(card["token"], card_token={"notify_url": notify_url}),
        )["checkout_url"]

    return {
        "payout checkout": lambda: payout_checkout(base, credentials, notify_url, "bench-page"),
        "PIX payment": lambda: _payin(
            base,
            credentials,
            "/trade/pay",
            builders.direct("PIX", out_trade_no="bench-page-pix", notify_url=notify_url),
        )["pay_url"],
        "Boleto payment": lambda: _payin(
            base,
            credentials,
            "/trade/pay",
            builders.direct("Boleto", out_trade_no="bench-page-boleto", notify_url=notify_url),
        )["pay_url"],
        "PIX Automático authorization": lambda: _payin(
            base, credentials, "/vault/create", builders.pix_vault(brazil_today, notify_url=notify_url)
        )["checkout_url"],
        "card consent": card_consent,
        "card entry": lambda: _payin(base, credentials, "/card/session", {})["card_url"],
    }


def weigh(url: str) -> dict:
    """Bytes of the page's HTML plus every stylesheet and script it links, uncompressed."""
    with requests.Session() as http:
        page = http.get(url, headers=BROWSER, timeout=30)
        if page.status_code != 200:
            raise RuntimeError(f"{url} answered {page.status_code}")
        parser = _Assets()
        parser.feed(page.text)
        assets = {}
        for link in dict.fromkeys(parser.urls):
            asset = http.get(urljoin(url, link), headers={**BROWSER, "Accept": "*/*"}, timeout=30)
            if asset.status_code != 200:
                raise RuntimeError(f"{link} (linked from {url}) answered {asset.status_code}")
            assets[urlsplit(link).path] = len(asset.content)
    return {"html": len(page.content), "assets": assets, "total": len(page.content) + sum(assets.values())}


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")
