"""The bridge between granian's ASGI and the WSGI app: bodies read whole first, under the deadline and the limit."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from flask import Flask, Response, request, stream_with_context

from checkout.bridge import Bridge

MAX_BODY = 1024


def _scope(method="POST", headers=(), path="/api/x", query=b"", root=""):
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": root + path,
        "root_path": root,
        "query_string": query,
        "headers": [(name.encode(), value.encode()) for name, value in headers],
        "client": ("203.0.113.9", "50264"),  # granian gives ports as text
        "server": ("127.0.0.1", "8000"),
    }


class Client:
    """The server's side of one request: the messages `receive()` hands out (then waits, as a client that
    sends no more), and the messages the app sent."""

    def __init__(self, *messages: dict):
        self.messages = list(messages)
        self.received = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        if self.received < len(self.messages):
            self.received += 1
            return self.messages[self.received - 1]
        await asyncio.Event().wait()  # nothing more arrives
        raise AssertionError("unreachable")

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])

    @property
    def body(self) -> bytes:
        return b"".join(message.get("body", b"") for message in self.sent[1:])


def _run(app, scope, client: Client, *, timeout: float = 5.0, seconds: float = 5.0):
    bridge = Bridge(app, threads=2, max_body=MAX_BODY, body_timeout=timeout, linger=0.2)
    asyncio.run(asyncio.wait_for(bridge(scope, client.receive, client.send), seconds))
    return bridge


class Echo:
    """A WSGI app that answers what it was given: its environ and the body it read."""

    def __init__(self):
        self.environ: dict = {}
        self.body = b""

    def __call__(self, environ, start_response):
        self.environ = environ
        length = int(environ.get("CONTENT_LENGTH") or 0)
        self.body = environ["wsgi.input"].read(length) if length <= MAX_BODY else b""
        status = "413 Request Entity Too Large" if length > MAX_BODY else "200 OK"
        answer = b"read %d" % len(self.body)
        start_response(status, [("Content-Type", "text/plain"), ("Content-Length", str(len(answer)))])
        return [answer]


def test_a_request_reaches_the_app_as_pep_3333_says():
    app = Echo()
    scope = _scope(
        method="GET",
        headers=[("Content-Type", "text/plain"), ("X-Forwarded-For", "a"), ("x-forwarded-for", "b"), ("Cookie", "a=1")],
        path="/pages/pay",
        query=b"token=t&x=%C3%A9",
        root="/mount",
    )
    scope["headers"] = [(name.lower(), value) for name, value in scope["headers"]] + [
        (b"cookie", b"b=2"),
        (b"x_forwarded_for", b"spoofed"),  # passes for the proxy's header once `_` and `-` are one: dropped
    ]
    client = Client()
    _run(app, scope, client)
    environ = app.environ
    assert (environ["REQUEST_METHOD"], environ["SCRIPT_NAME"], environ["PATH_INFO"]) == ("GET", "/mount", "/pages/pay")
    assert environ["QUERY_STRING"] == "token=t&x=%C3%A9"
    assert (environ["REMOTE_ADDR"], environ["REMOTE_PORT"]) == ("203.0.113.9", "50264")
    assert (environ["SERVER_NAME"], environ["SERVER_PORT"], environ["SERVER_PROTOCOL"]) == (
        "127.0.0.1",
        "8000",
        "HTTP/1.1",
    )
    assert environ["CONTENT_TYPE"] == "text/plain"
    assert environ["HTTP_X_FORWARDED_FOR"] == "a,b"
    assert environ["HTTP_COOKIE"] == "a=1; b=2"
    assert client.received == 0  # no body announced: none waited for
    assert (client.status, client.headers[b"content-length"], client.body) == (200, b"6", b"read 0")
    assert client.sent[-1].get("more_body", False) is False


def test_a_body_is_read_whole_before_the_app_runs():
    app = Echo()
    client = Client(
        {"type": "http.request", "body": b"ab", "more_body": True},
        {"type": "http.request", "body": b"cd", "more_body": True},
        {"type": "http.request", "body": b"", "more_body": False},
    )
    _run(app, _scope(headers=[("content-length", "4")]), client)
    assert app.body == b"abcd"
    assert (client.status, client.body) == (200, b"read 4")


def test_a_body_over_the_limit_by_its_length_is_never_read_and_its_rest_is_dropped():
    app = Echo()
    rest = [{"type": "http.request", "body": b"x" * 512, "more_body": True}] * 3
    client = Client(*rest, {"type": "http.request", "body": b"", "more_body": False})
    _run(app, _scope(headers=[("content-length", str(MAX_BODY + 1))]), client)
    assert app.environ["CONTENT_LENGTH"] == str(MAX_BODY + 1)
    assert app.body == b""
    assert (client.status, client.headers[b"connection"]) == (413, b"close")
    assert client.received == 4  # read and dropped after the answer, so that its sender reads the answer


def test_a_chunked_body_over_the_limit_is_told_to_the_app_by_what_came():
    app = Echo()
    client = Client(*[{"type": "http.request", "body": b"y" * 400, "more_body": True}] * 3)
    _run(app, _scope(headers=[("transfer-encoding", "chunked")]), client)
    assert app.environ["CONTENT_LENGTH"] == "1200"
    assert "HTTP_TRANSFER_ENCODING" not in app.environ
    assert (client.status, client.headers[b"connection"]) == (413, b"close")


def test_a_body_past_its_deadline_is_answered_408_and_the_app_never_runs():
    app = Echo()
    client = Client({"type": "http.request", "body": b"a", "more_body": True})  # then nothing
    _run(app, _scope(headers=[("content-length", "10")]), client, timeout=0.2)
    assert app.environ == {}
    assert (client.status, client.headers, client.body) == (
        408,
        {b"connection": b"close", b"content-length": b"0"},
        b"",
    )


def test_a_client_gone_mid_body_gets_nothing_and_the_app_never_runs():
    app = Echo()
    client = Client({"type": "http.request", "body": b"a", "more_body": True}, {"type": "http.disconnect"})
    _run(app, _scope(headers=[("content-length", "10")]), client)
    assert (app.environ, client.sent) == ({}, [])


class Stream:
    """A streamed answer (an export): chunks produced one by one, each only once the previous was sent."""

    def __init__(self, chunks: int, gate: threading.Event | None = None):
        self.chunks, self.gate = chunks, gate
        self.produced = 0
        self.closed = False

    def __call__(self, environ, start_response):
        start_response("200 OK", [("Content-Type", "text/csv")])
        return self

    def __iter__(self):
        for n in range(self.chunks):
            if n and self.gate is not None:
                assert self.gate.wait(5)
                self.gate.clear()
            self.produced += 1
            yield b"row %d\n" % n

    def close(self):
        self.closed = True


def test_a_streamed_answer_is_sent_chunk_by_chunk_and_closed():
    app = Stream(3)
    client = Client()
    _run(app, _scope(method="GET"), client)
    assert [m.get("body") for m in client.sent[1:]] == [b"row 0\n", b"row 1\n", b"row 2\n", b""]
    assert [m.get("more_body", False) for m in client.sent[1:]] == [True, True, True, False]
    assert app.closed


def test_a_streamed_answer_that_fails_midway_is_never_ended_as_if_whole():
    """An export whose query fails after its first rows: no last message goes out, and the error reaches the
    server, which ends the connection without the chunked body's terminator (granian 2.8 does: the client
    reads a broken download, curl's exit 18, never a short file that looks complete)."""
    closed = []

    class Failing:
        def __init__(self, environ, start_response):
            start_response("200 OK", [("Content-Type", "text/csv")])

        def __iter__(self):
            yield b"a,b\n"
            yield b"1,2\n"
            raise RuntimeError("the database went away")

        def close(self):
            closed.append(True)

    client = Client()
    with pytest.raises(RuntimeError, match="went away"):
        _run(Failing, _scope(method="GET"), client)
    assert [(m.get("body"), m.get("more_body", False)) for m in client.sent[1:]] == [
        (b"a,b\n", True),
        (b"1,2\n", True),
    ]
    assert closed == [True]


def test_a_streamed_answer_stops_being_pulled_once_its_client_left():
    gate = threading.Event()
    app = Stream(1000, gate)
    client = Client({"type": "http.disconnect"})
    original = client.send

    async def send(message):
        await original(message)
        if len(client.sent) == 2:
            await asyncio.sleep(0.05)  # the disconnect is noticed before the next chunk is asked for
        gate.set()

    client.send = send  # type: ignore[method-assign]
    _run(app, _scope(method="GET"), client)
    assert app.produced < 5
    assert app.closed


@pytest.mark.parametrize("kind", ["lifespan", "websocket"])
def test_other_scopes_are_left_alone(kind):
    client = Client()
    asyncio.run(
        Bridge(Echo(), threads=1, max_body=MAX_BODY, body_timeout=1)({"type": kind}, client.receive, client.send)
    )
    assert client.sent == []


def test_bodies_held_at_once_past_the_budget_are_answered_503_and_the_budget_comes_back():
    app = Echo()
    bridge = Bridge(app, threads=2, max_body=MAX_BODY, body_timeout=5, linger=0.2, body_budget=1000)

    async def two_at_once():
        slow = Client({"type": "http.request", "body": b"a" * 600, "more_body": True})  # then nothing more
        other = Client({"type": "http.request", "body": b"b" * 600, "more_body": False})
        holding = asyncio.ensure_future(bridge(_scope(headers=[("content-length", "700")]), slow.receive, slow.send))
        await asyncio.sleep(0.05)
        assert bridge.buffered == 600
        await bridge(_scope(headers=[("content-length", "600")]), other.receive, other.send)
        assert (other.status, other.headers[b"retry-after"], other.headers[b"connection"]) == (503, b"1", b"close")
        assert app.environ == {}  # the app never ran for it
        holding.cancel()  # the slow client's request ends (granian cancels it when the client goes)
        with pytest.raises(asyncio.CancelledError):
            await holding
        assert bridge.buffered == 0
        answered = Client({"type": "http.request", "body": b"c" * 600, "more_body": False})
        await bridge(_scope(headers=[("content-length", "600")]), answered.receive, answered.send)
        assert (answered.status, answered.body, bridge.buffered) == (200, b"read 600", 0)

    asyncio.run(asyncio.wait_for(two_at_once(), 5))


def test_streamed_answers_at_once_keep_their_context_to_the_end():
    """Flask's stream_with_context makes the request's context on the thread that pulls the first chunk and
    undoes it where the last is pulled: each stream is pulled by one thread, however many run at once."""
    app = Flask(__name__)
    closed: list[str] = []

    @app.get("/export")
    def export():
        def rows():
            try:
                for n in range(5):
                    time.sleep(0.01)  # the other streams' turns come in between
                    yield f"{request.args['name']} {n}\n"
            finally:
                closed.append(request.args["name"])

        return Response(stream_with_context(rows()), mimetype="text/csv")

    bridge = Bridge(app.wsgi_app, threads=4, max_body=MAX_BODY, body_timeout=5)
    clients = [Client() for _ in range(4)]

    async def four_at_once():
        await asyncio.gather(
            *(
                bridge(_scope(method="GET", path="/export", query=f"name=s{n}".encode()), c.receive, c.send)
                for n, c in enumerate(clients)
            )
        )

    asyncio.run(asyncio.wait_for(four_at_once(), 10))
    for n, client in enumerate(clients):
        assert client.status == 200
        assert client.body == "".join(f"s{n} {row}\n" for row in range(5)).encode()
        assert client.sent[-1] == {"type": "http.response.body", "body": b""}
    assert sorted(closed) == ["s0", "s1", "s2", "s3"]
