"""The API request log: what each authenticated API request asked and answered, redacted, kept 7 days."""

from __future__ import annotations

import atexit
import functools
import json
import logging
import os
import queue
import re
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column
from stdnum import luhn

from .. import clock
from ..db import Base, make_engine, writer_turn

log = logging.getLogger(__name__)

KEEP = timedelta(days=7)
MAX_BODY = 8 * 1024  # characters kept of each body, after redaction
TRUNCATED = "…[truncated]"
REDACTED = "[redacted]"


class ApiRequest(Base):
    __tablename__ = "api_requests"
    __table_args__ = (
        Index("ix_api_requests_merchant_id_id", "merchant_id", "id"),
        Index("ix_api_requests_at", "at"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # real time, not the sandbox clock
    method: Mapped[str] = mapped_column(String(8))
    path: Mapped[str] = mapped_column(String(255))
    status: Mapped[int] = mapped_column(Integer)
    duration_ms: Mapped[int] = mapped_column(Integer)
    # Card numbers, CVVs, keys and signatures are redacted before a body is kept; bodies are bounded.
    request_body: Mapped[str] = mapped_column(Text)
    response_body: Mapped[str] = mapped_column(Text)


# --- redaction ------------------------------------------------------------------------------------

# Field names, compared lower-cased with `-`, spaces and camelCase humps read as `_`, and then also with
# every `_` left out (`cardNo`, `card-no` and `CARD_NO` are one name). `number` is a card number inside an
# object whose own name says card (`card.number`), nowhere else.
CARD_NUMBER_FIELDS = {
    "card_no",
    "card_number",
    "cardnumber",
    "cardno",
    "card_num",
    "cardnum",
    "pan",
    "card_pan",
    "cardpan",
}
SECURITY_CODE_FIELDS = {
    "cvv", "cvc", "cvv2", "cvc2", "cid", "security_code", "securitycode", "card_cvv", "cardcvv", "cvn", "card_cvc",
    "cardcvc",
}  # fmt: skip
# A field whose name contains one of these is never stored (its value becomes "[redacted]").
SECRET_WORDS = ("key", "secret", "password", "passwd", "token", "signature", "authorization", "credential")
# Fields that contain a secret word but name no secret: kept as they are.
NOT_SECRET = {"token_type", "key_type", "pix_key_type"}

# In any text value, 13 to 19 digits, alone or grouped by spaces or dashes, that pass the Luhn check are
# taken for a card number (a numeric out_trade_no can be masked by chance: one in ten of that length).
_DIGIT_RUN = re.compile(r"(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])")
_SHORTEST_RUN = 13  # characters: no shorter text holds a run
_NUMBER = "\x00n:"  # marks a JSON number read as text, to be written back bare


def _luhn(digits: str) -> bool:
    return luhn.checksum(digits) == 0  # python-stdnum's, as card validation uses: 3.5 us where ours took 5.7


def mask_card_number(value: str) -> str:
    """First six and last four digits kept, the rest masked: 4111111111111111 -> 411111******1111."""
    digits = re.sub(r"[^0-9]", "", value)
    if len(digits) < 12:
        return "*" * len(digits)
    return digits[:6] + "*" * (len(digits) - 10) + digits[-4:]


def _name(key: str) -> str:
    humps = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key.strip())
    return humps.lower().replace("-", "_").replace(" ", "_")


def _secret(name: str) -> bool:
    return name not in NOT_SECRET and any(word in name for word in SECRET_WORDS)


@functools.lru_cache(maxsize=4096)
def _field(key: str, parent: str) -> tuple[str, str | None]:
    """A field's name as compared, and what its value becomes: "code" (a security code), "secret", "card"
    (a card number) or None (kept, but for card numbers inside text). Field names repeat from one body to
    the next: working them out once made redaction about twice as fast."""
    name = _name(key)
    if name in SECURITY_CODE_FIELDS or name.replace("_", "") in SECURITY_CODE_FIELDS:
        return name, "code"
    if _secret(name):
        return name, "secret"
    if (
        name in CARD_NUMBER_FIELDS
        or name.replace("_", "") in CARD_NUMBER_FIELDS
        or (name == "number" and "card" in parent)
    ):
        return name, "card"
    return name, None


class _Budget:
    """How many more characters of a body's JSON are written before the cut at MAX_BODY. Each key and
    scalar is counted at most at the characters it writes, so the budget is spent no sooner than the text
    reaches the cut: what is left out after that is never kept."""

    __slots__ = ("left",)

    def __init__(self, left: int):
        self.left = left


def redact(value: Any, key: str = "", parent: str = "", budget: _Budget | None = None) -> Any:
    """A JSON value with what must never be kept replaced: card numbers masked (first 6 / last 4),
    security codes as "***", and every key, secret, password, token or signature field as "[redacted]".

    With a `budget`, the fields and items that would be written only after it is spent are left out: they
    lie past the cut (balance history answers 40 KB or more, and redacting what was then cut away was most
    of the log's cost for them)."""
    name, rule = _field(key, parent)
    if isinstance(value, dict):
        return _redact_object(value, name, budget)
    if isinstance(value, list):
        kept = []
        for item in value:
            if budget is not None and budget.left < 0:
                break
            kept.append(redact(item, key, parent, budget))
        return kept
    result = _redact_scalar(value, rule)
    if budget is not None:
        # A string writes its quotes too, a marked number loses its 3-character mark: at most this.
        budget.left -= len(str(result)) - len(_NUMBER)
    return result


def _redact_scalar(value: Any, rule: str | None) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if rule == "code":
        return "***"
    if rule == "secret":
        return REDACTED
    text = str(value).removeprefix(_NUMBER)
    if rule == "card":
        return mask_card_number(text)
    if isinstance(value, str):  # a card number in a field of any name (a subject, a remark): masked too
        if text.startswith("data:"):
            return _data_uri(text)
        masked = _mask_runs(text)
        if masked != text:
            return masked  # written as a string, the number it may have been no longer
    return value


def _redact_object(value: dict, name: str, budget: _Budget | None) -> dict:
    """An object's fields redacted as `redact` does each; a text field with no rule of its own and no run of
    digits as long as a card number is kept as it is, without a call of its own: most fields are such, and
    those calls were most of the log's redaction (a query's answer 51 -> 29 us)."""
    kept = {}
    for key, item in value.items():
        field = str(key)
        if budget is not None:
            if budget.left < 0:
                break
            budget.left -= len(field)
        if (
            type(item) is str
            and _field(field, name)[1] is None
            and (len(item) < _SHORTEST_RUN or not (_DIGIT_RUN.search(item) or item.startswith("data:")))
        ):
            kept[key] = item
            if budget is not None:
                budget.left -= len(item) - len(_NUMBER)
        else:
            kept[key] = redact(item, field, name, budget)
    return kept


_BASE64_DATA = re.compile(r"data:[^,;]*(?:;[^,;]+)*;base64,")


def _data_uri(text: str) -> str:
    """Base64 data in a data: URI (a PIX payment's `qr_code_img`) kept as its type and length: it is
    derived from what the body says beside it, no text to read, and was half of a payment's logged row."""
    head = _BASE64_DATA.match(text)
    if head is None:
        return _mask_runs(text)
    return f"{head.group(0)}[{len(text) - head.end():,} characters, not kept]"


def _mask_runs(text: str) -> str:
    def masked(run: re.Match) -> str:
        digits = re.sub(r"[^0-9]", "", run.group(0))
        return mask_card_number(digits) if _luhn(digits) else run.group(0)

    return _DIGIT_RUN.sub(masked, text)


def _bounded(text: str) -> str:
    if len(text) <= MAX_BODY:
        return text
    return text[: MAX_BODY - len(TRUNCATED)] + TRUNCATED


def _number(text: str) -> str:
    return _NUMBER + text


_MARKED = re.compile(r'"\\u0000n:([-+0-9.eE]+)"')


def redacted_body(raw: bytes | str) -> str:
    """A body as it is kept: JSON redacted field by field and written compactly (numbers as they came);
    anything else only as its length; at most MAX_BODY characters, marked when cut."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if not text.strip():
        return ""
    try:
        parsed = json.loads(text, parse_float=_number, parse_int=_number, parse_constant=_number)
    except (ValueError, RecursionError):
        # Not JSON (broken, form-encoded, anything): its fields cannot be told apart, so none of it is kept.
        return f"[not JSON: {len(raw)} bytes, not kept]"
    # The budget changes nothing that is kept, only what is redacted to be cut away: worth counting for a
    # body longer than the cut (a shorter one is cut only if redaction lengthened it).
    budget = _Budget(MAX_BODY) if len(text) > MAX_BODY else None
    written = json.dumps(redact(parsed, budget=budget), ensure_ascii=False, separators=(",", ":"))
    return _bounded(_MARKED.sub(lambda m: m.group(1), written))


# --- writing, reading, purging -------------------------------------------------------------------


_writers: dict[str, Engine] = {}
_writers_lock = threading.Lock()


def writer(engine: Engine) -> Engine:
    """The log's own small pool on the app's database, whose commits do not wait for the disk: SQLite
    `synchronous=NORMAL` (in WAL mode a commit is not fsynced, a checkpoint is), PostgreSQL
    `synchronous_commit=off`. Waiting for the disk was most of the log's cost (about 5 ms a request on
    SQLite); what it risks is the last moment's log rows on a power loss, never the requests' own data,
    whose connections keep their settings."""
    url = engine.url.render_as_string(hide_password=False)
    with _writers_lock:
        found = _writers.get(url)
        if found is None:
            found = _writers[url] = _make_writer(url)
        return found


def _make_writer(url: str) -> Engine:
    if not url.startswith("sqlite"):
        engine = create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=8, hide_parameters=True)

        # Set per connection, not as connect_args "options": those would replace the URL's own (a
        # `?options=-csearch_path=...` naming the schema the service lives in).
        @event.listens_for(engine, "connect")
        def _no_wait(dbapi_connection, _record):
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit = off")
            dbapi_connection.commit()

        return engine
    engine = make_engine(url)

    @event.listens_for(engine, "connect")
    def _no_sync(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")

    return engine


def record(
    engine: Engine,
    *,
    merchant_id: int,
    method: str,
    path: str,
    status: int,
    duration_ms: int,
    request_body: bytes | str,
    response_body: bytes | str,
) -> None:
    """Log one request after its own commit or rollback (a refused request's row is kept although its work
    rolled back). The request only hands the raw row to this process's writer thread, which redacts and
    inserts rows in batches: the request pays for neither (they were about half of a `/trade/query`'s own
    time). Never raises: a log that fails must not fail the API request."""
    row = (
        merchant_id,
        clock.real_now(),
        method[:8],
        path[:255],
        status,
        max(0, duration_ms),
        request_body,
        response_body,
    )
    _background.put(engine, row)


class _Background:
    """One writer thread per process (started on first use, and again in a forked child), fed by a queue;
    it writes what has queued up in one transaction. What is still queued when the process dies is lost,
    as the log's unsynced commits are: the requests' own data never is."""

    BATCH = 500
    # After its first row the thread lets the others of a burst queue up this long: one transaction and
    # one wake-up for many rows instead of one for each (a log row costs a third as much that way).
    GATHER = 0.05

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[Engine, tuple]] = queue.Queue(maxsize=10_000)
        self._lock = threading.Lock()
        self._pid = 0

    def put(self, engine: Engine, row: tuple) -> None:
        self._start()
        try:
            self._queue.put_nowait((engine, row))
        except queue.Full:  # the database is far behind: drop this row rather than slow the API down
            log.error("request log queue full; %s %s not logged", row[2], row[3])

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued row is written (tests, a stopping process); False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)
        return not self._queue.unfinished_tasks

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid != os.getpid():
                if self._pid:  # a forked child: the parent's thread and queue are not ours
                    self._queue = queue.Queue(maxsize=10_000)
                self._pid = os.getpid()
                threading.Thread(target=self._run, name="checkout-request-log", daemon=True).start()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            time.sleep(self.GATHER)
            while len(batch) < self.BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                for engine in {engine for engine, _row in batch}:
                    _write(writer(engine), [row for owner, row in batch if owner is engine])
            except Exception:
                log.exception("could not record a batch of %d API requests", len(batch))
            finally:
                for _ in batch:
                    self._queue.task_done()


_background = _Background()
flush = _background.flush
atexit.register(flush, 2.0)


INSERT = (
    "INSERT INTO api_requests (merchant_id, at, method, path, status, duration_ms, request_body, response_body)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_statements: dict[str, tuple[str, Callable[[Any], Any]]] = {}


def _statement(engine: Engine) -> tuple[str, Callable[[Any], Any]]:
    """The INSERT in the driver's own parameter style, and how the driver takes the `at` value (the same
    conversion the ORM applies, so rows read back alike)."""
    found = _statements.get(engine.dialect.name)
    if found is None:
        sql = INSERT if engine.dialect.paramstyle == "qmark" else INSERT.replace("?", "%s")
        at_type = ApiRequest.__table__.c.at.type
        found = (sql, at_type.dialect_impl(engine.dialect).bind_processor(engine.dialect) or (lambda value: value))
        _statements[engine.dialect.name] = found
    return found


def _write(engine: Engine, rows: list[tuple]) -> None:
    """Rows redacted and written in one transaction on a pooled driver connection (a third of the cost of
    the same INSERT through SQLAlchemy Core). The pool rolls back whatever a failure leaves open when the
    connection goes back."""
    sql, at = _statement(engine)
    values = [(m, at(when), verb, path, status, ms, redacted_body(sent), redacted_body(answered))
              for m, when, verb, path, status, ms, sent, answered in rows]  # fmt: skip
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        if engine.dialect.name == "sqlite":  # the engine's connections leave transactions to their user
            with writer_turn(engine):
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    cursor.executemany(sql, values)
                    cursor.execute("COMMIT")
                except BaseException:
                    cursor.execute("ROLLBACK")
                    raise
        else:
            cursor.executemany(sql, values)
            connection.commit()
        cursor.close()
    finally:
        connection.close()


def purge(session: Session, now: datetime | None = None) -> int:
    """Delete requests older than KEEP (real time); answers how many."""
    limit = (now or clock.real_now()) - KEEP
    result = session.execute(delete(ApiRequest).where(ApiRequest.at < limit))
    return int(getattr(result, "rowcount", 0) or 0)
