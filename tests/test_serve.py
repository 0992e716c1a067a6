"""`checkout serve` against idle clients and hostile bodies: a live server on 127.0.0.1, bounded traffic."""

import contextlib
import json
import socket
import time

import pytest
import requests

from checkout import serving
from tests import processes

IDLE_CLIENTS = 300  # three times the old connection limit that 105 idle sockets exhausted


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    process, port, _, log = processes.serve(tmp_path_factory.mktemp("serve"))
    base = f"http://127.0.0.1:{port}"
    yield base, port, log
    processes.stop(process)


def test_serve_keeps_answering_with_many_idle_connections(served):
    base, port, _ = served
    idle = []
    try:
        for n in range(IDLE_CLIENTS):
            # From ten addresses, each under its own bound (one address alone is refused past its 64th).
            source = (f"127.0.1.{n % 10 + 1}", 0)
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=5, source_address=source))
        started = time.monotonic()
        answer = requests.get(f"{base}/healthz", timeout=10)
        took = time.monotonic() - started
        assert answer.status_code == 200
        assert took < 5, f"/healthz took {took * 1000:.0f} ms beside {IDLE_CLIENTS} idle connections"
    finally:
        for sock in idle:
            with contextlib.suppress(OSError):
                sock.close()


@pytest.fixture(scope="module")
def served_by_waitress(tmp_path_factory):
    process, port, _, log = processes.serve(tmp_path_factory.mktemp("serve-waitress"), "--server", "waitress")
    yield f"http://127.0.0.1:{port}", port, log
    processes.stop(process)


@pytest.mark.parametrize(
    ("server", "idle"),
    # granian waits for a connection's next request as for its first one's headers; waitress has an idle timeout.
    [("served", serving.HEADER_TIMEOUT), ("served_by_waitress", serving.IDLE_TIMEOUT)],
)
def test_an_idle_connection_is_closed_after_the_idle_timeout(server, idle, request):
    _, port, _ = request.getfixturevalue(server)
    with socket.create_connection(("127.0.0.1", port), timeout=idle + 10) as sock:
        # Silent between requests; one silent mid-request meets the header deadline (test_serving.py).
        sock.sendall(b"HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # an answer that ends with its headers
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            assert chunk, answer
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 ") and answer.endswith(b"\r\n\r\n")
        started = time.monotonic()
        assert sock.recv(1024) == b""  # closed by the server
        assert idle - 1 < time.monotonic() - started < idle + 5


@pytest.mark.parametrize("path", ["/api/payout", "/trade/pay"])
def test_deep_nesting_is_refused_in_the_envelope_with_one_log_line(served, path):
    base, _, log = served
    body = '{"amount": ' + "[" * 400 + "]" * 400 + "}"
    before = log.read_text().count("\n")
    headers = {"AppId": "app", "Authorization": "x", "Content-Type": "application/json"}
    if path == "/trade/pay":
        headers["Authorization"] = "Basic eDp5"
    answer = requests.post(base + path, data=body, headers=headers, timeout=10)
    assert answer.status_code == 400
    if path == "/api/payout":
        assert (answer.json()["code"], answer.json()["data"]) == (
            4001000,
            {"err": "body: request body nests deeper than 32 levels"},
        )
    else:  # payin checks the credentials before reading the body
        assert answer.json()["sub_code"] == "invalid-signature"
    deadline = time.monotonic() + 5
    while log.read_text().count("\n") == before and time.monotonic() < deadline:
        time.sleep(0.05)  # the log line is written by the server's thread
    time.sleep(0.2)  # and no second line follows it
    new = [line for line in log.read_text().splitlines()[before:] if "waitress" not in line]
    assert len(new) == 1 and f"refused POST {path}" in new[0], new
    assert "Traceback" not in log.read_text()


def test_the_limits_hold_many_descriptors():
    limits = serving.serving_limits()
    assert limits["asyncore_use_poll"] is True and limits["connection_limit"] >= 1000
    assert json.dumps(limits)  # plain values, as waitress takes them


def test_serve_prints_every_address_the_demo_opens_at(served):
    _, port, log = served
    line = f"merchant demo: http://127.0.0.1:{port}/demo (also at http://localhost:{port}/demo)"
    assert line in log.read_text()
