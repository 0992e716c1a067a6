"""One database's run: servers up, every measurement in order, then everything stopped and dropped."""

from __future__ import annotations

import contextlib
import secrets
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from checkout import create_app
from tests import builders

from . import crowd, dashboard, datasets, figures, load, notify, pages, peer, profiling, servers, signed
from .load import Plan, Request

MAX_FAILED = 0.01  # a measurement where more of its requests fail measures errors, not the endpoint
MARKER = "@@OUT_TRADE_NO@@"
SLICE = 2.0  # seconds of each interleaved slice (wrk measures whole seconds)


@dataclass
class Options:
    duration: float
    warmup: float
    small: int
    large: int
    notifications: int
    profile: bool
    results: Path  # this run's folder for logs and profiles
    dashboard_only: bool = False  # seed, then time the dashboard's pages; no throughput figure
    # Only these parts of a run (__main__.PARTS), to measure one change quickly; empty: all of them.
    only: frozenset[str] = frozenset()
    server: str = "checkout-serve"  # the candidate (servers.CANDIDATES) the figures are measured under
    # The optional peer (localstripe), measured once per run by the first database's scenario and shared by
    # the others: it has no database, so one measurement serves every figure.
    peer: dict = field(default_factory=dict)


class Scenario:
    """The measurements on one database (sqlite or postgres); `raw` collects every number and error."""

    def __init__(self, kind: str, options: Options, postgres_url: str, started: float):
        self.kind, self.options, self.postgres_url, self.started = kind, options, postgres_url, started
        self.raw: dict = {"database": kind, "errors": {}, "timings_s": {}}
        self.small_sample: datasets.Sample | None = None
        self.large_sample: datasets.Sample | None = None
        self.page_path: str | None = None

    # --- plumbing --------------------------------------------------------------------------------------

    def wants(self, part: str) -> bool:
        only = self.options.only
        return not only or part in only or (part == "small" and bool({"large", "servers"} & only))

    def log(self, message: str) -> None:
        print(f"[{time.monotonic() - self.started:7.1f}s] {self.kind}: {message}", file=sys.stderr, flush=True)

    def step(self, name: str, action: Callable[[], object]):
        """Run one measurement; a failure is recorded and the run goes on with the next."""
        self.log(name)
        mark = time.monotonic()
        try:
            return action()
        except Exception as exc:  # noqa: BLE001 (a benchmark reports what broke and measures the rest)
            self.raw["errors"][name] = f"{type(exc).__name__}: {exc}"
            self.log(f"{name} FAILED: {type(exc).__name__}: {exc}")
            traceback.print_exc(file=sys.stderr)
            return None
        finally:
            self.raw["timings_s"][name] = round(time.monotonic() - mark, 1)

    def _checked(self, result, what: str):
        total = getattr(result, "requests", None) or sum(getattr(result, "statuses", {}).values())
        if total == 0 or result.failed > MAX_FAILED * total:
            raise load.LoadError(f"{what}: {result.failed} of {total} requests failed ({result.as_dict()})")
        return result.as_dict()

    def throughput(self, plan_for: Callable[[float], Plan], base: str | None = None, on: str | None = None) -> dict:
        """Warm up (connections, templates compiled on first use), then measure; per-second plans are
        signed at the last moment, for the whole window. The service (or the server `on` names: the bare
        app's floors) is measured interleaved with the bare route (see _interleaved); `base` measures that
        one server alone."""
        o = self.options
        plan = plan_for(o.warmup + 2 * o.duration + 5)
        if base is not None:
            load.wrk(base, plan, o.warmup)
            return self._checked(load.wrk(base, plan, o.duration), "wrk")
        url = on or self.service.url
        load.wrk(url, plan, o.warmup)
        return self._interleaved(lambda seconds, _: load.wrk(url, plan, seconds))

    def _interleaved(self, measure: Callable[[float, int], load.Throughput], bare_url: str | None = None) -> dict:
        """`duration` seconds of the service in slices, each next to a slice of the bare route as long (in
        turn before and after it, so that neither always runs on the other's heels): a shared machine's
        load drifts during a run, and a ratio of slices taken side by side holds. `bare_url`: the bare app
        under another server than the run's."""
        o = self.options
        bare_url = bare_url or self.bare.url
        count = max(1, round(o.duration / SLICE))
        own: list[dict] = []
        bare: list[dict] = []
        for number in range(count):
            for step in ("bare", "own") if number % 2 == 0 else ("own", "bare"):
                if step == "bare":
                    bare.append(self._checked(load.wrk(bare_url, self.bare_plan, o.duration / count), "wrk"))
                else:
                    own.append(self._checked(measure(o.duration / count, number), "wrk"))
        return load.combined(own, bare)

    # --- request plans ---------------------------------------------------------------------------------

    def dry_run_fields(self) -> dict:
        return {k: v for k, v in builders.dry_run().items() if k != "timestamp"}

    def dry_run_plan(self, seconds: float) -> Plan:
        fields = self.dry_run_fields()
        return signed.payout_plan(self.credentials, "/payout/dry-run", lambda n: fields, seconds)

    def query_request(self, trade_no: str) -> Request:
        return signed.payin(self.credentials, "/trade/query", {"trade_no": trade_no})

    def query_plan(self, sample: datasets.Sample) -> Plan:
        return Plan(fixed=[self.query_request(t) for t in sample.trade_nos])

    def detail_plan(self, sample: datasets.Sample, seconds: float) -> Plan:
        ids = sample.transaction_ids
        return signed.payout_plan(
            self.credentials, "/payout/detail", lambda n: {"transaction_id": ids[n % len(ids)]}, seconds, variants=20
        )

    def history_fields(self) -> dict:
        start, end = datasets.history_range()
        return {"start_date": start, "end_date": end}

    def history_plan(self, seconds: float) -> Plan:
        fields = self.history_fields()
        return signed.payout_plan(self.credentials, "/balance/history", lambda n: fields, seconds)

    def pay_request(self, out_trade_no: str) -> Request:
        return signed.payin(
            self.credentials,
            "/trade/pay",
            builders.direct("PIX", out_trade_no=out_trade_no, notify_url=self.notify_url),
        )

    # --- measurements ----------------------------------------------------------------------------------

    def measure_bare(self) -> dict:
        return self.throughput(lambda s: self.bare_plan, self.bare.url)

    def measure_pay(self, base: str | None = None) -> dict:
        """Direct PIX payments, each with an out_trade_no of its own, on the service (or `base`: its floor)."""
        o = self.options
        url = base or self.service.url
        request = self.pay_request(MARKER)
        # Each run its own random prefix: out_trade_no must never repeat for the merchant.
        run = secrets.token_hex(4)
        load.wrk_unique(url, request, MARKER, f"w{run}-", o.warmup)
        return self._interleaved(
            lambda seconds, number: load.wrk_unique(url, request, MARKER, f"b{run}{number}-", seconds)
        )

    def measure_peer(self) -> dict:
        """localstripe's create and retrieve of a PaymentIntent, each warmed up, then measured with the same wrk
        settings as ours and interleaved with our bare route like our figures; once per run."""
        o = self.options
        if not peer.installed():
            return {"installed": False, "note": peer.NOT_INSTALLED}
        with peer.localstripe(o.results / "logs" / "peer-localstripe.log") as server:
            ids = peer.create_intents(server.url)
            retrieve = Plan(fixed=[peer.retrieve_request(i) for i in ids])
            load.wrk(server.url, retrieve, o.warmup)
            retrieved = self._interleaved(lambda seconds, _: load.wrk(server.url, retrieve, seconds))
            create = Plan(fixed=[peer.create_request()])
            load.wrk(server.url, create, o.warmup)
            created = self._interleaved(lambda seconds, _: load.wrk(server.url, create, seconds))
        return {
            "installed": True,
            "version": peer.version(),
            "measured_with": self.kind,
            "retrieve": {**retrieved, "intents": len(ids)},
            "create": created,
        }

    def measure_latency(self, request: Request, max_rps: float | None) -> dict:
        if not max_rps:
            raise RuntimeError("no maximum throughput measured to take half of")
        result = load.hey(self.service.url, request, max_rps / 2, self.options.duration)
        return self._checked(result, "hey")

    def compare_servers(self, sample: datasets.Sample) -> dict:
        """Each candidate server (servers.CANDIDATES) serving the bare app and the service, side by side: the
        bare route and /trade/query interleaved slice by slice, /trade/query's p99 at half its maximum, and
        /healthz beside a crowd of trickling sockets from another address and from the checker's own."""
        o, logs = self.options, self.options.results / "logs"
        plan = self.query_plan(sample)
        compared: dict[str, dict] = {}
        for name in servers.CANDIDATES:
            self.log(f"server {name}")
            with (
                servers.candidate(
                    name, servers.BARE_APP, self.bare_env, "/bare", logs / f"{self.kind}-{name}-bare.log"
                ) as bare,
                servers.candidate(
                    name, servers.SERVICE_APP, self.database.env(), "/healthz", logs / f"{self.kind}-{name}.log"
                ) as service,
            ):
                load.wrk(bare.url, self.bare_plan, o.warmup)
                load.wrk(service.url, plan, o.warmup)
                query = self._interleaved(lambda seconds, _: load.wrk(service.url, plan, seconds), bare.url)
                half = load.hey(service.url, self.query_request(sample.trade_nos[0]), query["rps"] / 2, o.duration)
                compared[name] = {
                    "query": query,
                    "latency": self._checked(half, "hey"),
                    "crowd": {
                        "other_address": crowd.healthz_beside(service.url, "127.0.0.2"),
                        "same_address": crowd.healthz_beside(service.url, "127.0.0.1"),
                    },
                }
        return compared

    def seed(self, rows: int) -> datasets.Sample:
        report = self.seeder.grow(rows)
        sample = self.seeder.sample()
        self.seeder.check(sample)
        self.raw.setdefault("datasets", {})[str(rows)] = report
        self.log(f"stored {report}")
        return sample

    def dataset_figures(self, size: str, sample: datasets.Sample) -> None:
        for name, plan_for in (
            ("query", lambda s: self.query_plan(sample)),
            ("detail", lambda s: self.detail_plan(sample, s)),
            ("history", self.history_plan),
        ):
            result = self.step(f"{name} throughput, {size}", lambda p=plan_for: self.throughput(p))
            if result:
                self.raw.setdefault(name, {})[size] = result
        if size == "small":
            self.raw["query_floor"] = self.step(
                "query floor throughput, small (its contract alone, in the bare app)",
                lambda: self.throughput(lambda s: self.query_plan(sample), on=self.bare.url),
            )

    def run(self) -> dict:
        o = self.options
        started = time.monotonic()
        with contextlib.ExitStack() as stack:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="checkout-bench-")))
            database = self.step(
                "fresh database",
                lambda: (
                    servers.sqlite_database(folder)
                    if self.kind == "sqlite"
                    else servers.postgres_database(self.postgres_url)
                ),
            )
            if database is None:
                return self.raw
            self.database = database
            stack.callback(lambda: self.step("drop database", database.drop))
            if not self.step("migrate", lambda: database.migrate() or True):
                return self.raw
            self.credentials = self.step("merchant", lambda: servers.create_merchant(database, folder))
            if self.credentials is None:
                return self.raw
            logs = o.results / "logs"
            # The floors hold the benchmark merchant's keys (bare.py).
            floor_key = ":".join(self.credentials[k] for k in ("app_id", "app_key", "security_key"))
            self.page_copy = folder / "page-copy.json"  # the page floor's copy, written once the page exists
            self.bare_env = {
                **database.env(),
                "CHECKOUT_BENCH_FLOOR_KEY": floor_key,
                "CHECKOUT_BENCH_FLOOR_PAGE": str(self.page_copy),
            }
            self.bare = stack.enter_context(
                servers.candidate(o.server, servers.BARE_APP, self.bare_env, "/bare", logs / f"{self.kind}-bare.log")
            )
            self.service = stack.enter_context(
                servers.candidate(
                    o.server, servers.SERVICE_APP, database.env(), "/healthz", logs / f"{self.kind}-service.log"
                )
            )
            self.notify_url = self.bare.url + "/notify"
            self.bare_plan = Plan(fixed=[Request("GET", "/bare")])
            # The receiver is the bare app on 127.0.0.1: a private target, refused unless allowed (sandbox only).
            app = create_app(
                {
                    "DATABASE_URL": database.url,
                    "SECRET_KEY": servers.SECRET_KEY,
                    "SANDBOX": True,
                    "PRIVATE_TARGETS": "allow",
                }
            )
            stack.callback(app.extensions["checkout.db"].engine.dispose)
            self.app = app
            self.raw["servers"] = {
                "server": o.server,
                "described": servers.DESCRIBED[o.server],
                "wrk_connections": load.CONNECTIONS,
            }
            self.measure_all()
            if o.profile:
                self.profiles()
        self.raw["seconds"] = round(time.monotonic() - started, 1)
        return self.raw

    def measure_dashboard(self) -> None:
        """The dashboard's pages on the large dataset only (grown through the small one, as a full run)."""
        o = self.options
        self.seeder = self.step(
            "dataset templates", lambda: datasets.Seeder(self.app, self.credentials, self.notify_url)
        )
        large = self.seeder and self.step(f"seed {o.large:,} rows", lambda: self.seed(o.large))
        if large:
            self.raw["dashboard"] = self.step(
                f"dashboard pages, {o.large:,} trades",
                lambda: dashboard.measure(self.service.url, self.database, self.credentials["app_id"], large),
            )

    def measure_page(self) -> None:
        """The hosted payout page, then its floor serving the service's own copy of it."""
        page_url = self.step(
            "payout checkout session",
            lambda: pages.payout_checkout(self.service.url, self.credentials, self.notify_url, "bench-render"),
        )
        if not page_url:
            return
        self.page_path = pages.path_of(page_url)
        page_plan = Plan(fixed=[signed.get(self.page_path)])
        self.raw["page"] = page = self.step(
            "hosted payout page throughput", lambda: self.throughput(lambda s: page_plan)
        )
        if page:
            self.raw["page_latency"] = self.step(
                "hosted payout page p99 at half max",
                lambda: self.measure_latency(signed.get(self.page_path), page["rps"]),
            )
        if self.step("page copy for its floor", lambda: pages.keep(page_url, self.page_copy) or True):
            self.raw["page_floor"] = self.step(
                "page floor throughput (its contract alone, in the bare app)",
                lambda: self.throughput(lambda s: page_plan, on=self.bare.url),
            )

    def measure_all(self) -> None:
        o, raw = self.options, self.raw
        if o.dashboard_only:
            self.measure_dashboard()
            return
        if self.wants("bytes"):
            weighed = {
                family: self.step(f"page bytes: {family}", lambda opener=opener: pages.weigh(opener()))
                for family, opener in pages.openers(self.service.url, self.credentials, self.notify_url).items()
            }
            raw["page_bytes"] = {family: result for family, result in weighed.items() if result}
        bare = {"start": self.step("bare throughput", self.measure_bare)}
        if self.wants("dry_run"):
            raw["dry_run"] = self.step("dry-run throughput", lambda: self.throughput(self.dry_run_plan))
            raw["dry_run_floor"] = self.step(
                "dry-run floor throughput (its contract alone, in the bare app)",
                lambda: self.throughput(self.dry_run_plan, on=self.bare.url),
            )
        if self.wants("page"):
            self.measure_page()
        if self.wants("pay"):
            raw["pay"] = self.step("trade/pay throughput", self.measure_pay)
            raw["pay_floor"] = self.step(
                "trade/pay floor throughput (its contract alone, in the bare app)",
                lambda: self.measure_pay(self.bare.url),
            )
        if self.wants("peer"):
            if not o.peer:
                o.peer.update(self.step("peer localstripe: create and retrieve throughput", self.measure_peer) or {})
            raw["peer"] = o.peer or None

        small = None
        if self.wants("small"):
            self.seeder = self.step(
                "dataset templates", lambda: datasets.Seeder(self.app, self.credentials, self.notify_url)
            )
            small = self.seeder and self.step(f"seed {o.small:,} rows", lambda: self.seed(o.small))
        if small:
            self.small_sample = small
            bare["mid"] = self.step("bare throughput (mid-run)", self.measure_bare)
            self.dataset_figures("small", small)
            latency = {}
            query_rps = (raw.get("query") or {}).get("small", {}).get("rps")
            dry_rps = (raw.get("dry_run") or {}).get("rps") or self.step(
                "dry-run throughput (for its latency)", lambda: self.throughput(self.dry_run_plan)
            )["rps"]
            latency["dry_run"] = self.step(
                "dry-run p99 at half max",
                lambda: self.measure_latency(
                    signed.payout(self.credentials, "/payout/dry-run", self.dry_run_fields()), dry_rps
                ),
            )
            latency["query"] = self.step(
                "trade/query p99 at half max",
                lambda: self.measure_latency(self.query_request(small.trade_nos[0]), query_rps),
            )
            raw["latency"] = {k: v for k, v in latency.items() if v}
        if small and self.wants("servers"):
            raw["servers_compared"] = self.step("servers compared", lambda: self.compare_servers(small))
        if self.wants("notify"):
            raw["notify"] = self.step(
                f"notifications ({notify.PAIRS} x {o.notifications:,}, interleaved with the bare loop)",
                lambda: notify.measure(self.app, self.credentials["app_id"], self.notify_url, o.notifications),
            )
        large = self.wants("large") and small and self.step(f"seed {o.large:,} rows", lambda: self.seed(o.large))
        if large:
            self.large_sample = large
            self.dataset_figures("large", large)
            raw["dashboard"] = self.step(
                f"dashboard pages, {o.large:,} trades",
                lambda: dashboard.measure(self.service.url, self.database, self.credentials["app_id"], large),
            )
        bare["end"] = self.step("bare throughput (end)", self.measure_bare)
        measured = {moment: result for moment, result in bare.items() if result}
        if measured:
            rates = [result["rps"] for result in measured.values()]
            raw["bare"] = {**measured, "rps": sum(rates) / len(rates)}
            if max(rates) > 1.2 * min(rates):
                self.log(
                    "bare throughput drifted: "
                    + ", ".join(f"{m} {r['rps']:.0f}" for m, r in measured.items())
                    + " req/s (the machine's load changed; each figure uses the bare run next to it)"
                )

    # --- profiles of what failed -----------------------------------------------------------------------

    def profiles(self) -> None:
        o = self.options
        rows = figures.evaluate(figures.figures(o.small, o.large), {self.kind: self.raw})
        failing = {row["key"] for row in rows if row["result"].startswith(("FAIL", "ERROR"))}
        large = self.large_sample or self.small_sample
        dry = self.dry_run_fields()
        history = self.history_fields()
        sources: dict[str, Callable[[int], Request]] = {
            "dry_run": lambda n: signed.payout(self.credentials, "/payout/dry-run", dry),
            "pay": lambda n: self.pay_request(f"p{secrets.token_hex(4)}-{n}"),
            "history_growth": lambda n: signed.payout(self.credentials, "/balance/history", history),
        }
        if self.page_path:
            sources["page"] = sources["page_p99"] = lambda n: signed.get(self.page_path)
        if large:
            sources["query"] = sources["query_growth"] = lambda n: self.query_request(
                large.trade_nos[n % len(large.trade_nos)]
            )
            ids = large.transaction_ids
            sources["detail_growth"] = lambda n: signed.payout(
                self.credentials, "/payout/detail", {"transaction_id": ids[n % len(ids)]}
            )
        latency = self.raw.get("latency") or {}
        if "p99" in failing and latency:
            worst = max(latency, key=lambda k: latency[k]["p99_ms"])
            sources["p99"] = sources.get(worst)  # latency and sources share their keys (dry_run, query)
        made = {}
        for key in sorted(failing):
            source = sources.get(key)
            if source is None:
                continue
            made[key] = self.step(
                f"profile {key}",
                lambda s=source, k=key: profiling.profile(
                    self.app, s, o.results / "profiles" / f"{self.kind}-{k.replace(':', '-')}"
                ),
            )
        self.raw["profiles"] = {k: v for k, v in made.items() if v}
