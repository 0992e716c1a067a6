"""`checkout serve` against slow clients, on granian and on waitress: headers and bodies under deadlines, a crowd
of sockets from one address beside everyone else (granian holds them all; waitress bounds an address), bodies over
the API's 1 MiB refused before they are read. Live servers on loopback, bounded traffic."""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import resource
import socket
import subprocess
import time

import pytest
import requests

from checkout import serving
from tests import processes

ATTACKER = "127.0.0.2"  # loopback answers from all of 127/8: the flood's one address, /healthz's is 127.0.0.1
TRICKLING = 4000
MIB = 1024 * 1024
TOO_LARGE = (400, {"code": 4001000, "msg": "invalid parameter", "data": {"err": "body: request body exceeds 1 MiB"}})
HEADER_TIMEOUT, REQUEST_TIMEOUT = 2, 4  # the quick server's, so that waiting for them stays short


@pytest.fixture(scope="module", params=["granian", "waitress"])
def server(request, tmp_path_factory):
    process, port, env, _ = processes.serve(tmp_path_factory.mktemp("serving"), "--server", request.param)
    yield port, env, request.param
    processes.stop(process)


@pytest.fixture
def served(server) -> int:
    return server[0]


@pytest.fixture
def kind(server) -> str:
    """The server `served` runs on."""
    return server[2]


@pytest.fixture(scope="module")
def payin_auth(server) -> str:
    """The Authorization header of a merchant created in the served database."""
    command = processes.checkout_command("merchants", "create", "--name", "Serving")
    created = subprocess.run(command, env=server[1], capture_output=True, timeout=60, check=True)
    credentials = json.loads(created.stdout)
    pair = f"{credentials['app_id']}:{credentials['security_key']}".encode()
    return "Basic " + base64.b64encode(pair).decode()


@pytest.fixture(scope="module", params=["granian", "waitress"])
def quick_server(request, tmp_path_factory):
    """A server whose deadlines are a few seconds, not the production tens."""
    timeouts = ("--header-timeout", str(HEADER_TIMEOUT), "--request-timeout", str(REQUEST_TIMEOUT))
    process, port, _, _ = processes.serve(tmp_path_factory.mktemp("quick"), "--server", request.param, *timeouts)
    yield port, request.param
    processes.stop(process)


@pytest.fixture
def quick(quick_server) -> int:
    return quick_server[0]


def _connect(port: int, source: str = "127.0.0.1", timeout: float = 5) -> socket.socket:
    sock = socket.socket()
    try:
        sock.settimeout(timeout)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
    except OSError:
        sock.close()
        raise
    return sock


def _answer(sock: socket.socket, within: float = 10) -> tuple[int, dict, bytes]:
    """One HTTP answer read off `sock` (status, headers, body by its Content-Length), within `within` seconds."""
    deadline = time.monotonic() + within
    data = b""
    while b"\r\n\r\n" not in data or len(data) < _expected_length(data):
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        assert chunk, f"closed after {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


def _expected_length(data: bytes) -> int:
    head, found, _ = data.partition(b"\r\n\r\n")
    if not found:
        return 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return len(data)


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed `sock` (read without waiting, nothing consumed)."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _envelope(answer: tuple[int, dict, bytes]) -> tuple[int, dict]:
    status, _, body = answer
    payload = json.loads(body)
    payload.pop("time", None)
    return status, payload


def _raise_descriptor_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"this process may open {hard} files, the flood needs {needed}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def test_healthz_answers_within_a_second_while_one_address_trickles_4000_sockets(served, kind):
    port = served
    _raise_descriptor_limit(TRICKLING + 1024)
    flood: list[socket.socket] = []
    # granian holds every socket without a thread: /healthz is asked from the crowd's own address too.
    # waitress bounds an address's connections (64), and so refuses that address's own /healthz.
    checkers = ["127.0.0.1", ATTACKER] if kind == "granian" else ["127.0.0.1"]
    try:
        opened_by = time.monotonic() + 60
        while len(flood) < TRICKLING and time.monotonic() < opened_by:
            flood.append(_connect(port, ATTACKER))
        assert len(flood) == TRICKLING
        # Each round every socket sends one more line of a request that never ends, inside the header deadline
        # over these few rounds: what acts is how the server holds them (and waitress's address bound).
        lines = [b"POST /api/payout HTTP/1.1\r\n", b"Host: x\r\n", *[b"X-Trickle: %d\r\n" % n for n in range(3)]]
        took = []
        for line in lines:
            round_ends = time.monotonic() + 1
            for sock in flood:
                with contextlib.suppress(OSError):
                    sock.send(line, socket.MSG_DONTWAIT)
            for source in checkers:
                started = time.monotonic()
                try:
                    with _connect(port, source) as sock:
                        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                        status = _answer(sock, within=3)[0]
                except (OSError, AssertionError) as error:
                    pytest.fail(f"/healthz from {source} unanswered beside {TRICKLING} trickling sockets: {error}")
                took.append(time.monotonic() - started)
                assert status == 200
            flood[0].settimeout(max(0.0, round_ends - time.monotonic()))
            with contextlib.suppress(TimeoutError, BlockingIOError):
                flood[0].recv(1, socket.MSG_PEEK)  # paces the rounds; the first socket is one the server holds
        assert max(took) < 1, f"/healthz took {max(took) * 1000:.0f} ms beside {TRICKLING} trickling sockets"
        held = [sock for sock in flood if not _closed_by_server(sock)]
        assert len(held) == (TRICKLING if kind == "granian" else serving.CONNECTIONS_PER_ADDRESS)
    finally:
        for sock in flood:
            sock.close()
    # Closed connections no longer count against the address: it is served again.
    answered_by = time.monotonic() + 10
    while True:
        with contextlib.suppress(OSError, AssertionError), _connect(port, ATTACKER) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _answer(sock, within=2)[0] == 200
            break
        assert time.monotonic() < answered_by, "the flood's address was not served again after it closed"


def _trickle(sock: socket.socket, lines, within: float) -> float:
    """Send `lines` one every half second until the server closes `sock`; how long that took."""
    started = time.monotonic()
    for line in lines:
        with contextlib.suppress(OSError):
            sock.sendall(line)
        sock.settimeout(0.5)
        try:
            if sock.recv(1024) == b"":
                return time.monotonic() - started
        except TimeoutError:
            pass  # still open: the next line
        except OSError:
            return time.monotonic() - started
        if time.monotonic() - started > within:
            break
    pytest.fail(f"still open after {time.monotonic() - started:.1f} s of trickling")


def _header_lines():
    yield b"POST /api/payout HTTP/1.1\r\n"
    for n in range(100):
        yield b"X-Trickle: %d\r\n" % n


def test_headers_still_arriving_after_the_header_deadline_are_cut(quick):
    with _connect(quick) as sock:
        took = _trickle(sock, _header_lines(), within=HEADER_TIMEOUT + 10)
    # The deadline is checked every two seconds (cleanup_interval).
    assert HEADER_TIMEOUT <= took < HEADER_TIMEOUT + 4


def test_a_body_still_arriving_after_the_request_deadline_is_cut(quick):
    head = b"POST /api/payout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n"
    with _connect(quick) as sock:
        took = _trickle(sock, itertools.chain([head], itertools.repeat(b" ", 900)), within=REQUEST_TIMEOUT + 10)
    assert REQUEST_TIMEOUT <= took < REQUEST_TIMEOUT + 4


def test_the_deadlines_run_from_each_request_not_from_the_connection(quick_server):
    quick, kind = quick_server
    with _connect(quick) as kept:
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _answer(kept)[0] == 200
        if kind == "granian":
            # granian waits for a connection's next request's headers as for its first's: a connection that
            # asks again within the deadline lives on past it, however many deadlines its life spans.
            for _ in range(4):
                time.sleep(HEADER_TIMEOUT * 0.6)
                kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                assert _answer(kept)[0] == 200
            return
        with _connect(quick) as other:  # once it is cut, the header deadline has passed for `kept` too
            _trickle(other, _header_lines(), within=HEADER_TIMEOUT + 10)
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _answer(kept)[0] == 200


@pytest.mark.parametrize("length", [MIB + 1, 4 * MIB, 64 * MIB])
def test_a_body_over_the_limit_is_answered_before_it_is_sent(served, length):
    with _connect(served) as sock:
        sock.sendall(
            b"POST /api/payout HTTP/1.1\r\nHost: x\r\nAppId: app\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % length
        )
        answer = _answer(sock)
        assert _envelope(answer) == TOO_LARGE
        assert answer[1]["connection"] == "close"


def test_a_payin_body_over_the_limit_is_answered_in_its_envelope_before_it_is_sent(served, payin_auth):
    with _connect(served) as sock:
        sock.sendall(
            b"POST /trade/pay HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (payin_auth.encode(), 2 * MIB)
        )
        assert _envelope(_answer(sock)) == (
            413,
            {
                "code": "40002",
                "msg": "Business Failed",
                "sub_code": "request-too-large",
                "sub_msg": "request body exceeds 1 MiB",
            },
        )


def test_a_body_over_the_limit_gets_no_100_continue(served):
    with _connect(served) as sock:
        sock.sendall(
            b"POST /api/payout HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (2 * MIB)
        )
        assert _envelope(_answer(sock)) == TOO_LARGE


def test_a_chunked_body_stops_at_the_limit(served):
    with _connect(served) as sock:
        sock.sendall(b"POST /api/payout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (64 * 1024, b" " * 64 * 1024)
        for _ in range(17):  # 1 MiB and 64 KiB, never the closing chunk
            sock.sendall(chunk)
        assert _envelope(_answer(sock)) == TOO_LARGE


def test_what_follows_a_refused_body_is_never_read_as_a_request(served):
    with _connect(served) as sock:
        smuggled = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        sock.sendall(b"POST /api/payout HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (2 * MIB, smuggled * 4))
        assert _envelope(_answer(sock)) == TOO_LARGE
        sock.settimeout(15)
        assert sock.recv(65536) == b""  # the answer to the POST, then the end: no answer to a smuggled GET


def test_the_rest_of_a_refused_body_is_read_and_dropped_not_reset(served):
    with _connect(served) as sock:
        sock.sendall(b"POST /api/payout HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (2 * MIB))
        assert _envelope(_answer(sock)) == TOO_LARGE
        sock.sendall(b" " * (2 * MIB))  # as a client that writes its whole body before it reads would
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(15)
        assert sock.recv(65536) == b""  # an orderly end, not a reset


def test_a_client_that_sends_the_whole_body_still_reads_the_answer(served):
    # The server reads and drops what the client goes on sending, so that closing does not reset the
    # connection under the answer before the client reads it.
    body = b" " * (2 * MIB)
    answer = requests.post(
        f"http://127.0.0.1:{served}/api/payout", data=body, headers={"Content-Type": "application/json"}, timeout=15
    )
    status = answer.status_code
    payload = {key: value for key, value in answer.json().items() if key != "time"}
    assert (status, payload) == TOO_LARGE


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("localhost", "localhost"),
    ],
)
def test_connections_count_against_an_address_or_its_ipv6_64(host, key):
    assert serving.address_key(host) == key
