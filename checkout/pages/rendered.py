"""Pages rendered once and served again while nothing they show has changed: the payout form, unfilled.

A page's HTML is the same from one request to the next but for two things: the nonce its script carries
(new each response, as the CSP asks) and the "now" its countdown starts from. Rendering it (Jinja, the form's
fields, the quotes, the money formats) was most of a page request's time; a cached copy, rendered with
markers in those two places and filled in per response, costs a dictionary lookup and two replacements.

What a copy is keyed by must name everything else the page shows: the caller says (the session's row,
the merchant's settings shown, the page's token, layout and language). Copies are kept per app (`payout_forms(app)`,
made with the app by `init_app`), at most SIZE of them and SECONDS each, so that nothing outside the key (a translation file, a rate set
from the command line) is served stale for longer than that.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask

SIZE = 512  # about 15 KB each
SECONDS = 60.0

# Markers no page can contain otherwise (random per process).
NONCE = f"nonce{secrets.token_hex(12)}"
NOW = f"now{secrets.token_hex(12)}"


class Pages:
    def __init__(self, size: int = SIZE, seconds: float = SECONDS):
        self.size, self.seconds = size, seconds
        self._copies: OrderedDict[Hashable, tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, key: Hashable, *, nonce: str, now: int) -> str | None:
        """The kept copy for `key` filled in for this response, or None."""
        moment = time.monotonic()
        with self._lock:
            found = self._copies.get(key)
            if found is None or moment - found[0] >= self.seconds:
                return None
            self._copies.move_to_end(key)
        return _filled(found[1], nonce, now)

    def get(self, key: Hashable, render: Callable[[], str], *, nonce: str, now: int) -> str:
        """The page for `key`, rendered by `render` (with NONCE and NOW where the nonce and the time go)
        unless a copy is kept, and filled in for this response."""
        kept = self.find(key, nonce=nonce, now=now)
        if kept is not None:
            return kept
        moment = time.monotonic()
        body = render()
        with self._lock:
            self._copies[key] = (moment, body)
            self._copies.move_to_end(key)
            while len(self._copies) > self.size:
                self._copies.popitem(last=False)
        return _filled(body, nonce, now)

    def clear(self) -> None:
        with self._lock:
            self._copies.clear()


def _filled(body: str, nonce: str, now: int) -> str:
    # The time goes into the page's JSON as a number: its marker was rendered as a JSON string.
    return body.replace(NONCE, nonce).replace(f'"{NOW}"', str(now))


KEY = "checkout.rendered_payout_forms"


def init_app(app: Flask) -> None:
    """The app's copies of the unfilled payout form."""
    app.extensions[KEY] = Pages()


def payout_forms(app: Flask) -> Pages:
    return app.extensions[KEY]
