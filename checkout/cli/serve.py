"""The long-running commands: `serve` (the web server, with the worker unless told not) and `worker`."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import signal
import socket
import sys
import threading
from typing import NoReturn
from urllib.parse import urlsplit

import click

from .. import close, origins, serving, worker
from ..db import db
from ..demo import setup
from ..notifications import dispatcher
from .common import load_app


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, type=int, show_default=True)
@click.option("--no-worker", is_flag=True, help="Do not run the worker in this process.")
@click.option("--threads", default=8, type=int, show_default=True)
@click.option(
    "--connections-per-address",
    default=serving.CONNECTIONS_PER_ADDRESS,
    type=click.IntRange(min=0),
    show_default=True,
    help="Open connections one IPv4 address or IPv6 /64 may hold; 0: no bound (behind a proxy).",
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
    help="Seconds from a request's first byte to the end of its body.",
)
def serve(
    host: str,
    port: int,
    no_worker: bool,
    threads: int,
    connections_per_address: int,
    header_timeout: float,
    request_timeout: float,
):
    """Apply migrations, then serve the app with waitress."""
    check_port(host, port)
    log_to_stderr()
    web = {"DATABASE_THREADS": threads, "DATABASE_WORKER": not no_worker, "DATABASE_APPLICATION_NAME": "checkout-web"}
    app = load_app(migrate=True, overrides=web)
    echo_budget()
    # Left unset, CHECKOUT_PRIVATE_TARGETS follows where we listen: loopback only is a developer's machine.
    # Behind a reverse proxy (CHECKOUT_PUBLIC_URL on another host) a loopback listener serves the world.
    public = urlsplit(app.config["PUBLIC_URL"] or "http://localhost").hostname or ""
    app.config["LISTENS_ON_LOOPBACK_ONLY"] = origins.is_loopback(host) and origins.is_loopback(public)
    if not app.config["PUBLIC_URL"] and host not in ("0.0.0.0", "::", ""):  # noqa: S104 (a comparison)
        # Page POSTs are trusted from the address we were told to listen on (and loopback), never from
        # whatever Host a request names.
        app.config["SERVED_ORIGINS"] = [origins.origin(f"http://{'[' + host + ']' if ':' in host else host}:{port}")]
    bounds = serving.Bounds(
        per_address=connections_per_address,
        header_timeout=header_timeout,
        request_timeout=request_timeout,
        max_body=app.config["MAX_CONTENT_LENGTH"],
    )
    # Bound before anything is announced or started, so that a busy port is one line, not a traceback.
    server = bind_or_exit(app, host=host, port=port, threads=threads, bounds=bounds)
    running = None if no_worker else worker.start_thread(app)
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
    try:
        server.print_listen("Serving on http://{}:{}")
        server.run()
    finally:
        if running is not None:
            running[1].set()  # the worker's round ends, then its thread
            # A round may wait on its deliveries this long: its sending threads are closed only after it.
            running[0].join(timeout=dispatcher.GIVE_UP_AFTER + dispatcher.ROUND_WAIT + 1)
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


def echo_budget() -> None:
    """One line on standard error: the most PostgreSQL connections this process opens, and how they split."""
    if db.budget is not None:
        click.echo(db.budget.describe(), err=True)


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
