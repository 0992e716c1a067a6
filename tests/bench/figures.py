"""The figures the issue asks for: how each is computed from the raw numbers, its target, and the table."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass

from .pages import FAMILIES
from .servers import CANDIDATES

KB = 1024


@dataclass
class Figure:
    key: str
    label: str
    compute: Callable[[dict], float | None]
    compare: str  # ">=", "<=" or "<"
    target: float
    unit: str  # ratio, ms, KB or rps
    only: str | None = None  # the one database the target is for; elsewhere the value is information
    info: bool = False  # a reference number, with no target
    # The same figure computed the other way, kept in the JSON to judge the noise by: a ratio over the mean
    # of the bare runs at the start, middle and end instead of the bare slices interleaved with it; a growth
    # of plain throughputs, not each taken over its interleaved bare route.
    cross_check: Callable[[dict], float | None] | None = None
    targets: dict[str, float] | None = None  # a target of its own for each database, in place of `target`
    # Why a run has no value where that is no error (the optional peer not installed): shown instead of one.
    absent: Callable[[dict], str | None] | None = None

    def passes(self, value: float, db: str | None = None) -> bool:
        target = (self.targets or {}).get(db or "", self.target)
        return {">=": operator.ge, "<=": operator.le, "<": operator.lt}[self.compare](value, target)

    def show(self, value: float | None) -> str:
        if value is None:
            return "error"
        if self.unit == "ms":
            return f"{value:.1f} ms"
        if self.unit == "KB":
            return f"{value / KB:.1f} KB"
        if self.unit == "rps":
            return f"{value:,.0f} req/s"
        return f"{value:.2f}"

    def show_target(self) -> str:
        if self.info:
            return "-"
        sign = {">=": "≥", "<=": "≤", "<": "<"}[self.compare]
        if self.targets:
            return ", ".join(f"{sign} {value:g} ({_NAMES[db]})" for db, value in self.targets.items())
        target = {"ms": f"{self.target:g} ms", "KB": f"{self.target / KB:g} KB"}.get(self.unit, f"{self.target:g}")
        return f"{sign} {target}" + (f" ({_NAMES[self.only]})" if self.only else "")


_NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


def _rps(raw: dict, *path: str) -> float | None:
    node = raw
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node.get("rps") if isinstance(node, dict) else None


def _bare(raw: dict, moment: str) -> float | None:
    """The bare route's throughput measured next to a figure (start, mid or end of the run), so that a
    change in the machine's load during the run cancels out; the run's mean when that one is missing."""
    return _rps(raw, "bare", moment) or _rps(raw, "bare")


def _over(raw: dict, path: tuple[str, ...], moment: str) -> float | None:
    """Throughput over the bare route's measured interleaved with it, else over the one at `moment`."""
    beside = _beside(raw, *path)
    if beside is not None:
        return beside
    top, bottom = _rps(raw, *path), _bare(raw, moment)
    return top / bottom if top and bottom else None


def _beside(raw: dict, *path: str) -> float | None:
    """Throughput over the bare route's interleaved with it (measured together, so drift cancels)."""
    node = raw
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    if isinstance(node, dict) and node.get("rps") and node.get("bare_rps"):
        return node["rps"] / node["bare_rps"]
    return None


def _floor_figures(name: str, ours: tuple[str, ...], moment: str, endpoint: str, what: str) -> list[Figure]:
    """A floor's throughput over the bare route, and ours over the floor's (information, no target)."""
    floor = f"{name}_floor"
    return [
        Figure(
            floor,
            f"{name.replace('_', '-')} floor: {what} / bare",
            lambda r: _over(r, (floor,), moment),
            ">=",
            0,
            "ratio",
            info=True,
        ),
        Figure(
            f"{name}_of_floor",
            f"{endpoint} throughput / its floor's",
            _of_floor(ours, floor, moment),
            ">=",
            0,
            "ratio",
            info=True,
        ),
    ]


def _of_floor(ours_path: tuple[str, ...], floor: str, moment: str) -> Callable[[dict], float | None]:
    """What the service keeps of its floor's throughput (each over its own interleaved bare route)."""

    def compute(raw: dict) -> float | None:
        ours, bottom = _over(raw, ours_path, moment), _over(raw, (floor,), moment)
        return ours / bottom if ours and bottom else None

    return compute


def _over_mean(*path: str) -> Callable[[dict], float | None]:
    """The cross-check: throughput over the mean of the bare runs at the start, middle and end."""

    def compute(raw: dict) -> float | None:
        top, bottom = _rps(raw, *path), _rps(raw, "bare")
        return top / bottom if top and bottom else None

    return compute


def _growth(name: str) -> Callable[[dict], float | None]:
    """Throughput with the large dataset over the small one, as the issue defines it, each first taken
    over the bare route's measured interleaved with it (the two are measured minutes apart)."""

    def compute(raw: dict) -> float | None:
        large, small = _beside(raw, name, "large"), _beside(raw, name, "small")
        if large is None or small is None:
            large, small = _rps(raw, name, "large"), _rps(raw, name, "small")
        return large / small if large and small else None

    return compute


def _plain_growth(name: str) -> Callable[[dict], float | None]:
    def compute(raw: dict) -> float | None:
        large, small = _rps(raw, name, "large"), _rps(raw, name, "small")
        return large / small if large and small else None

    return compute


def _worst_p99(raw: dict) -> float | None:
    latency = raw.get("latency") or {}
    values = [latency[k]["p99_ms"] for k in ("dry_run", "query") if k in latency]
    return max(values) if len(values) == 2 else None


def _page_p99(raw: dict) -> float | None:
    return (raw.get("page_latency") or {}).get("p99_ms")


def _page_bytes(family: str) -> Callable[[dict], float | None]:
    return lambda raw: ((raw.get("page_bytes") or {}).get(family) or {}).get("total")


def _notify(raw: dict) -> float | None:
    result = raw.get("notify") or {}
    return result.get("ratio") if result.get("complete") else None


def _peer(raw: dict) -> dict:
    return raw.get("peer") or {}


def _peer_absent(raw: dict) -> str | None:
    """The optional peer's note when it was not installed (then its rows say so instead of an error)."""
    found = _peer(raw)
    return found.get("note") if found.get("installed") is False else None


def _over_peer(ours: tuple[str, ...], theirs: str, beside: bool) -> Callable[[dict], float | None]:
    """Our throughput over the peer's (plain req/s), or, as the cross-check, each first taken over the bare
    route's interleaved with it (the two are measured minutes apart)."""

    def compute(raw: dict) -> float | None:
        if beside:
            top, bottom = _beside(raw, *ours), _beside(_peer(raw), theirs)
        else:
            top, bottom = _rps(raw, *ours), _rps(_peer(raw), theirs)
        return top / bottom if top and bottom else None

    return compute


def peer_figures() -> list[Figure]:
    """localstripe beside us: it keeps its state in memory, we persist every trade on a database."""
    return [
        Figure(
            "peer_create",
            "peer localstripe: create PaymentIntent (in memory)",
            lambda r: _rps(_peer(r), "create"),
            ">=",
            0,
            "rps",
            info=True,
            absent=_peer_absent,
        ),
        Figure(
            "peer_retrieve",
            "peer localstripe: retrieve PaymentIntent (in memory)",
            lambda r: _rps(_peer(r), "retrieve"),
            ">=",
            0,
            "rps",
            info=True,
            absent=_peer_absent,
        ),
        Figure(
            "peer_query",
            "our /trade/query req/s / its retrieve (ours from a database, its from memory)",
            _over_peer(("query", "small"), "retrieve", beside=False),
            ">=",
            1.0,
            "ratio",
            targets={"sqlite": 1.0, "postgres": 0.7},
            cross_check=_over_peer(("query", "small"), "retrieve", beside=True),
            absent=_peer_absent,
        ),
        Figure(
            "peer_pay",
            "our /trade/pay req/s / its create (ours persists on a database, it keeps memory)",
            _over_peer(("pay",), "create", beside=False),
            ">=",
            3.0,
            "ratio",
            cross_check=_over_peer(("pay",), "create", beside=True),
            absent=_peer_absent,
        ),
        Figure(
            "peer_pay_floor",
            "our /trade/pay floor's req/s / its create (what any view persisting a payment reaches)",
            _over_peer(("pay_floor",), "create", beside=False),
            ">=",
            0,
            "ratio",
            info=True,
            cross_check=_over_peer(("pay_floor",), "create", beside=True),
            absent=_peer_absent,
        ),
    ]


def _server(name: str, *path: str) -> Callable[[dict], float | None]:
    def compute(raw: dict) -> float | None:
        node = (raw.get("servers_compared") or {}).get(name)
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        return node if isinstance(node, (int, float)) else None

    return compute


def _server_ratio(name: str) -> Callable[[dict], float | None]:
    def compute(raw: dict) -> float | None:
        query = ((raw.get("servers_compared") or {}).get(name) or {}).get("query") or {}
        return query["rps"] / query["bare_rps"] if query.get("rps") and query.get("bare_rps") else None

    return compute


def _crowd_absent(name: str, where: str) -> Callable[[dict], str | None]:
    """A crowd that left /healthz unanswered in some round says so instead of a time."""

    def absent(raw: dict) -> str | None:
        found = ((((raw.get("servers_compared") or {}).get(name) or {}).get("crowd") or {}).get(where)) or {}
        if found.get("unanswered"):
            return f"unanswered {found['unanswered']} of {len(found['healthz_ms'])} (held {found['held_at_end']:,})"
        return None

    return absent


def _server_figures() -> list[Figure]:
    """The candidate servers side by side (information: the choice is argued in docs/decisions.md)."""
    rows = []
    for name in CANDIDATES:
        rows += [
            Figure(
                f"server_{name}_bare",
                f"{name}: bare route",
                _server(name, "query", "bare_rps"),
                ">=",
                0,
                "rps",
                info=True,
            ),
            Figure(
                f"server_{name}_query",
                f"{name}: /trade/query",
                _server(name, "query", "rps"),
                ">=",
                0,
                "rps",
                info=True,
            ),
            Figure(
                f"server_{name}_ratio",
                f"{name}: /trade/query / its bare route",
                _server_ratio(name),
                ">=",
                0,
                "ratio",
                info=True,
            ),
            Figure(
                f"server_{name}_p99",
                f"{name}: /trade/query p99 at half its max",
                _server(name, "latency", "p99_ms"),
                "<=",
                0,
                "ms",
                info=True,
            ),
        ]
        for where, words in (("other_address", "another address"), ("same_address", "the checker's own address")):
            rows.append(
                Figure(
                    f"server_{name}_crowd_{where}",
                    f"{name}: slowest /healthz beside 4,000 trickling sockets from {words}",
                    _server(name, "crowd", where, "worst_ms"),
                    "<",
                    1000,
                    "ms",
                    info=True,
                    absent=_crowd_absent(name, where),
                )
            )
    return rows


def figures(small: int, large: int) -> list[Figure]:
    sizes = f"{large:,} rows / {small:,}"
    return [
        Figure("bare", "bare Flask route throughput (reference)", lambda r: _rps(r, "bare"), ">=", 0, "rps", info=True),
        Figure(
            "dry_run",
            "/api/payout/dry-run throughput / bare",
            lambda r: _over(r, ("dry_run",), "start"),
            ">=",
            0.6,
            "ratio",
            cross_check=_over_mean("dry_run"),
        ),
        *_floor_figures(
            "dry_run",
            ("dry_run",),
            "start",
            "/api/payout/dry-run",
            "its contract alone in a bare view (no database, no request log)",
        ),
        Figure(
            "query",
            "/trade/query throughput / bare",
            lambda r: _over(r, ("query", "small"), "mid"),
            ">=",
            0.5,
            "ratio",
            targets={"sqlite": 0.5, "postgres": 0.4},
            cross_check=_over_mean("query", "small"),
        ),
        *_floor_figures(
            "query",
            ("query", "small"),
            "mid",
            "/trade/query",
            "its contract on the service's own read, in a bare view (no key check, no log)",
        ),
        Figure(
            "pay",
            "/trade/pay (direct PIX) throughput / bare",
            lambda r: _over(r, ("pay",), "start"),
            ">=",
            0.3,
            "ratio",
            targets={"sqlite": 0.25, "postgres": 0.3},
            cross_check=_over_mean("pay"),
        ),
        *_floor_figures(
            "pay",
            ("pay",),
            "start",
            "/trade/pay (direct PIX)",
            "its contract on the service's own code and two INSERTs, in a bare view (no ORM, no log)",
        ),
        Figure(
            "page",
            "hosted payout page render throughput / bare",
            lambda r: _over(r, ("page",), "start"),
            ">=",
            0.5,
            "ratio",
            cross_check=_over_mean("page"),
        ),
        *_floor_figures(
            "page",
            ("page",),
            "start",
            "hosted payout page",
            "its contract on the service's own statement and rendered copy, in a bare view",
        ),
        Figure("p99", "p99 latency at half max throughput (worst of dry-run, query)", _worst_p99, "<=", 25, "ms"),
        Figure("page_p99", "hosted payout page p99 latency at half its max throughput", _page_p99, "<=", 25, "ms"),
        Figure(
            "query_growth",
            f"/trade/query throughput, {sizes}",
            _growth("query"),
            ">=",
            0.9,
            "ratio",
            cross_check=_plain_growth("query"),
        ),
        Figure(
            "detail_growth",
            f"/api/payout/detail throughput, {sizes}",
            _growth("detail"),
            ">=",
            0.9,
            "ratio",
            cross_check=_plain_growth("detail"),
        ),
        Figure(
            "history_growth",
            f"/api/balance/history 365 days, ledger {sizes}",
            _growth("history"),
            ">=",
            0.9,
            "ratio",
            cross_check=_plain_growth("history"),
        ),
        Figure(
            "dashboard",
            f"dashboard lists and details at {large:,} trades, slowest page's p95",
            lambda r: (r.get("dashboard") or {}).get("worst_p95_ms"),
            "<",
            100,
            "ms",
            only="postgres",
        ),
        Figure("notify", "notification deliveries/s, one worker / bare requests loop", _notify, ">=", 0.7, "ratio"),
        *peer_figures(),
        *_server_figures(),
        *[
            Figure(f"bytes:{family}", f"page bytes (HTML+CSS+JS): {family}", _page_bytes(family), "<", 50 * KB, "KB")
            for family in FAMILIES
        ],
    ]


def evaluate(figure_list: list[Figure], runs: dict[str, dict]) -> list[dict]:
    """One row per figure: the value for each database run, and the verdict on those the target is for."""
    rows = []
    for figure in figure_list:
        values = {db: figure.compute(raw) for db, raw in runs.items()}
        absent = {
            db: reason
            for db, raw in runs.items()
            if values[db] is None and figure.absent and (reason := figure.absent(raw))
        }
        judged = {
            db: v for db, v in values.items() if not figure.info and figure.only in (None, db) and db not in absent
        }
        failed = [_NAMES[db] for db, v in judged.items() if v is not None and not figure.passes(v, db)]
        missing = [_NAMES[db] for db, v in judged.items() if v is None]
        if absent and not judged:
            verdict = sorted(set(absent.values()))[0]
        elif figure.info or not judged:
            verdict = "info"
        elif missing:
            verdict = "ERROR (" + ", ".join(missing) + ")" + (" FAIL (" + ", ".join(failed) + ")" if failed else "")
        elif failed:
            verdict = "FAIL" + ("" if len(failed) == len(judged) == 1 else " (" + ", ".join(failed) + ")")
        else:
            verdict = "PASS"
        rows.append(
            {
                "key": figure.key,
                "figure": figure.label,
                "target": figure.show_target(),
                "result": verdict,
                "values": values,
                **(
                    {"cross_check": {db: figure.cross_check(raw) for db, raw in runs.items()}}
                    if figure.cross_check
                    else {}
                ),
                "shown": {
                    db: absent[db]
                    if db in absent
                    else figure.show(v) + ("" if figure.info or figure.only in (None, db) else " (info)")
                    for db, v in values.items()
                },
                **({"absent": absent} if absent else {}),
            }
        )
    return rows


def table(rows: list[dict], databases: list[str]) -> str:
    headers = ["Figure", *[_NAMES[db] for db in databases], "Target", "Result"]
    lines = [[row["figure"], *[row["shown"][db] for db in databases], row["target"], row["result"]] for row in rows]
    widths = [max(len(str(cells[i])) for cells in [headers, *lines]) for i in range(len(headers))]

    def render(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([render(headers), rule, *[render(cells) for cells in lines]])
