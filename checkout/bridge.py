"""The WSGI app behind an ASGI server: each body read whole on the event loop, under a deadline and the app's limit, before a thread runs the app."""

from __future__ import annotations

import asyncio
import io
import queue
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

LINGER = 10.0  # seconds the rest of a refused body is still read and dropped, so that its sender reads the answer
# Bytes of bodies one process holds at once, read or being read, until their answers are sent: past it a
# request whose body arrives is answered 503 (Retry-After: 1) and closed. Bounds memory, which no bound per
# client does here: 8,192 requests at once, each up to the 1 MiB limit, would be 8 GiB.
BODY_BUDGET = 256 * 1024 * 1024
_DONE = object()  # a response iterable with no chunk left


class Bridge:
    """An ASGI application serving a WSGI one (`wsgi`) with `threads` threads.

    A body is read on the event loop before any thread sees the request, so a client that sends its body
    slowly holds a socket and no thread: `body_timeout` seconds from its headers to the end of its body, or
    it is answered 408 and closed. A body over `max_body` bytes is not read: the app sees its length and
    no body (it answers its own 413, in each API's envelope), and the rest is read and dropped for `linger`
    seconds, so that a client still sending reads the answer rather than a reset. Bodies held at once by the
    process count against `body_budget` bytes, by what has arrived. A streamed answer holds its thread until
    it ends or its client leaves (`_run`)."""

    def __init__(
        self,
        wsgi: Callable[..., Iterable[bytes]],
        *,
        threads: int,
        max_body: int,
        body_timeout: float,
        linger: float = LINGER,
        body_budget: int = BODY_BUDGET,
    ):
        self.wsgi, self.threads = wsgi, threads
        self.max_body, self.body_timeout, self.linger = max_body, body_timeout, linger
        self.body_budget = body_budget
        self.buffered = 0  # bytes of bodies held now (changed on the event loop only: no lock)
        self._threads: _Threads | None = None  # started in the serving process, on its first request

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # no websockets; lifespan events are not sent to this app
        if self._threads is None:
            self._threads = _Threads(self.threads, asyncio.get_running_loop())
        held = [0]  # bytes of this request's body counted in self.buffered
        try:
            body, length, state = await self._body(scope, receive, held)
            if state == "gone":
                return
            if state in ("late", "busy"):
                await _answer_empty(send, 408 if state == "late" else 503)
                return
            environ = _environ(scope, body, length)
            # What follows a refused body is no request: its answer closes the connection.
            relay = _Relay(self._threads.loop, receive, send, close=state == "too large")
            answered = await self._threads.run(_run, self.wsgi, environ, relay)
            if answered is not None:  # whole: sent from here (a streamed one was sent from its thread)
                status, headers, content = answered
                await send({"type": "http.response.start", "status": status, "headers": relay.headers(headers)})
                await send({"type": "http.response.body", "body": content})
            if state == "too large":
                await _drain(receive, self.linger)
        finally:
            self.buffered -= held[0]

    async def _body(self, scope: Scope, receive: Receive, held: list[int]) -> tuple[bytes, int | None, str]:
        """The body, the length the app is told (None: as the headers say), and "read", "too large", "late",
        "busy" (the process holds its budget of bodies) or "gone" (the client left). What arrives is added to
        the process's count and to `held`."""
        sized = chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                if value.isdigit() and int(value) > self.max_body:
                    return b"", None, "too large"  # refused by its length, unread
                sized = value.strip(b"0") != b""
            elif name == b"transfer-encoding":
                chunked = True
        if not (sized or chunked):
            return b"", None, "read"
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return b"", None, "gone"
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:  # a chunked body past the limit: the app is told what came
                        return b"", size, "too large"
                    if self.buffered + len(chunk) > self.body_budget:
                        return b"", None, "busy"
                    self.buffered += len(chunk)
                    held[0] += len(chunk)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks), None, "read"
        except TimeoutError:
            return b"", None, "late"


class _Threads:
    """The threads that run the app, each taking the next request from one queue and settling its future on
    the event loop. The hand-over is most of what the loop does for a cheap request: this costs about half of
    `run_in_executor`'s (no concurrent future to chain, no lock per request)."""

    def __init__(self, count: int, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._jobs: queue.SimpleQueue[tuple[asyncio.Future, Callable[..., Any], tuple]] = queue.SimpleQueue()
        # Daemons: a process that stops has sent every answer it will send (its loop has stopped); a request's
        # work cut short there is a transaction its database rolls back.
        for number in range(count):
            threading.Thread(target=self._take, name=f"checkout-web_{number}", daemon=True).start()

    def run(self, work: Callable[..., Any], *args: Any) -> asyncio.Future:
        future = self.loop.create_future()
        self._jobs.put((future, work, args))
        return future

    def _take(self) -> None:
        while True:
            future, work, args = self._jobs.get()
            try:
                result = work(*args)
            except BaseException as error:  # noqa: BLE001 (the request's task raises it, as run_in_executor would)
                self.loop.call_soon_threadsafe(_failed, future, error)
            else:
                self.loop.call_soon_threadsafe(_settled, future, result)
            del future, work, args  # not kept alive while this thread waits for the next


def _settled(future: asyncio.Future, result: Any) -> None:
    if not future.done():  # its request's task was cancelled (the server gave up on the connection)
        future.set_result(result)


def _failed(future: asyncio.Future, error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


class _Relay:
    """How a thread running the app sends a streamed answer (an export) through the event loop, chunk by
    chunk, each once the loop has taken the previous one, and learns that its client left."""

    def __init__(self, loop: asyncio.AbstractEventLoop, receive: Receive, send: Send, *, close: bool):
        self.loop, self.receive, self.send, self.close = loop, receive, send, close
        self._watch: asyncio.Task | None = None

    def headers(self, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        return [*headers, (b"connection", b"close")] if self.close else headers

    def start(self, status: int, headers: list[tuple[bytes, bytes]]) -> threading.Event:
        """Sends the head of a streamed answer; answers the event set when its client leaves."""
        gone = threading.Event()
        self._call(self._start(status, headers, gone))
        return gone

    def body(self, chunk: bytes) -> None:
        self._call(self._body(chunk))

    def end(self, finished: bool) -> None:
        """The answer's end (`finished`: all of it was sent) and the watch on its client."""
        self._call(self._end(finished))

    def _call(self, work: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(work, self.loop).result()

    async def _start(self, status: int, headers: list[tuple[bytes, bytes]], gone: threading.Event) -> None:
        await self.send({"type": "http.response.start", "status": status, "headers": self.headers(headers)})
        self._watch = asyncio.ensure_future(_disconnected(self.receive))
        self._watch.add_done_callback(lambda _: gone.set())

    async def _body(self, chunk: bytes) -> None:
        await self.send({"type": "http.response.body", "body": chunk, "more_body": True})

    async def _end(self, finished: bool) -> None:
        if self._watch is not None and not self._watch.done():
            self._watch.cancel()
        if finished:
            await self.send({"type": "http.response.body", "body": b""})


def _run(wsgi: Callable[..., Iterable[bytes]], environ: dict, relay: _Relay) -> tuple | None:
    """In a thread: the app called and its answer, which this thread also closes. A whole answer (its first
    chunk is all of it: most) comes back to be sent by the event loop; a streamed one is sent from here,
    through `relay`, by the thread that began it, which keeps the app's context and its database
    connection throughout (as the app expects: a context is undone where it was made), until its end or
    its client leaving. Answers None then."""
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
        if exc_info and "sent" in answer:
            raise exc_info[1].with_traceback(exc_info[2])
        answer["status"], answer["headers"] = status, headers
        return _no_write

    iterable = wsgi(environ, start_response)
    try:
        iterator = iter(iterable)
        ready = [_next(iterator)]
        if ready[0] is not _DONE and _announced(ready[0], answer["headers"]):
            ready.append(_next(iterator))  # the end, most likely
        complete = ready[-1] is _DONE
        ready = [chunk for chunk in ready if chunk is not _DONE]
        answer["sent"] = True
        status = int(answer["status"].split(" ", 1)[0])
        headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in answer["headers"]]
        if complete:
            return status, headers, b"".join(ready)
        gone = relay.start(status, headers)
        finished = False
        try:
            for chunk in ready:
                relay.body(chunk)
            while not gone.is_set():
                chunk = _next(iterator)
                if chunk is _DONE:
                    finished = True
                    break
                relay.body(chunk)
        finally:
            relay.end(finished)
        return None
    finally:
        close = getattr(iterable, "close", None)
        if close is not None:
            close()


def _announced(first: bytes, headers: list[tuple[str, str]]) -> bool:
    """The first chunk holds the whole length the headers announce."""
    length = next((value for name, value in headers if name.lower() == "content-length"), None)
    return length is not None and length.isdigit() and len(first) >= int(length)


def _no_write(data: bytes) -> None:
    raise RuntimeError("the app wrote with write(): not supported, return the body instead")


def _next(iterator: Iterator[bytes]) -> Any:
    for chunk in iterator:
        if chunk:
            return chunk
    return _DONE


def _environ(scope: Scope, body: bytes, length: int | None) -> dict:
    """PEP 3333's environ for an ASGI request whose body has been read (`length`: the length the app is
    told instead of the headers', for a chunked body refused past the limit)."""
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": "HTTP/" + scope.get("http_version", "1.1"),
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope["headers"]:
        name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
        if name == "content-type":
            environ["CONTENT_TYPE"] = value
        elif name == "content-length":
            environ["CONTENT_LENGTH"] = value
        elif name == "transfer-encoding" or "_" in name:
            # The body is whole: no chunking is left to read. A name with `_` would pass for the one with `-`
            # (X_Forwarded_For for a proxy's X-Forwarded-For): dropped, as waitress and gunicorn drop it.
            continue
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
            if key in environ:
                value = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
            environ[key] = value
    if length is not None:
        environ["CONTENT_LENGTH"] = str(length)
    return environ


async def _answer_empty(send: Send, status: int) -> None:
    headers = [(b"connection", b"close"), (b"content-length", b"0")]
    if status == 503:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _drain(receive: Receive, seconds: float) -> None:
    """What is still coming of a refused body, read and dropped for `seconds` at most."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect" or not message.get("more_body", False):
                    return
    except TimeoutError:
        return
