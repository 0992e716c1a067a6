"""waitress as `checkout serve` runs it: connections bounded per address, total deadlines for a request's headers and body, bodies over the app's limit refused unread."""

from __future__ import annotations

import contextlib
import functools
import logging
import resource
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from waitress.utilities import RequestEntityTooLarge

from checkout.origins import address_key

log = logging.getLogger(__name__)

# Idle or slow clients hold a socket, never a thread (waitress reads whole requests before handing them
# over), so what bounds them is how many sockets one address may keep and for how long. Behind a reverse
# proxy, the proxy's own limits come first (docs/operations.md).
IDLE_TIMEOUT = 15  # seconds a connection may stay silent, mid-request or between requests
CONNECTION_LIMIT = 4000  # all addresses together
CONNECTIONS_PER_ADDRESS = 64  # an IPv4 address, or an IPv6 /64
HEADER_TIMEOUT = 10  # seconds from a request's first byte to the end of its headers
REQUEST_TIMEOUT = 30  # seconds from a request's first byte to the end of its body
LINGER = 10  # seconds a refused body is still read and dropped, so that its sender reads the answer
# What waitress itself reads at most of a chunked body, chunk framing included: bodies past the app's
# own limit are refused before this, unread.
MAX_BODY = 4 * 1024 * 1024


@dataclass(frozen=True)
class Bounds:
    """What one server allows a client: connections per address (0: no bound), deadlines in seconds, and
    the app's body limit in bytes (None: waitress's MAX_BODY only)."""

    per_address: int = CONNECTIONS_PER_ADDRESS
    header_timeout: float = HEADER_TIMEOUT
    request_timeout: float = REQUEST_TIMEOUT
    max_body: int | None = None


def raise_descriptor_limit(wanted: int = CONNECTION_LIMIT + 512) -> int:
    """This process's soft limit of open files raised to `wanted` (or its hard limit) where it is lower: a
    socket is a file. Answers the soft limit now in force. (Processes started from this one inherit it.)"""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, wanted) if hard != resource.RLIM_INFINITY else wanted
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return soft


def serving_limits() -> dict:
    """waitress settings that hold under many idle and slow clients: poll() rather than select() (which
    stops at descriptor 1024), many connections, a short idle timeout checked often, a bounded body."""
    soft = raise_descriptor_limit()
    limit = CONNECTION_LIMIT if soft == resource.RLIM_INFINITY else max(64, min(CONNECTION_LIMIT, soft - 512))
    return {
        "asyncore_use_poll": True,
        "connection_limit": limit,
        "channel_timeout": IDLE_TIMEOUT,
        "cleanup_interval": 2,
        "max_request_body_size": MAX_BODY,
        "max_request_header_size": 64 * 1024,
    }


class _Addresses:
    """Open connections per address, shared by every listening socket of one server."""

    def __init__(self, limit: int):
        self.limit = limit
        self._held: dict[str, int] = {}
        self._warned: dict[str, float] = {}  # when each address was last logged as refused
        self._lock = threading.Lock()

    def admit(self, key: str) -> bool:
        with self._lock:
            held = self._held.get(key, 0)
            if self.limit and held >= self.limit:
                self._warn(key)
                return False
            self._held[key] = held + 1
            return True

    def release(self, key: str) -> None:
        with self._lock:
            held = self._held.pop(key, 1) - 1
            if held > 0:
                self._held[key] = held

    def _warn(self, key: str) -> None:
        # One line a minute per address, however fast it knocks.
        now = time.monotonic()
        if now - self._warned.get(key, -60.0) < 60:
            return
        self._warned = {k: at for k, at in self._warned.items() if now - at < 60}
        self._warned[key] = now
        log.warning("%s holds %d connections, its bound: closing its new ones at once", key, self.limit)


class _Request(HTTPRequestParser):
    """A request as waitress reads it, that knows when its first byte came and stops reading a body over
    the app's limit: the app then sees the length, no body, and answers its own 413 in its envelope."""

    # waitress's own attributes, declared for the type checker (annotations only: its defaults stay).
    completed: bool
    error: Exception | None
    body_rcv: Any

    def __init__(self, adj, max_body: int | None = None, on_refused: Callable[[], None] | None = None):
        super().__init__(adj)
        self.started = time.monotonic()
        self._max_body = max_body
        self._on_refused = on_refused

    def received(self, data: bytes) -> int:
        if self.completed:
            return 0
        consumed = super().received(data)
        if self._max_body is None or not self.headers_finished:
            return consumed
        body = self.body_rcv
        size = (len(body) if body is not None else 0) if self.chunked else self.content_length
        own_error = self.error is None or isinstance(self.error, RequestEntityTooLarge)
        if size <= self._max_body or not own_error:
            return consumed
        if body is not None:
            body.getbuf().close()
        self.body_rcv = None
        self.error = None
        self.completed = True
        self.expect_continue = False  # no "100 Continue": the answer comes now
        self.headers["CONTENT_LENGTH"] = str(size)
        self.headers["CONNECTION"] = "close"
        self.connection_close = True
        if self._on_refused is not None:
            self._on_refused()
        return len(data)  # the rest of this read is body: never parsed as another request


class _Channel(HTTPChannel):
    """A connection that counts against its address, drops what follows a refused body, and lingers
    after answering one so that the client's still-arriving body does not reset the answer away."""

    address: str | None = None
    discarding = False
    lingering = 0.0

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self.parser_class = functools.partial(_Request, max_body=server.bounds.max_body, on_refused=self._discard)

    def _discard(self) -> None:
        self.discarding = True

    def received(self, data: bytes) -> bool:
        if self.discarding:
            return True
        return super().received(data)

    def handle_close(self) -> None:
        answered = self.connected and not self.requests and not self.total_outbufs_len
        if self.discarding and not self.lingering and answered:
            try:
                self.socket.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # already gone: close it
            else:
                self.lingering = time.monotonic()
                self.will_close = self.close_when_flushed = False
                return
        super().handle_close()

    def del_channel(self, map=None) -> None:
        super().del_channel(map)
        if self.address is not None:
            self.server.addresses.release(self.address)
            self.address = None

    def overdue(self, moment: float, bounds: Bounds) -> bool:
        if self.lingering:
            return moment - self.lingering > LINGER
        request = self.request
        # A request read ahead while another is served waits for it: its time is not its client's.
        if not isinstance(request, _Request) or request.completed or self.requests:
            return False
        limit = bounds.request_timeout if request.headers_finished else bounds.header_timeout
        return moment - request.started > limit


class _Server(TcpWSGIServer):
    """One listening socket: accepts a connection only while its address holds fewer than its bound, and
    closes connections whose request is past its deadline besides idle ones."""

    channel_class = _Channel

    def __init__(self, *args, bounds: Bounds, addresses: _Addresses, **kw):
        self.bounds, self.addresses = bounds, addresses
        super().__init__(*args, **kw)

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
        except OSError:
            if self.adj.log_socket_errors:
                self.logger.warning("server accept() threw an exception", exc_info=True)
            return
        if pair is None:
            return
        conn, addr = pair
        key = address_key(str(addr[0]))
        if not self.addresses.admit(key):
            conn.close()
            return
        try:
            self.set_socket_options(conn)
            channel = self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        except OSError:  # gone before it was set up
            self.addresses.release(key)
            conn.close()
            return
        channel.address = key

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        moment = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, _Channel) and channel.overdue(moment, self.bounds):
                channel.will_close = True


def create(app, *, host: str, port: int, threads: int, bounds: Bounds):
    """waitress.create_server's work, with our server on each listening address."""
    adj = Adjustments(host=host, port=port, threads=threads, ident="checkout", **serving_limits())
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    addresses = _Addresses(bounds.per_address)
    sockets: dict = {}
    servers = [
        _Server(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=info, bounds=bounds, addresses=addresses)
        for info in adj.listen
    ]
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return MultiSocketServer(sockets, adj, listening, dispatcher, servers[-1].log_info)
