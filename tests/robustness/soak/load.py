"""The soak's load: client threads, each a merchant integration doing a seeded mix of API operations, sent
in turn to the web processes (as a round-robin balancer does), the racing pairs one to each."""

from __future__ import annotations

import base64
import collections
import random
import threading
import time
import traceback
from datetime import datetime
from decimal import ROUND_DOWN, Decimal

import requests
import urllib3

from checkout.payins import states as trades
from checkout.payouts import lifecycle
from checkout.signing import payout_signature

from ... import builders
from .crossing import Crossing

MAX_SCENARIOS = 5000  # per client thread: the loop ends on this count or on the soak's end, whichever first
REQUEST_TIMEOUT = 30
REJECTED_BENEFICIARY = "rejected@sandbox.test"
BALANCE_INSUFFICIENT = 5001102  # the one HTTP 500 the provider documents as an answer (payout submit)

USER_INFO = {"identify": {"number": builders.CPF, "type": "CPF"}, "name": "Ana Souza", "email": "ana@example.com"}
BANK_INFO = {
    "bank_id": "001",
    "bank_name": "Banco do Brasil",
    "agency": "1234",
    "type": "CHECKING",
    "account": "1234567",
}
CENT = Decimal("0.01")


def _is_documented(response: requests.Response, code: int | None) -> bool:
    """Whether a 5xx is exactly the documented answer `code` (HTTP 500 with that code in the body)."""
    if code is None or response.status_code != 500:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("code") == code


class Stats:
    """Every answer of the soak: HTTP status per operation, and anything that was not the planned outcome."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.refusals: collections.Counter = collections.Counter()  # planned business refusals
        self.server_errors: list[str] = []
        self.surprises: list[str] = []
        self.crashes: list[str] = []
        # While a web process is being killed and started again: what it was answering is cut off.
        self.outage = False
        self.outages = 0  # how many began: a racing pair that lived through one is not judged
        self.cut: collections.Counter = collections.Counter()  # per operation, answers lost to the kill
        self.fallbacks = 0  # requests sent to the other web process, theirs refusing connections

    def count(self, op: str, status: int | str) -> None:
        with self.lock:
            self.statuses[op][status] += 1

    def note(self, bucket: list, text: str) -> None:
        with self.lock:
            bucket.append(text[:600])


def _amount(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low, high)) / 100


def _refused(exc: requests.ConnectionError) -> bool:
    """Whether the connection was never made (nothing was sent): the balancer may try the other process."""
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, urllib3.exceptions.NewConnectionError)


class Cut(Exception):
    """An answer lost because its web process was killed meanwhile (the request may have been done)."""


def _part(amount: Decimal, share: str) -> Decimal:
    return max(CENT, (amount * Decimal(share)).quantize(CENT, ROUND_DOWN))


class Client(Crossing, threading.Thread):
    """One merchant integration: a requests.Session doing a bounded, seeded mix of API operations."""

    SCENARIOS = (
        ("pix", 14),
        ("boleto", 8),
        ("preauth", 9),
        ("card", 5),
        ("vault", 10),
        ("payout", 18),
        ("payout_refund", 14),
        ("dry_run", 5),
        ("query", 7),
        ("deliveries", 2),
        ("clock", 6),
        ("race_trade", 3),
        ("race_refund", 3),
        ("race_payout", 3),
        ("race_capture", 3),
        ("hosted", 3),
    )

    def __init__(
        self,
        tag: str,
        bases: list[str],
        credentials: dict,
        notify_url: str,
        seed: int,
        deadline: float,
        stats: Stats,
    ):
        super().__init__(name=f"soak-{tag}", daemon=True)
        self.tag, self.bases, self.credentials, self.deadline, self.stats = tag, bases, credentials, deadline, stats
        self.turn = seed  # the round-robin's position: each request goes to the next web process
        self.last = 0  # the web process the last request went to
        self.pinned = threading.local()  # a racing pair's side: its web process
        self.notify_url = f"{notify_url}/{tag}"
        self.rng = random.Random(seed)
        self.http, self.racer = requests.Session(), requests.Session()  # the racer sends the second of a pair
        self.http.trust_env = self.racer.trust_env = False  # no proxy: traffic stays on 127.0.0.1
        raw = f"{credentials['app_id']}:{credentials['security_key']}".encode()
        self.auth = {"Authorization": "Basic " + base64.b64encode(raw).decode()}
        self.trade_nos: list[str] = []
        self.payouts: list[dict] = []
        self.scenarios = 0

    def run(self) -> None:
        names = [name for name, _ in self.SCENARIOS]
        weights = [weight for _, weight in self.SCENARIOS]
        while self.scenarios < MAX_SCENARIOS and time.monotonic() < self.deadline:
            self.scenarios += 1
            name = self.rng.choices(names, weights)[0]
            try:
                getattr(self, name)(self.scenarios)
            except Cut:
                pass  # counted in stats.cut
            except requests.RequestException as exc:
                self.stats.note(self.stats.surprises, f"{self.tag} {name}: no answer: {exc!r}")
            except Exception:
                self.stats.note(self.stats.crashes, f"{self.tag} {name}: {traceback.format_exc()}")

    # -- plumbing

    def other(self) -> int:
        """The web process the last request did not go to."""
        return (self.last + 1) % len(self.bases)

    def send(self, op: str, http: requests.Session, method: str, path: str, via: int | None, **options):
        """One request through the round-robin (`via`: to that web process); to the other when this one
        refuses connections. An answer cut off by a kill raises Cut."""
        if via is None:
            via = getattr(self.pinned, "via", None)
        if via is None:
            self.turn += 1
            via = self.turn % len(self.bases)
        self.last = via
        for attempt in range(len(self.bases)):
            base = self.bases[(via + attempt) % len(self.bases)]
            try:
                return http.request(method, base + path, timeout=REQUEST_TIMEOUT, **options)
            # A kill may also cut an answer after its headers, mid-body (ChunkedEncodingError).
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
                if isinstance(exc, requests.ConnectionError) and _refused(exc):
                    with self.stats.lock:
                        self.stats.fallbacks += 1
                    continue
                if self.stats.outage:
                    with self.stats.lock:
                        self.stats.cut[op] += 1
                    raise Cut(op) from exc
                raise
        raise requests.ConnectionError(f"{op}: no web process accepts connections")

    def _answer(
        self, op: str, response: requests.Response, ok, refusal, expect: tuple, documented_500: int | None = None
    ) -> dict | None:
        self.stats.count(op, response.status_code)
        if response.status_code >= 500 and not _is_documented(response, documented_500):
            self.stats.note(self.stats.server_errors, f"{op}: {response.status_code} {response.text}")
            return None
        try:
            answer = response.json()
        except ValueError:
            self.stats.note(self.stats.surprises, f"{op}: not JSON: {response.status_code} {response.text}")
            return None
        if ok(answer):
            return answer
        reason = refusal(answer)
        if reason in expect:
            with self.stats.lock:
                self.stats.refusals[(op, reason)] += 1
        else:
            self.stats.note(self.stats.surprises, f"{self.tag} {op}: {response.status_code} {answer}")
        return None

    def payin(
        self, op: str, path: str, body: dict | None = None, expect: tuple = (), http=None, via: int | None = None
    ) -> dict | None:
        payload = (
            None
            if body is None
            else {
                "app_id": self.credentials["app_id"],
                "timestamp": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
                **body,
            }
        )
        response = self.send(op, http or self.http, "POST", path, via, json=payload, headers=self.auth)
        return self._answer(op, response, lambda a: a.get("code") == "10000", lambda a: a.get("sub_code"), expect)

    def payout_api(self, op: str, path: str, body: dict, expect: tuple = (), http=None) -> dict | None:
        headers = {
            "AppId": self.credentials["app_id"],
            "Authorization": payout_signature(body, self.credentials["app_key"]),
        }
        response = self.send(op, http or self.http, "POST", f"/api{path}", None, json=body, headers=headers)
        # A payout above the balance is answered HTTP 500, code 5001102, as the provider does; nothing else is.
        documented = BALANCE_INSUFFICIENT if path == "/payout" else None
        answer = self._answer(op, response, lambda a: a.get("code") == 200, lambda a: a.get("code"), expect, documented)
        return None if answer is None else answer["data"]

    def race(self, op: str, send, wins: int = 1) -> list:
        """`send(http, n)` from two sessions (n = 0, 1), each to its own web process, at the same moment;
        answers both results, of which exactly `wins` must be a success (unless a kill cut one off)."""
        results: list = [None, None]
        barrier = threading.Barrier(2)
        outages = self.stats.outages

        def go(n: int, http: requests.Session) -> None:
            self.pinned.via = n
            try:
                barrier.wait(timeout=REQUEST_TIMEOUT)
                results[n] = send(http, n)
            except Cut:
                pass
            except Exception as exc:  # noqa: BLE001 (reported, never lost in a thread)
                self.stats.note(self.stats.surprises, f"{self.tag} {op}: {exc!r}")
            finally:
                self.pinned.via = None

        other = threading.Thread(target=go, args=(1, self.racer), daemon=True)
        other.start()
        go(0, self.http)
        other.join(timeout=2 * REQUEST_TIMEOUT)
        judged = not self.stats.outage and outages == self.stats.outages
        if judged and sum(result is not None for result in results) != wins:
            self.stats.note(self.stats.surprises, f"{self.tag} {op}: {results} ({wins} of the pair must win)")
        return results

    def race_trade(self, i: int) -> None:
        """One out_trade_no sent twice at once: one trade, one duplicate-out_trade_no."""
        body = builders.direct("PIX", out_trade_no=f"{self.tag}-{i}-twin", notify_url=self.notify_url)
        won = [
            r
            for r in self.race(
                "race.trade_create",
                lambda http, n: self.payin(
                    "race.trade_create", "/trade/pay", body, expect=("duplicate-out_trade_no",), http=http
                ),
            )
            if r
        ]
        if won:
            self.trade_nos.append(won[0]["trade_no"])
            self.payin("sandbox.trade_pay", f"/sandbox/trades/{won[0]['trade_no']}/pay", via=self.other())

    def race_refund(self, i: int) -> None:
        """Two refunds of 60% of one paid trade at once (different out_request_no): only one fits."""
        created = self._direct(i, "PIX")
        if (
            created is None
            or self.payin("sandbox.trade_pay", f"/sandbox/trades/{created[0]}/pay", via=self.other()) is None
        ):
            return
        part = _part(created[1], "0.6")
        self.race(
            "race.refund",
            lambda http, n: self.payin(
                "race.refund",
                "/trade/refund",
                builders.refund(created[0], str(part), out_request_no=f"{self.tag}{i}r{n}"),
                expect=("refund-amount-exceeded",),
                http=http,
            ),
        )

    def race_payout(self, i: int) -> None:
        """One custom_code submitted twice at once: one payout (one debit), one 4001010."""
        body, _, rejected = self._payout_body(i, _amount(self.rng, 1000, 20000))
        won = [
            r
            for r in self.race(
                "race.payout_submit",
                lambda http, n: self.payout_api("race.payout_submit", "/payout", body, expect=(4001010,), http=http),
            )
            if r
        ]
        if won:
            self.payouts.append(
                {
                    "id": won[0]["transaction_id"],
                    "method": body["method"],
                    "rejected": rejected,
                    "arrival": Decimal(won[0]["arrival_amount"]),
                    "refunded": Decimal(0),
                    "done": False,
                }
            )

    # -- payins

    def _refund(self, i: int, trade_no: str, amount: Decimal, **extra) -> None:
        """Nothing, a full refund, or one or two partial ones (with a repeat and an over-limit attempt)."""
        draw = self.rng.random()
        if draw < 0.3:
            return
        if draw < 0.55:
            self.payin("trade.refund.full", "/trade/refund", builders.refund(trade_no, str(amount), **extra))
            return
        first = _part(amount, self.rng.choice(("0.25", "0.5", "0.6")))
        body = builders.refund(trade_no, str(first), out_request_no=f"{self.tag}{i}a", **extra)
        refund = self.payin("trade.refund.partial", "/trade/refund", body)
        if refund is None:
            return
        if self.rng.random() < 0.2:  # the same out_request_no again answers the same refund
            again = self.payin("trade.refund.repeat", "/trade/refund", body)
            if again is not None and again["refund_no"] != refund["refund_no"]:
                self.stats.note(self.stats.surprises, f"repeat of {body} made another refund: {again}")
        rest = amount - first
        if self.rng.random() < 0.15:
            self.payin(
                "trade.refund.exceeded",
                "/trade/refund",
                builders.refund(trade_no, str(rest + CENT), out_request_no=f"{self.tag}{i}x", **extra),
                expect=("refund-amount-exceeded",),
            )
        if rest > 0 and self.rng.random() < 0.5:
            self.payin(
                "trade.refund.rest",
                "/trade/refund",
                builders.refund(trade_no, str(rest), out_request_no=f"{self.tag}{i}b", **extra),
            )

    def _direct(self, i: int, method: str, **overrides) -> tuple[str, Decimal] | None:
        amount = _amount(self.rng, 500, 90000)
        answer = self.payin(
            f"trade.create.{method.lower()}",
            "/trade/pay",
            builders.direct(
                method,
                out_trade_no=f"{self.tag}-{i}-{method}",
                order_amount=str(amount),
                notify_url=self.notify_url,
                **overrides,
            ),
        )
        if answer is None:
            return None
        self.trade_nos.append(answer["trade_no"])
        return answer["trade_no"], amount

    def pix(self, i: int) -> None:
        unpaid = self.rng.random() < 0.1  # left to expire on the sandbox clock
        created = self._direct(i, "PIX", **({"timeout_express": "30m"} if unpaid else {}))
        if created is None or unpaid:
            return
        trade_no, amount = created
        if self.payin("sandbox.trade_pay", f"/sandbox/trades/{trade_no}/pay", via=self.other()) is not None:
            self._refund(i, trade_no, amount)
        self.payin("trade.query", "/trade/query", {"trade_no": trade_no})

    def boleto(self, i: int) -> None:
        created = self._direct(i, "Boleto")
        if created is None:
            return
        trade_no, amount = created
        if self.payin("sandbox.trade_pay", f"/sandbox/trades/{trade_no}/pay", via=self.other()) is not None:
            # Mostly with bank data (refunded at once); sometimes without (waits, and an e-mail is queued).
            extra = {"user_info": USER_INFO} | ({"bank_info": BANK_INFO} if self.rng.random() < 0.75 else {})
            self._refund(i, trade_no, amount, **extra)
        self.payin("trade.query", "/trade/query", {"trade_no": trade_no})

    def _card_token(self) -> str | None:
        number = self.rng.choices(
            (builders.APPROVED_CARD, "5555555555554444", builders.DECLINED_CARD, builders.INSUFFICIENT_FUNDS_CARD),
            (6, 2, 1, 1),
        )[0]
        answer = self.payin("card.token", "/card/token", builders.card(number))
        return None if answer is None else answer["token"]

    def preauth(self, i: int) -> None:
        token = self._card_token()
        if token is None:
            return
        body = builders.pre_authorization(
            token,
            f"{self.tag}-{i}-pre",
            notify_url=self.notify_url,
            order_amount=str(_amount(self.rng, 1000, 50000)),
            threeds=builders.threeds(status_code=self.rng.choice("YYYAIN")),
        )
        answer = self.payin("trade.pre_authorization", "/trade/pre-authorization", body)
        if answer is not None:
            self.trade_nos.append(answer["trade_no"])
            self.payin("trade.query", "/trade/query", {"trade_no": answer["trade_no"]})

    def card(self, i: int) -> None:
        token = self._card_token()
        if token is None:
            return
        created = self._direct(
            i, "CreditCard", token=token, fingerprint=f"device-{self.tag}", issuer="visa", user_ip="127.0.0.1"
        )
        if created is None:
            return
        trade_no, amount = created
        query = self.payin("trade.query", "/trade/query", {"trade_no": trade_no})
        if query is not None and query["trade_status"] == trades.SUCCESS:
            self._refund(i, trade_no, amount)

    def vault(self, i: int) -> None:
        token = self._card_token()
        if token is None:
            return
        created = self.payin(
            "vault.create",
            "/vault/create",
            builders.card_vault(token, card_token={"notify_url": self.notify_url, "uid": f"{self.tag}-user-{i}"}),
        )
        if created is None:
            return
        vault_token = created["token"]
        if self.rng.random() < 0.3:
            self.page("page.vault.other_process", created["checkout_url"])
        if self.rng.random() < 0.1:
            self.payin("sandbox.vault_reject", f"/sandbox/vaults/{vault_token}/reject")
            return
        if self.payin("sandbox.vault_approve", f"/sandbox/vaults/{vault_token}/approve") is None:
            return
        for n in range(self.rng.choice((1, 1, 2))):
            paid = self.payin(
                "trade.pay_with_vault",
                "/trade/pay",
                builders.vault_pay(
                    vault_token,
                    out_trade_no=f"{self.tag}-{i}-vault-{n}",
                    notify_url=self.notify_url,
                    order_amount=str(_amount(self.rng, 500, 20000)),
                ),
            )
            if paid is not None:
                self.trade_nos.append(paid["trade_no"])
        if self.rng.random() < 0.25:  # a debit the worker has not run yet is then refused: vault is VOIDED
            self.payin("vault.void", "/vault/void", {"version": "2.0", "type": "Card", "vault_token": vault_token})

    def query(self, i: int) -> None:
        if self.trade_nos:
            self.payin("trade.query", "/trade/query", {"trade_no": self.rng.choice(self.trade_nos)})

    def deliveries(self, i: int) -> None:
        status = self.rng.choice(("", "?status=pending", "?status=delivered"))
        response = self.send(
            "sandbox.deliveries", self.http, "GET", f"/sandbox/deliveries{status}", None, headers=self.auth
        )
        self._answer("sandbox.deliveries", response, lambda a: a.get("code") == "10000", lambda a: None, ())

    def clock(self, i: int) -> None:
        self.payin("sandbox.clock", "/sandbox/clock", {"advance_seconds": self.rng.randint(60, 240)})

    # -- payouts

    def _payout_body(self, i: int, amount: Decimal) -> tuple[dict, dict, bool]:
        """A payout and the matching dry run; a fifth go to the beneficiary the sandbox bank rejects."""
        code, draw = f"{self.tag}-{i}", self.rng.random()
        rejected = self.rng.random() < 0.2
        common = {"amount": str(amount), "notify_url": self.notify_url, "timestamp": builders.now_unix()}
        if draw < 0.2:
            body = builders.spei_payout(code, **common)
            quote = {"arrival_currency": "MXN", "method": "SPEI", "country": "MEX"}
        else:
            source = "EUR" if draw < 0.35 else "USD"
            fee_bear = "beneficiary" if draw > 0.85 else "merchant"
            body = builders.payout(code, source_currency=source, fee_bear=fee_bear, **common)
            quote = {"source_currency": source, "fee_bear": fee_bear}
        if rejected and body["method"] == "PIX" and self.rng.random() < 0.5:
            body.update(account=REJECTED_BENEFICIARY, account_type="EMAIL")
        elif rejected:
            body["email"] = REJECTED_BENEFICIARY
        return body, builders.dry_run(amount=str(amount), **quote), rejected

    def payout(self, i: int) -> None:
        body, quote, rejected = self._payout_body(i, _amount(self.rng, 1000, 40000))
        if self.payout_api("payout.dry_run", "/payout/dry-run", quote) is None:
            return
        data = self.payout_api("payout.submit", "/payout", body)
        if data is None:
            return
        self.payouts.append(
            {
                "id": data["transaction_id"],
                "method": body["method"],
                "rejected": rejected,
                "arrival": Decimal(data["arrival_amount"]),
                "refunded": Decimal(0),
                "done": False,
            }
        )
        self.payout_api("payout.status", "/payout/status", {"payout_id": data["transaction_id"]})
        self.payout_api(
            "payout.detail",
            "/payout/detail",
            {"transaction_id": data["transaction_id"], "timestamp": builders.now_unix()},
        )

    def _bank_refund(self, op: str, payout: dict, amount: Decimal | None, expect: tuple = (), http=None) -> dict | None:
        body = None if amount is None else {"amount": str(amount)}
        answer = self.payin(op, f"/sandbox/payouts/{payout['id']}/refund", body, expect=expect, http=http)
        if answer is None:
            return None
        payout["refunded"] += Decimal(answer["refunded_amount"])
        payout["done"] = answer["status"] == lifecycle.REFUNDED
        return answer

    def payout_refund(self, i: int) -> None:
        """The recipient's bank refunds one of this client's payouts once the sandbox bank paid it."""
        open_ = [p for p in self.payouts if not p["done"]]
        if not open_:
            return
        payout = self.rng.choice(open_[:8])  # the oldest: the likeliest to be paid by now
        data = self.payout_api("payout.status", "/payout/status", {"payout_id": payout["id"]})
        if data is None:
            return
        status = data["status"]
        if status == lifecycle.IN_PROCESSING:
            if self.rng.random() < 0.15:  # too early; a clock advance racing this may have paid it meanwhile
                self._bank_refund("sandbox.payout_refund.early", payout, None, expect=("payout-status-invalid",))
            return
        if status in (lifecycle.REJECTED, lifecycle.REFUNDED) or self.rng.random() < 0.2:
            payout["done"] = True  # some PAID payouts are never refunded
            return
        if self.rng.random() < 0.15:  # the bank sends the whole refund twice at once: one is refused
            self.race(
                "race.payout_refund",
                lambda http, n: self._bank_refund(
                    "race.payout_refund", payout, None, expect=("payout-status-invalid",), http=http
                ),
            )
        elif payout["method"] == "PIX" and status == lifecycle.PAID and self.rng.random() < 0.6:
            self._bank_refund(
                "sandbox.payout_refund.partial", payout, _part(payout["arrival"], self.rng.choice(("0.3", "0.5")))
            )
        else:
            self._bank_refund("sandbox.payout_refund.full", payout, None)

    def dry_run(self, i: int) -> None:
        quote = self.rng.choice(
            (
                {},
                {"fee_bear": "beneficiary"},
                {"amount_type": "arrival", "amount": "500.00"},
                {"arrival_currency": "MXN", "method": "SPEI", "country": "MEX"},
                {"arrival_currency": "USD", "method": "WALLET", "channel": "PAYPAL", "country": "GLOBAL"},
            )
        )
        self.payout_api("payout.dry_run", "/payout/dry-run", builders.dry_run(**quote))
