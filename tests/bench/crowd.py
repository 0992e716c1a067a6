"""A crowd beside a server: how long `/healthz` takes while one address holds thousands of connections that
each send one more header line now and then, never finishing a request (slowloris)."""

from __future__ import annotations

import contextlib
import errno
import resource
import socket
import time

import requests

SOCKETS = 4000
ROUNDS = 5  # one header line per socket a round, a round a second: inside every header deadline measured
OPEN_WITHIN = 15.0  # seconds to open the crowd; a server that stops accepting leaves the rest unopened
HEALTH_TIMEOUT = 5.0


def _room_for(count: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 1024
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted, hard)
        )


def _open(port: int, source: str, count: int) -> list[socket.socket]:
    crowd: list[socket.socket] = []
    deadline = time.monotonic() + OPEN_WITHIN
    while len(crowd) < count and time.monotonic() < deadline:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.setblocking(False)
        code = sock.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            break
        crowd.append(sock)
    return crowd


def _held(sock: socket.socket) -> bool:
    """Still open on the server's side: nothing to read, no end of file, no reset."""
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def healthz_beside(url: str, source: str, count: int = SOCKETS) -> dict:
    """`count` sockets from `source` (an address of 127.0.0.0/8) trickling header lines at the server of `url`,
    and `/healthz` asked from 127.0.0.1 each round: the times it took (or failed), and how many of the crowd
    the server still held at the end."""
    port = int(url.rsplit(":", 1)[1])
    _room_for(count)
    crowd = _open(port, source, count)
    took: list[float | None] = []
    try:
        lines = [b"POST /trade/query HTTP/1.1\r\n", b"Host: x\r\n", *[b"X-Trickle: %d\r\n" % n for n in range(ROUNDS)]]
        for line in lines[:ROUNDS]:
            round_ends = time.monotonic() + 1
            for sock in crowd:
                with contextlib.suppress(OSError):
                    sock.send(line, socket.MSG_DONTWAIT)
            started = time.monotonic()
            try:
                answered = requests.get(url + "/healthz", timeout=HEALTH_TIMEOUT).status_code == 200
            except requests.RequestException:
                answered = False
            took.append((time.monotonic() - started) * 1000 if answered else None)
            time.sleep(max(0.0, round_ends - time.monotonic()))  # the crowd's pace: a line a second
        held = sum(_held(sock) for sock in crowd)
    finally:
        for sock in crowd:
            sock.close()
    answered = [ms for ms in took if ms is not None]
    return {
        "source": source,
        "opened": len(crowd),
        "held_at_end": held,
        "healthz_ms": [None if ms is None else round(ms, 1) for ms in took],
        "worst_ms": round(max(answered), 1) if len(answered) == len(took) else None,
        "unanswered": len(took) - len(answered),
    }
