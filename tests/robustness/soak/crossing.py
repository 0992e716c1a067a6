"""The soak's scenarios that cross web processes: captures sent to both at once, page tokens made on one
and opened on the other."""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import urlsplit

from checkout.payins import states as trades

from ... import builders


class Crossing:
    """Scenarios of the soak's Client (load.py) that need both web processes."""

    def page(self, op: str, url: str) -> None:
        """Open a hosted page's signed URL on the other web process than the one that made it: one secret
        key, no local state, so the token must be good there too."""
        parts = urlsplit(url)
        response = self.send(op, self.http, "GET", f"{parts.path}?{parts.query}", self.other())
        self.stats.count(op, response.status_code)
        if response.status_code != 200 or "text/html" not in response.headers.get("Content-Type", ""):
            self.stats.note(self.stats.surprises, f"{self.tag} {op}: {response.status_code} for {parts.path}")

    def hosted(self, i: int) -> None:
        """A payout checkout session made on one web process, its page opened on the other."""
        body = builders.checkout_session(
            f"{self.tag}-{i}-co", notify_url=self.notify_url, timestamp=builders.now_unix(), payout_amount="25.00"
        )
        data = self.payout_api("payout.checkout", "/checkout", body)
        if data is not None:
            self.page("page.payout_checkout.other_process", data["checkout_url"])

    def race_capture(self, i: int) -> None:
        """A card pre-authorization captured through both web processes at once with the same amount: both
        answer the one capture (a repeat answers it again), and one SUCCESS callback follows AUTHORIZED."""
        card = self.payin("card.token", "/card/token", builders.card(builders.APPROVED_CARD))
        if card is None:
            return
        out_trade_no = f"{self.tag}-{i}-cap"
        amount = Decimal(self.rng.randint(1000, 50000)) / 100
        authorized = self.payin(
            "trade.pre_authorization",
            "/trade/pre-authorization",
            builders.pre_authorization(
                card["token"], out_trade_no, notify_url=self.notify_url, order_amount=str(amount)
            ),
        )
        if authorized is None:
            return
        self.trade_nos.append(authorized["trade_no"])
        query = self.payin("trade.query", "/trade/query", {"trade_no": authorized["trade_no"]}, via=self.other())
        if query is None:
            return
        if query["trade_status"] != trades.AUTHORIZED:
            self.stats.note(self.stats.surprises, f"{self.tag} frictionless pre-authorization: {query}")
            return
        captured = amount if self.rng.random() < 0.5 else (amount * Decimal("0.6")).quantize(Decimal("0.01"))
        body = {"version": "2.0", "amount": str(captured), "currency": "BRL", "out_trade_no": out_trade_no}
        answers = self.race(
            "race.capture",
            lambda http, n: self.payin("race.capture", "/trade/capture", body, http=http),
            wins=2,
        )
        done = [(a["trade_status"], Decimal(a["amount"])) for a in answers if a is not None]
        if any(answer != (trades.SUCCESS, captured) for answer in done):
            self.stats.note(self.stats.surprises, f"{self.tag} race.capture of {captured}: {answers}")
        elif done:
            self._refund(i, authorized["trade_no"], captured)
