"""The long-running commands: `serve` (the web server, with the worker unless told not) and `worker`."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import NoReturn, TypeVar
from urllib.parse import urlsplit

import click

from .. import bridge, close, origins, release, serving, worker
from ..db import db
from ..demo import setup
from ..notifications import dispatcher
from .common import load_app

T = TypeVar("T")

# The granian processes' settings, from `serve` to each process's app (checkout.cli.serve:web_app).
SETTINGS = "CHECKOUT_SERVE_SETTINGS"
BACKPRESSURE = 8192  # requests one granian process takes at once: above any crowd of slow clients
STOP_AFTER = 10  # seconds a serving process has to finish its requests once serve is told to stop


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, type=int, show_default=True)
@click.option("--no-worker", is_flag=True, help="Do not run the worker beside the server.")
@click.option(
    "--server",
    type=click.Choice(["granian", "waitress"]),
    default="granian",
    show_default=True,
    help="granian: Rust, asynchronous, processes of their own; waitress: one Python process.",
)
@click.option(
    "--workers", default=1, type=click.IntRange(min=1), show_default=True, help="granian's serving processes."
)
@click.option("--threads", default=8, type=int, show_default=True, help="Threads running requests, per process.")
@click.option(
    "--connections-per-address",
    default=None,
    type=click.IntRange(min=0),
    help=f"waitress only: open connections one IPv4 address or IPv6 /64 may hold; 0: no bound (behind a proxy). "
    f"[default: {serving.CONNECTIONS_PER_ADDRESS}]",
)
@click.option(
    "--header-timeout",
    default=serving.HEADER_TIMEOUT,
    type=click.FloatRange(min=0, min_open=True),
    show_default=True,
    help="Seconds from a request's first byte to the end of its headers.",
)
@click.option(
    "--request-timeout",
    default=serving.REQUEST_TIMEOUT,
    type=click.FloatRange(min=0, min_open=True),
    show_default=True,
    help="Seconds a request's body may take: from the end of its headers (granian), from its first byte (waitress).",
)
def serve(
    host: str,
    port: int,
    no_worker: bool,
    server: str,
    workers: int,
    threads: int,
    connections_per_address: int | None,
    header_timeout: float,
    request_timeout: float,
):
    """Apply migrations, then serve the app (with granian unless told otherwise) and run the worker beside it."""
    if server == "granian" and connections_per_address is not None:
        raise click.UsageError("--connections-per-address bounds waitress's connections: use it with --server waitress")
    if server == "granian" and header_timeout > 60:
        raise click.UsageError("granian waits 60 seconds at most for a request's headers: --header-timeout 60 or less")
    check_port(host, port)
    log_to_stderr()
    # Under granian the worker is a process of its own, with its own connections: none of a serving process's.
    worker_thread = server == "waitress" and not no_worker
    web = {"DATABASE_THREADS": threads, "DATABASE_WORKER": worker_thread, "DATABASE_APPLICATION_NAME": "checkout-web"}
    if server == "waitress":
        app = load_app(migrate=True, overrides=web)
        echo_budget()
        listening(app, host, port)
        bounds = serving.Bounds(
            per_address=serving.CONNECTIONS_PER_ADDRESS if connections_per_address is None else connections_per_address,
            header_timeout=header_timeout,
            request_timeout=request_timeout,
            max_body=app.config["MAX_CONTENT_LENGTH"],
        )
        # Bound before anything is announced or started, so that a busy port is one line, not a traceback.
        waitress = bind_or_exit(app, host=host, port=port, threads=threads, bounds=bounds)
        announce(app, host, port)
        running = None if no_worker else worker.start_thread(app)
        try:
            waitress.print_listen("Serving on http://{}:{}")
            waitress.run()
        finally:
            if running is not None:
                running[1].set()  # the worker's round ends, then its thread
                # A round may wait on its deliveries this long: its sending threads are closed only after it.
                running[0].join(timeout=dispatcher.GIVE_UP_AFTER + dispatcher.ROUND_WAIT + 1)
            close(app)
        return
    # granian's processes start from this one, which only migrates, provisions and announces, in a thread
    # whose end closes the connections it kept: none is left open here, or copied into a serving process.
    served, demo = in_a_thread(lambda: prepare(web, host, port, workers))
    os.environ[SETTINGS] = json.dumps(
        {
            "config": {**web, **served},
            "demo": demo,
            "threads": threads,
            "request_timeout": request_timeout,
            "serve": os.getpid(),
        }
    )
    beside = None if no_worker else start_worker_process(served)
    try:
        serve_with_granian(host, port, workers, header_timeout)
    finally:
        if beside is not None:
            stop_worker_process(beside)


def listening(app, host: str, port: int) -> dict:
    """What the app must know of where the service listens (set in its config), as settings for another's."""
    # Left unset, CHECKOUT_PRIVATE_TARGETS follows where we listen: loopback only is a developer's machine.
    # Behind a reverse proxy (CHECKOUT_PUBLIC_URL on another host) a loopback listener serves the world.
    public = urlsplit(app.config["PUBLIC_URL"] or "http://localhost").hostname or ""
    app.config["LISTENS_ON_LOOPBACK_ONLY"] = origins.is_loopback(host) and origins.is_loopback(public)
    if not app.config["PUBLIC_URL"] and host not in ("0.0.0.0", "::", ""):  # noqa: S104 (a comparison)
        # Page POSTs are trusted from the address we were told to listen on (and loopback), never from
        # whatever Host a request names.
        app.config["SERVED_ORIGINS"] = [origins.origin(f"http://{'[' + host + ']' if ':' in host else host}:{port}")]
    return {key: app.config[key] for key in ("LISTENS_ON_LOOPBACK_ONLY", "SERVED_ORIGINS") if key in app.config}


def prepare(web: dict, host: str, port: int, workers: int) -> tuple[dict, dict | None]:
    """Before granian serves: the migrations, the budget, the demo provisioned and the addresses announced;
    then every connection this app opened closed. Answers the listening settings (`listening`) and where
    the demo is (`announce`)."""
    app = load_app(migrate=True, overrides=web)
    try:
        echo_budget(f" in each of {workers} serving processes" if workers > 1 else " in the serving process")
        served = listening(app, host, port)
        demo = announce(app, host, port)
    finally:
        close(app)
        release(app)
    return served, demo


def in_a_thread(work: Callable[[], T]) -> T:
    """`work`'s answer (or its exception), done in a thread of its own that has ended when this returns."""
    done: list = []

    def run() -> None:
        try:
            done.append((True, work()))
        except BaseException as error:  # re-raised in the caller: a ClickException ends the command as usual
            done.append((False, error))

    thread = threading.Thread(target=run, name="checkout-prepare")
    thread.start()
    thread.join()
    ok, value = done[0]
    if not ok:
        raise value
    return value


def announce(app, host: str, port: int) -> dict | None:
    """The service's, the demo's (provisioned in a sandbox) and the dashboard's addresses, on standard error;
    answers where the demo is and the service it calls (None: no demo, the sandbox is off)."""
    assert db.engine is not None  # load_app() initialised it
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)  # noqa: S104 (a comparison, no bind)
    service_url = (app.config["PUBLIC_URL"] or f"http://{local}:{port}").rstrip("/")
    click.echo(
        f"checkout listening on http://{local}:{port} "
        f"(database: {db.engine.url.render_as_string(hide_password=True)}, "
        f"sandbox: {'on' if app.config['SANDBOX'] else 'off'})",
        err=True,
    )
    if app.config["SANDBOX"]:
        # Another host name than the service's, so that the demo frames checkout's pages cross-site.
        demo_url = os.environ.get("CHECKOUT_DEMO_URL") or f"http://localhost:{port}/demo"
        setup.provision(app, service_url, demo_url)
        # The printed address frames the pages cross-site, as a merchant's shop would; the others work too.
        path = urlsplit(demo_url).path.rstrip("/")
        also = [o + path for o in setup.demo_origins(demo_url) if not demo_url.startswith(o + "/")]
        others = f" (also at {', '.join(also)})" if also else ""
        click.echo(f"merchant demo: {demo_url}{others}", err=True)
    click.echo(f"dashboard: {service_url}/dashboard", err=True)
    sys.stderr.flush()
    return {"service_url": service_url, "demo_url": demo_url} if app.config["SANDBOX"] else None


def serve_with_granian(host: str, port: int, workers: int, header_timeout: float) -> None:
    """granian's processes, each an app of its own behind the bridge (web_app), until a signal stops them."""
    from granian.constants import HTTPModes, Interfaces, Loops
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import Server

    serving.raise_descriptor_limit(BACKPRESSURE + 512)  # every request granian may take at once has its socket
    server = Server(
        "checkout.cli.serve:web_app",
        factory=True,
        address=host,
        port=port,
        interface=Interfaces.ASGINL,
        http=HTTPModes.http1,
        websockets=False,
        workers=workers,
        loop=Loops.asyncio,
        backlog=2048,
        backpressure=BACKPRESSURE,
        http1_settings=HTTP1Settings(header_read_timeout=max(1, round(header_timeout * 1000))),
        log_level=LogLevels.warning,
        respawn_failed_workers=True,  # a serving process that dies is replaced, the others serve meanwhile
        workers_kill_timeout=STOP_AFTER,
    )
    local = f"[{host}]" if ":" in host else host
    click.echo(f"Serving on http://{local}:{port}", err=True)
    server.serve()


def web_app() -> bridge.Bridge:
    """One granian process's app: the settings `serve` left in the environment, the app behind the bridge."""
    settings = json.loads(os.environ[SETTINGS])
    die_with_parent(signal.SIGKILL, settings["serve"])  # serve gone (kill -9 included): no orphan keeps its port
    log_to_stderr()
    app = load_app(overrides=settings["config"])
    if settings["demo"] is not None:
        setup.attach(app, **settings["demo"])
    return bridge.Bridge(
        app,
        threads=settings["threads"],
        max_body=app.config["MAX_CONTENT_LENGTH"],
        body_timeout=settings["request_timeout"],
    )


def start_worker_process(served: dict) -> multiprocessing.process.BaseProcess:
    """The worker as a process of its own beside granian's (started fresh: nothing of this one is shared);
    `served`: what its app must know of where the service listens (which notification targets it may reach)."""
    process = multiprocessing.get_context("spawn").Process(
        target=run_worker_process, args=(served, os.getpid()), name="checkout-worker"
    )
    process.start()
    return process


def die_with_parent(sent: signal.Signals, parent: int) -> None:
    """Linux: this process is sent `sent` when `parent`, the process that started it, ends, however it ends;
    if it has already ended, now. (Elsewhere, nothing.)"""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, sent)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os.kill(os.getpid(), sent)


def stop_worker_process(process: multiprocessing.process.BaseProcess) -> None:
    if process.pid is not None and process.is_alive():
        os.kill(process.pid, signal.SIGTERM)
    # A round may wait on its deliveries this long: its sending threads are closed only after it.
    process.join(timeout=dispatcher.GIVE_UP_AFTER + dispatcher.ROUND_WAIT + 2)
    if process.is_alive():
        process.kill()
        process.join(5)


def run_worker_process(served: dict, serve: int) -> None:
    """The worker process's life: its rounds until `serve` stops (or dies: Linux then sends it SIGTERM)."""
    die_with_parent(signal.SIGTERM, serve)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())  # a terminal's Ctrl-C reaches the whole group
    log_to_stderr()
    alone = {"DATABASE_THREADS": 0, "DATABASE_WORKER": True, "DATABASE_APPLICATION_NAME": "checkout-worker"}
    app = load_app(overrides={**alone, **served})
    try:
        worker.run(app, stop)
    finally:
        close(app)


def check_port(host: str, port: int) -> None:
    """Before the migrations and their log lines: a port another program holds ends the command with one line
    and exit code 2. (bind_or_exit still decides: the port may be taken between the two.)"""
    try:
        for family, kind, proto, _, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress binds
                probe.bind(address)
    except OSError as error:
        refuse(error, host, port)


def bind_or_exit(app, *, host: str, port: int, threads: int, bounds: serving.Bounds):
    """The listening server; a port already taken (or refused) ends the command with one line and exit code 2."""
    try:
        return serving.create(app, host=host, port=port, threads=threads, bounds=bounds)
    except OSError as error:
        close(app)
        refuse(error, host, port)


def refuse(error: OSError, host: str, port: int) -> NoReturn:
    if error.errno == errno.EADDRINUSE:
        message = f"port {port} is in use: choose another with --port"
    elif error.errno == errno.EACCES:
        message = f"port {port} is not allowed to this user: choose another with --port"
    else:
        message = f"cannot listen on {host}:{port}: {error.strerror or error}"
    click.echo(message, err=True)
    sys.exit(2)


def echo_budget(where: str = "") -> None:
    """One line on standard error: the most PostgreSQL connections this process opens (or, `where` says,
    each process serving like it), and how they split."""
    if db.budget is not None:
        click.echo(db.budget.describe() + where, err=True)


def log_to_stderr() -> None:
    """One line per event on standard error (refused requests, worker faults), for serve and worker."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@click.command("worker")
@click.option("--interval", default=1.0, type=float, show_default=True, help="Seconds to rest when idle.")
def worker_command(interval: float):
    """Run the worker alone (scheduled payout steps), until interrupted."""
    log_to_stderr()
    alone = {"DATABASE_THREADS": 0, "DATABASE_WORKER": True, "DATABASE_APPLICATION_NAME": "checkout-worker"}
    app = load_app(migrate=True, overrides=alone)
    echo_budget()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    click.echo("checkout worker running", err=True)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            worker.run(app, stop, interval)
    finally:
        close(app)
