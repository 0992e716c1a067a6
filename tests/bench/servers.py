"""What a run serves from: fresh databases, and the candidate servers (`checkout serve` on granian, gunicorn,
granian's WSGI, waitress) serving the service and the bare app: one of them for the run's figures, each in
turn for the server comparison."""

from __future__ import annotations

import contextlib
import ctypes
import io
import json
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..processes import checkout_command, free_port, wait_until_ready

REPO = Path(__file__).resolve().parents[2]
# Production-like, and the same for every app a figure compares: two processes of four threads each.
# --reuse-port: without it the two workers race to accept wrk's keep-alive connections and one of them
# often ends up holding most of them for the whole run, so a run measured one core or two at random (the
# bare route gave 1,600 or 4,800 req/s from one 2-second run to the next; with it, 4,200-5,400).
GUNICORN = [
    "-w",
    "2",
    "-k",
    "gthread",
    "--threads",
    "4",
    "--reuse-port",
    "--timeout",
    "60",
    "--graceful-timeout",
    "10",
    "--log-level",
    "warning",
]
SECRET_KEY = "bench-secret-key-0123456789abcdef0123456789abcdef"
START_TIMEOUT = 60
STOP_TIMEOUT = 15


def _die_with_parent() -> None:
    """Linux: a server we started is told to stop if the harness itself is killed outright."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


# --- databases -----------------------------------------------------------------------------------------


@dataclass
class Database:
    kind: str  # sqlite or postgres
    url: str  # SQLAlchemy URL the service is given
    schema: str | None = None  # PostgreSQL: the run's own schema inside the given database
    admin_url: str | None = None

    @property
    def label(self) -> str:
        if self.kind == "sqlite":
            return "SQLite"
        return "PostgreSQL"

    def env(self) -> dict[str, str]:
        """The service's environment: this database, sandbox on, a fixed secret (tokens stay valid)."""
        env = {k: v for k, v in os.environ.items() if k != "CHECKOUT_PUBLIC_URL"}
        return {
            **env,
            "CHECKOUT_DATABASE_URL": self.url,
            "CHECKOUT_SANDBOX": "on",
            "CHECKOUT_PRIVATE_TARGETS": "allow",  # the benchmark's receiver is on 127.0.0.1
            "CHECKOUT_SECRET_KEY": SECRET_KEY,
        }

    def migrate(self) -> None:
        cli(self.env(), "db", "upgrade")

    def drop(self) -> None:
        if self.schema:
            with _admin(self.admin_url) as connection:
                connection.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def _admin(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=10)


def sqlite_database(folder: Path) -> Database:
    return Database("sqlite", f"sqlite:///{folder / 'bench.sqlite3'}")


def postgres_database(url: str) -> Database:
    """A fresh schema of its own inside the given database, first on the search path: as good as a fresh
    database, without dropping anything that others (tests running on the same database) may be using."""
    from sqlalchemy.engine import make_url

    base = make_url(url)
    schema = f"bench_{os.getpid()}_{secrets.token_hex(3)}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with _admin(admin) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    scoped = base.update_query_dict({"options": f"-csearch_path={schema}"})
    return Database("postgres", scoped.render_as_string(hide_password=False), schema=schema, admin_url=admin)


# --- the checkout command ------------------------------------------------------------------------------


def cli(env: dict, *args: str) -> str:
    done = subprocess.run(checkout_command(*args), env=env, cwd=REPO, capture_output=True, text=True, timeout=180)
    if done.returncode != 0:
        raise RuntimeError(f"checkout {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def _logo() -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (300, 100), (12, 92, 170))
    ImageDraw.Draw(image).text((24, 40), "BENCH SHOP", fill="white")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def create_merchant(database: Database, folder: Path) -> dict:
    """The benchmark merchant, made as an operator would (the CLI), with a logo like a real shop, and funded."""
    logo = folder / "logo.png"
    logo.write_bytes(_logo())
    env = database.env()
    credentials = json.loads(
        cli(
            env,
            "merchants",
            "create",
            "--name",
            "Bench Shop",
            "--logo",
            str(logo),
            "--document",
            "16727230000197",
            "--return-host",
            "shop.example",
        )
    )
    cli(env, "merchants", "fund", "--app-id", credentials["app_id"], "--currency", "USD", "--amount", "1000000.00")
    return credentials


# --- servers -------------------------------------------------------------------------------------------


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # each candidate's graceful stop of its processes
        try:
            self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            # Its own process group, started by us: the master and its workers, nothing else.
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)


@contextlib.contextmanager
def serve(
    command: Callable[[int], list[str]], name: str, ready_path: str, log: Path, env: dict | None = None
) -> Iterator[Server]:
    """`command(port)` as its own process group on a free port of 127.0.0.1, its output in `log`, from
    when `ready_path` answers until the block ends (also on errors)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as output:
        process = subprocess.Popen(
            command(port),
            env=env,
            cwd=REPO,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    server = Server(url, process, log)
    try:
        if not wait_until_ready(url + ready_path, process, START_TIMEOUT):
            raise RuntimeError(f"{name} did not start; see {log}:\n{log.read_text()[-3000:]}")
        yield server
    finally:
        server.stop()


# Two processes of four threads each, as gunicorn's; granian's own defaults otherwise: backpressure (requests a
# process takes at once) equals its blocking threads, and headers must arrive within 30 s.
GRANIAN = ["--interface", "wsgi", "--workers", "2", "--blocking-threads", "4", "--log-level", "warning"]
# The same, able to hold a crowd: backpressure above the crowd, headers within waitress's 10 s.
GRANIAN_CROWD = [*GRANIAN, "--backpressure", "8192", "--http1-header-read-timeout", "10000"]
# waitress as `checkout serve --server waitress` runs it: the service is that command itself (its 8 threads,
# bounds and deadlines), the bare app the same server (checkout.serving) around it.
SERVE_THREADS = 8
SERVICE_APP = "wsgi:app"
BARE_APP = "tests.bench.bare:app"
_WAITRESS = (
    "import sys; from importlib import import_module; from checkout import serving; "
    "module, _, name = sys.argv[2].partition(':'); "
    "serving.create(getattr(import_module(module), name), host='127.0.0.1', port=int(sys.argv[1]), "
    f"threads={SERVE_THREADS}, bounds=serving.Bounds()).run()"
)


def _waitress(app: str, port: int) -> list[str]:
    if app == SERVICE_APP:
        return checkout_command(
            "serve", "--server", "waitress", "--no-worker", "--host", "127.0.0.1", "--port", str(port)
        )
    return [sys.executable, "-c", _WAITRESS, str(port), app]


# `checkout serve` as it ships (granian's ASGI with the app behind checkout.bridge), at the others' size: two
# processes of four threads. The bare app is served behind the same bridge by granian with serve's settings.
SERVE = ["--workers", "2", "--threads", "4"]


def _serve(app: str, port: int) -> list[str]:
    if app == SERVICE_APP:
        return checkout_command("serve", *SERVE, "--no-worker", "--host", "127.0.0.1", "--port", str(port))
    return [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asginl",
        "--factory",
        "--workers",
        "2",
        "--backpressure",
        "8192",
        "--http1-header-read-timeout",
        "10000",
        "--log-level",
        "warning",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "tests.bench.bare:bridged",
    ]


def _granian(options: list[str]) -> Callable[[str, int], list[str]]:
    return lambda app, port: [
        sys.executable,
        "-m",
        "granian",
        *options,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        app,
    ]


CANDIDATES: dict[str, Callable[[str, int], list[str]]] = {
    "gunicorn": lambda app, port: [sys.executable, "-m", "gunicorn", *GUNICORN, "-b", f"127.0.0.1:{port}", app],
    "granian": _granian(GRANIAN),
    "granian-crowd": _granian(GRANIAN_CROWD),
    "checkout-serve": _serve,
    "waitress": _waitress,
}


def candidate(name: str, app: str, env: dict, ready_path: str, log: Path) -> contextlib.AbstractContextManager[Server]:
    """Serve `app` (module:variable) under the candidate server `name` on a free port until the block ends."""
    return serve(lambda port: CANDIDATES[name](app, port), f"{name} {app}", ready_path, log, env)


# What the run's figures are measured under, unless --server says otherwise: the server `checkout serve` runs,
# as it runs it (the figures before 2026-11-28 were gunicorn's).
MAIN = "checkout-serve"
DESCRIBED = {
    "checkout-serve": "checkout serve " + " ".join(SERVE) + " (granian's ASGI, the app behind checkout/bridge.py)",
    "gunicorn": "gunicorn " + " ".join(GUNICORN[:6]),
    "granian": "granian " + " ".join(GRANIAN[:6]),
    "granian-crowd": "granian " + " ".join(GRANIAN_CROWD[:6]) + " with the crowd settings",
    "waitress": f"waitress, {SERVE_THREADS} threads, as checkout serve --server waitress",
}
