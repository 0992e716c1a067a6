"""Changes heard from PostgreSQL: one LISTEN connection per process and database, so a value a request must
see as stored now (a merchant's keys) is read again only when a change to its row was announced."""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
import weakref
from typing import Any

from psycopg import pq
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from .engines import connect_args

log = logging.getLogger(__name__)

# Triggers (migration 0020) send `<table>:<id>` for a row changed or deleted, `<table>:*` for a whole table
# emptied, on this channel, at the commit of the transaction that changed it.
CHANNEL = "checkout_changes"
# How long the listening connection may sit silent before it is pinged, how long a ping may take to come back
# (else the session is taken as deaf and replaced), and the longest wait between two attempts to listen again.
PING_EVERY = 30.0
PING_WITHIN = 10.0
RETRY_AT_MOST = 30.0
# A ping is a notification the listener sends itself on the channel: only its coming back proves that the
# session still hears the channel (a server gone, a network dropping packets, a pooler that moved the session
# elsewhere). Every listener hears every process's pings; they name no row.
PING_PREFIX = "ping:"
# Past this many rows named since the last start, the listener forgets them all and starts a new epoch.
REMEMBERED = 100_000


class Changes:
    """The changes heard on one database by this process, as generations.

    A reader takes a `stamp()` before it reads a row and keeps it beside what it read; `unchanged(name,
    stamp)` later says whether that read is still the row as stored now: true only while the listener has
    listened without a break since the stamp (a session listens once a ping it sent itself came back), no
    change to the row has been heard since, and none is waiting on the connection's socket unread (its poll
    costs a system call, no round trip). A change committed by another process is therefore missed only
    while its notification is still inside the server, which sends it to the listening session as the
    change commits. False whenever in doubt: the caller reads the row.
    """

    def __init__(self, engine: Engine) -> None:
        self.url = engine.url
        self._lock = threading.Lock()
        self._pid = -1
        self._thread: threading.Thread | None = None
        self._fd = -1  # the listening socket, -1 while not listening
        self.backend_pid: int | None = None  # the listening session's in pg_stat_activity, None while not listening
        self._draining = False  # the listener is between taking notifications off the socket and noting them
        self._generation = 0
        self._epoch = 0  # stamps older than this were taken before the listener's last (re)start
        self._named: dict[str, int] = {}  # a row's name -> the generation its last change was heard at
        self._pings = 0
        self._awaited: str | None = None  # the ping on its way back

    def stamp(self) -> int | None:
        """The generation to keep with a read made from now on; None: not listening (read every time)."""
        self._start()
        if self._fd < 0:
            return None
        return self._generation

    def unchanged(self, name: str, since: int | None) -> bool:
        """True when no change to the row `name` (`<table>:<id>`) can have committed since `since` was taken."""
        if since is None or self._pid != os.getpid():
            return False
        fd = self._fd
        if fd < 0 or _readable(fd) or self._draining:
            return False
        # Read after the socket and the flag (under the GIL in that order): a change taken off the socket
        # before the poll was noted before the flag fell. A change heard before the stamp had committed before
        # it, so the read that followed saw it.
        table = name.split(":", 1)[0]
        named = self._named.get(name, -1) <= since and self._named.get(f"{table}:*", -1) <= since
        # The epoch last: it rises before names are forgotten, and before a session ends (its socket's number
        # may be a new session's by now, polled above while that one is not yet listening).
        return named and since >= self._epoch

    def listening(self, seconds: float) -> bool:
        """Start the listener if it is not, and wait at most `seconds` for it to listen."""
        deadline = time.monotonic() + seconds
        while self.stamp() is None:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def _start(self) -> None:
        if self._pid == os.getpid() and self._thread is not None:
            return
        with self._lock:
            if self._pid == os.getpid() and self._thread is not None:
                return
            self._pid = os.getpid()  # a forked child starts from nothing (_after_fork_in_child)
            self._thread = threading.Thread(target=self._listen, name="checkout-changes", daemon=True)
            self._thread.start()

    def _listen(self) -> None:
        engine: Engine | None = None
        wait = 1.0
        while True:
            connection: Any = None
            try:
                if engine is None:
                    engine = create_engine(self.url, poolclass=NullPool, connect_args=_listener_args(self.url))
                pooled = engine.raw_connection()
                connection = pooled.driver_connection
                pooled.detach()  # closed here, never returned to a pool
                connection.autocommit = True
                poller = select.poll()
                poller.register(connection.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
                self._run(connection, poller, f"LISTEN {CHANNEL}")
                self._ping(connection, poller)  # trusted only once it is seen to hear the channel
                with self._lock:
                    self._generation += 1
                    self._epoch = self._generation  # a read before this may have missed a change unheard
                    self._named.clear()
                    self._fd = connection.fileno()
                    self.backend_pid = connection.info.backend_pid
                wait = 1.0
                self._serve(connection, poller)
            except Exception as error:  # noqa: BLE001 (any failure: not listening, read every time, try again)
                log.warning("not listening for changes on the database (%s); reading every time meanwhile", error)
            finally:
                self._end()  # before the socket closes: its number may be the next connection's
                if connection is not None:
                    with contextlib.suppress(Exception):
                        connection.close()
            time.sleep(wait)
            wait = min(wait * 2, RETRY_AT_MOST)

    def _end(self) -> None:
        """No longer listening: nothing read before now is vouched for, whatever a reader already looked at
        (the epoch is what `unchanged` compares last)."""
        self._fd, self.backend_pid = -1, None
        self._generation += 1
        self._epoch = self._generation

    def _serve(self, connection: Any, poller: select.poll) -> None:
        while True:
            silent = not poller.poll(PING_EVERY * 1000)
            self._draining = True  # in doubt until what came is noted, or the ping is back
            try:
                if silent:
                    self._ping(connection, poller)
                else:
                    self._take(connection.pgconn)
            except BaseException:
                self._end()  # before the doubt falls
                raise
            finally:
                self._draining = False

    def _ping(self, connection: Any, poller: select.poll) -> None:
        """Send this session a notification and wait for it, at most PING_WITHIN seconds in all, else raise."""
        self._pings += 1
        self._awaited = f"{PING_PREFIX}{connection.info.backend_pid}:{self._pings}"
        deadline = time.monotonic() + PING_WITHIN
        self._run(connection, poller, f"NOTIFY {CHANNEL}, '{self._awaited}'", deadline)
        while self._awaited is not None:  # usually back with the answer already
            self._wait(poller, deadline)
            self._take(connection.pgconn)
        # What pg_stat_activity shows of the session: what it is for, not its last ping.
        self._run(connection, poller, f"LISTEN {CHANNEL}")

    def _run(self, connection: Any, poller: select.poll, sql: str, deadline: float | None = None) -> None:
        """One statement, its answer awaited until `deadline` at most (a server that stopped answering, however
        alive its socket looks); notifications that come meanwhile are noted."""
        deadline = time.monotonic() + PING_WITHIN if deadline is None else deadline
        pgconn = connection.pgconn
        pgconn.send_query(sql.encode())
        while self._take(pgconn):
            self._wait(poller, deadline)
        while (result := pgconn.get_result()) is not None:
            if result.status != pq.ExecStatus.COMMAND_OK:
                raise ConnectionError(f"{sql}: {result.error_message.decode(errors='replace').strip()}")

    def _wait(self, poller: select.poll, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(left * 1000):
            raise ConnectionError(f"the listening session did not answer within {PING_WITHIN:g} s")

    def _take(self, pgconn: Any) -> bool:
        """Note what arrived; True while an answer is still awaited."""
        pgconn.consume_input()
        if pgconn.status != pq.ConnStatus.OK:
            raise ConnectionError("the listening connection was closed")
        while (heard := pgconn.notifies()) is not None:
            self._heard(heard.extra.decode())
        return bool(pgconn.is_busy())

    def _heard(self, name: str) -> None:
        if name.startswith(PING_PREFIX):
            if name == self._awaited:
                self._awaited = None
            return
        self._generation += 1
        if len(self._named) >= REMEMBERED:
            # The epoch first: a reader that finds a name gone then finds its stamp too old (see unchanged).
            self._epoch = self._generation
            self._named.clear()
        self._named[name] = self._generation


def _listener_args(url: Any) -> dict:
    """The listening connection's connect arguments: the process's, and over TCP, unless the URL says
    otherwise, the kernel giving up on a peer that stopped answering (unacknowledged data, or silence past
    the keepalive probes) within about PING_WITHIN, so that a statement sent into a dead network fails."""
    found = connect_args(str(url))
    alive = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}
    if pq.version() >= 120000:  # libpq 12 first knew it
        alive["tcp_user_timeout"] = int(PING_WITHIN * 1000)
    return {name: value for name, value in alive.items() if name not in url.query} | found


def _readable(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


# Process-wide by nature: one listener per database a process reads (whichever app reads it), found from any
# engine on it by its pool.
_by_url: dict[str, Changes] = {}
_by_pool: weakref.WeakKeyDictionary[Any, Changes] = weakref.WeakKeyDictionary()
_registry_lock = threading.Lock()


def listen(engine: Engine) -> Changes:
    """Hear the changes on `engine`'s database (PostgreSQL) in this process: the listener starts with the
    first stamp taken. Engines on the same database share it."""
    key = engine.url.render_as_string(hide_password=False)
    with _registry_lock:
        changes = _by_url.get(key)
        if changes is None:
            changes = _by_url[key] = Changes(engine)
        _by_pool[engine.pool] = changes
    return changes


def heard_on(engine: Engine) -> Changes | None:
    """The listener of `engine`'s database if this process listens there (listen()), else None."""
    return _by_pool.get(engine.pool)


def _after_fork_in_child() -> None:
    global _registry_lock  # noqa: PLW0603 (the parent's may have been held by a thread the child has not)
    _registry_lock = threading.Lock()
    for changes in _by_url.values():
        # The parent's listener is not the child's (its socket not the child's to read or close): nothing it
        # heard vouches here until the child listens on a connection of its own.
        changes._lock = threading.Lock()
        changes._pid, changes._thread, changes._fd, changes._draining, changes.backend_pid = -1, None, -1, False, None


os.register_at_fork(after_in_child=_after_fork_in_child)
