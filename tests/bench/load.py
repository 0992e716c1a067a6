"""Load generators: wrk replaying pre-built requests through the Lua scripts, hey at a fixed rate for latency."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

LUA = Path(__file__).with_name("lua")
# One wrk thread is plenty for two server processes on this kind of machine, and leaves them the cores;
# 16 connections keep every one of the 2 x 4 server threads busy.
CONNECTIONS = 16
HEY_CONCURRENCY = 10
GRACE = 30  # seconds a load run may overrun its duration before it is killed


@dataclass
class Request:
    method: str
    path: str  # with its query string
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None


@dataclass
class Plan:
    """What wrk replays: one list of requests, or a list for each wall-clock second (signed payout bodies)."""

    fixed: list[Request] | None = None
    per_second: dict[int, list[Request]] | None = None


@dataclass
class Throughput:
    rps: float
    requests: int
    seconds: float
    errors: dict[str, int]
    p50_ms: float
    p99_ms: float
    max_ms: float

    @property
    def failed(self) -> int:
        return sum(self.errors.values())

    def as_dict(self) -> dict:
        return {**asdict(self), "failed": self.failed}


@dataclass
class Latency:
    rate_asked: float
    rps: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    statuses: dict[str, int]
    errors: int

    @property
    def failed(self) -> int:
        return self.errors + sum(n for code, n in self.statuses.items() if not code.startswith("2"))

    def as_dict(self) -> dict:
        return {**asdict(self), "failed": self.failed}


class LoadError(RuntimeError):
    pass


def combined(own: list[dict], bare: list[dict]) -> dict:
    """Interleaved slices as one measurement: throughput over all of them, the bare route's beside it
    (`bare_rps`), the worst p99, and each slice's pair to judge the noise by."""

    def rate(slices: list[dict]) -> float:
        seconds = sum(s["seconds"] for s in slices)
        return sum(s["requests"] for s in slices) / seconds if seconds else 0.0

    errors: dict[str, int] = {}
    for piece in own:
        for key, n in piece["errors"].items():
            errors[key] = errors.get(key, 0) + n
    p50s = sorted(s["p50_ms"] for s in own)
    return {
        "rps": rate(own),
        "bare_rps": rate(bare),
        "requests": sum(s["requests"] for s in own),
        "seconds": round(sum(s["seconds"] for s in own), 3),
        "errors": errors,
        "p50_ms": p50s[len(p50s) // 2],
        "p99_ms": max(s["p99_ms"] for s in own),
        "max_ms": max(s["max_ms"] for s in own),
        "failed": sum(errors.values()),
        "slices": [[round(o["rps"]), round(b["rps"])] for o, b in zip(own, bare, strict=True)],
    }


def _lua(value) -> str:
    """A Python value as a Lua literal (strings byte for byte, so signed bodies stay exactly as signed)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = (
            value.replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\r", "\\r")
            .replace("\0", "\\0")
        )
        return f'"{escaped}"'
    if isinstance(value, list):
        return "{" + ",".join(_lua(item) for item in value) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(f"[{_lua(k)}]={_lua(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no Lua literal for {type(value).__name__}")


def _request_lua(request: Request) -> dict:
    out = {"method": request.method, "path": request.path, "headers": dict(request.headers)}
    if request.body is not None:
        out["body"] = request.body
    return out


def _run_wrk(base_url: str, script: str, data: dict, duration: float, connections: int) -> Throughput:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False, encoding="utf-8") as handle:
        handle.write("return " + _lua(data) + "\n")
        data_path = handle.name
    try:
        command = [
            "wrk",
            "-t1",
            f"-c{connections}",
            f"-d{max(1, round(duration))}s",
            "--timeout",
            "10s",
            "-s",
            str(LUA / script),
            base_url,
            "--",
            data_path,
        ]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=duration + GRACE,
                env={**os.environ, "BENCH_LUA_DIR": str(LUA)},
            )
        except subprocess.TimeoutExpired:
            raise LoadError(f"wrk did not finish within {duration + GRACE:.0f} s") from None
    finally:
        Path(data_path).unlink()
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if done.returncode != 0 or line is None:
        raise LoadError(f"wrk failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    raw = json.loads(line[len("BENCH ") :])
    seconds = raw["duration_us"] / 1e6
    errors = {key: raw[key] for key in ("connect", "read", "write", "status", "timeout") if raw[key]}
    return Throughput(
        rps=raw["requests"] / seconds if seconds else 0.0,
        requests=raw["requests"],
        seconds=round(seconds, 3),
        errors=errors,
        p50_ms=raw["p50_us"] / 1000,
        p99_ms=raw["p99_us"] / 1000,
        max_ms=raw["max_us"] / 1000,
    )


def wrk(base_url: str, plan: Plan, duration: float, connections: int = CONNECTIONS) -> Throughput:
    """Maximum throughput: wrk replays the plan's requests on keep-alive connections for `duration` s."""
    if plan.fixed is not None:
        data = {"per_second": False, "sets": {0: [_request_lua(r) for r in plan.fixed]}}
    else:
        data = {
            "per_second": True,
            "sets": {second: [_request_lua(r) for r in requests] for second, requests in plan.per_second.items()},
        }
    return _run_wrk(base_url, "replay.lua", data, duration, connections)


def wrk_unique(
    base_url: str, request: Request, marker: str, prefix: str, duration: float, connections: int = CONNECTIONS
) -> Throughput:
    """Like wrk(), for one request whose body must differ each time: `marker` becomes prefix + counter."""
    data = {"request": _request_lua(request), "marker": marker, "prefix": prefix}
    return _run_wrk(base_url, "unique.lua", data, duration, connections)


_PERCENTILE = re.compile(r"^\s*(\d+)%+ in ([\d.]+) secs", re.M)
_STATUS = re.compile(r"^\s*\[(\d+)\]\s+(\d+) responses", re.M)
_RPS = re.compile(r"Requests/sec:\s+([\d.]+)")


def hey(base_url: str, request: Request, rate: float, duration: float, concurrency: int = HEY_CONCURRENCY) -> Latency:
    """Latency at a fixed total rate: hey's -q is per worker, so each of `concurrency` gets rate/concurrency."""
    with tempfile.NamedTemporaryFile("wb", suffix=".body", delete=False) as handle:
        handle.write((request.body or "").encode("utf-8"))
        body_path = handle.name
    headers = [
        item
        for name, value in request.headers.items()
        if name.lower() != "content-type"
        for item in ("-H", f"{name}: {value}")
    ]
    content_type = request.headers.get("Content-Type", "application/json")
    command = [
        "hey",
        "-z",
        f"{max(1, round(duration))}s",
        "-c",
        str(concurrency),
        "-q",
        f"{max(rate / concurrency, 0.1):.2f}",
        "-t",
        "10",
        "-m",
        request.method,
        "-T",
        content_type,
        *headers,
        *(["-D", body_path] if request.body is not None else []),
        base_url + request.path,
    ]
    try:
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=duration + GRACE)
        except subprocess.TimeoutExpired:
            raise LoadError(f"hey did not finish within {duration + GRACE:.0f} s") from None
    finally:
        Path(body_path).unlink()
    percentiles = {int(p): float(s) * 1000 for p, s in _PERCENTILE.findall(done.stdout)}
    rps = _RPS.search(done.stdout)
    if done.returncode != 0 or 99 not in percentiles or rps is None:
        raise LoadError(f"hey failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()[-2000:]}")
    statuses = {code: int(n) for code, n in _STATUS.findall(done.stdout)}
    errors_section = done.stdout.split("Error distribution:", 1)
    errors = (
        sum(int(n) for n in re.findall(r"^\s*\[(\d+)\]", errors_section[1], re.M)) if len(errors_section) == 2 else 0
    )
    return Latency(
        rate_asked=round(rate, 1),
        rps=float(rps.group(1)),
        p50_ms=percentiles.get(50, 0.0),
        p90_ms=percentiles.get(90, 0.0),
        p99_ms=percentiles[99],
        statuses=statuses,
        errors=errors,
    )
