"""`python3 -m tests.bench`: measure the service against a bare Flask route and print one table of figures.

Runs on SQLite and/or PostgreSQL (each in a fresh database), under `checkout serve`'s server as it runs it
(or another candidate, --server), driven by wrk and hey. Always exits 0: it is a measurement; the table says PASS or FAIL per figure, and the JSON
file it names keeps the table and every raw number.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import sys
import time
import traceback
from datetime import datetime
from pathlib import Path

from . import tools

REPO = Path(__file__).resolve().parents[2]
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
FULL = {"duration": 10.0, "warmup": 2.0, "small": 10_000, "large": 1_000_000, "notifications": 2000}
# What --only can pick: "small" is the 10,000-row figures and the latency (the query among them), "servers" the
# candidate servers compared on the small dataset, "large" the 1,000,000-row ones and the dashboard (both seed
# the small dataset first).
PARTS = ("bytes", "dry_run", "page", "pay", "peer", "small", "servers", "notify", "large")
QUICK = {"duration": 2.0, "warmup": 1.0, "small": 1_000, "large": 20_000, "notifications": 200}


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m tests.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--duration", type=float, help="seconds per measurement (default 10; 2 with --quick)")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: short measurements, datasets of 1,000 and 20,000 rows"
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("CHECKOUT_BENCH_POSTGRES_URL", DEFAULT_POSTGRES),
        help="PostgreSQL to run in (a schema of its own is created and dropped there)",
    )
    parser.add_argument(
        "--profile", action="store_true", help="pyinstrument profile of each endpoint whose figure fails"
    )
    parser.add_argument(
        "--dashboard-only",
        action="store_true",
        help="only the dashboard's pages on the large dataset (no throughput figures): minutes, not the hour",
    )
    parser.add_argument(
        "--only",
        default="",
        help="a comma-separated choice of " + ", ".join(PARTS) + " (default: all): to measure one change quickly",
    )
    parser.add_argument(
        "--server",
        default="checkout-serve",
        choices=["checkout-serve", "gunicorn", "granian", "granian-crowd", "waitress"],  # servers.CANDIDATES
        help="the server the figures are measured under (default: checkout serve's, as it ships); the server "
        "comparison (--only servers) measures each",
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=REPO / "bench-results",
        help="folder for <timestamp>.json (and <timestamp>/ with logs and profiles)",
    )
    return parser.parse_args(argv)


def _parts(only: str) -> frozenset[str]:
    chosen = frozenset(part for part in only.split(",") if part)
    if chosen - set(PARTS):
        sys.exit(f"--only: unknown part(s) {', '.join(sorted(chosen - set(PARTS)))}; choose from {', '.join(PARTS)}")
    return chosen


def _stop_on_sigterm() -> None:
    # A terminated run still stops its servers and drops its databases (finally blocks run on SystemExit).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def main(argv: list[str]) -> int:
    args = _arguments(argv)
    only = _parts(args.only)
    _stop_on_sigterm()
    tools.ensure()
    from . import figures
    from .scenario import Options, Scenario
    from .servers import DESCRIBED

    sizes = QUICK if args.quick else FULL
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = args.results / stamp
    folder.mkdir(parents=True, exist_ok=True)
    options = Options(
        duration=args.duration or sizes["duration"],
        warmup=sizes["warmup"],
        small=sizes["small"],
        large=sizes["large"],
        notifications=sizes["notifications"],
        profile=args.profile,
        results=folder,
        dashboard_only=args.dashboard_only,
        only=only,
        server=args.server,
    )
    databases = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    started = time.monotonic()
    load_before = os.getloadavg()
    runs: dict[str, dict] = {}
    try:
        for kind in databases:
            scenario = Scenario(kind, options, args.postgres_url, started)
            try:
                runs[kind] = scenario.run()
            except Exception as exc:  # noqa: BLE001 (what was measured is still reported)
                traceback.print_exc(file=sys.stderr)
                runs[kind] = scenario.raw
                scenario.raw["errors"]["run"] = f"{type(exc).__name__}: {exc}"
            except BaseException:  # interrupted: report what was measured, then stop
                runs[kind] = scenario.raw
                scenario.raw["errors"]["run"] = "interrupted"
                raise
    finally:
        seconds = time.monotonic() - started
        chosen = figures.figures(options.small, options.large)
        if options.dashboard_only:
            chosen = [figure for figure in chosen if figure.key == "dashboard"]
        rows = figures.evaluate(chosen, runs)
        if only:  # the parts not measured would only say "error"
            rows = [row for row in rows if row.get("absent") or any(v is not None for v in row["values"].values())]
        rendered = figures.table(rows, list(runs)) if runs else "(nothing measured)"
        out = args.results / f"{stamp}.json"
        out.write_text(
            json.dumps(
                {
                    "started": stamp,
                    "argv": argv,
                    "quick": args.quick,
                    "options": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(options).items()},
                    "machine": {
                        "cpus": os.cpu_count(),
                        "load_before": load_before,
                        "load_after": os.getloadavg(),
                        "python": platform.python_version(),
                        "platform": platform.platform(),
                    },
                    "seconds": round(seconds, 1),
                    "table": rows,
                    "table_text": rendered,
                    "runs": runs,
                },
                indent=2,
                default=str,
            ),
            encoding="utf-8",
        )
        mode = "quick smoke run" if args.quick else "full run"
        print(
            f"checkout benchmark ({mode}: {options.duration:g} s per measurement, datasets {options.small:,} and "
            f"{options.large:,} rows, {DESCRIBED[options.server]})"
        )
        print(rendered)
        took = ", ".join(
            f"{kind} {raw.get('seconds', '?')} s"
            + "".join(
                f" (seeding {int(size):,} rows: {report.get('total_s')} s)"
                for size, report in raw.get("datasets", {}).items()
                if int(size) == options.large
            )
            for kind, raw in runs.items()
        )
        print(
            f"took {seconds:.0f} s ({took}); load average {load_before[0]:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs"
        )
        for kind, raw in runs.items():
            for step, error in raw.get("errors", {}).items():
                print(f"error ({kind}, {step}): {error}")
            for key, made in (raw.get("profiles") or {}).items():
                print(f"profile ({kind}, {key}): {made['html']}")
        print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
