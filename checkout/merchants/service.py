"""Creating merchants, rotating their keys, and looking them up by credential."""

from __future__ import annotations

import secrets
import threading
import time
from urllib.parse import urlsplit

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, make_transient_to_detached

from .. import clock, origins
from ..brazil.documents import brazilian_document
from ..db import Changes, heard_on, peek
from ..errors import InvalidField
from .models import Merchant
from .policy import NormalisedLogo, check_logo


def _origin(value: str) -> str:
    """Kept as written back by origins.origin(): this text goes into the pages' CSP frame-ancestors."""
    refused = InvalidField("frame_origins", f"must look like https://shop.example, not {value!r}")
    try:
        origin = origins.origin(value)
    except origins.BadOrigin:
        raise refused from None
    parts = urlsplit(value.strip())  # parsed by origin() above
    if parts.username or parts.password or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise refused
    return origin


def _host(value: str) -> str:
    try:
        return origins.host_name(value)
    except origins.BadOrigin:
        raise InvalidField("return_hosts", f"must be a host name such as shop.example, not {value!r}") from None


def create(
    session: Session,
    *,
    name: str,
    return_hosts=(),
    frame_origins=(),
    logo_png: bytes | None = None,
    fx_markup_bps: int = 50,
    document: str | None = None,
) -> Merchant:
    if not name.strip():
        raise InvalidField("name", "must not be empty")
    if document is not None and not brazilian_document("CNPJ", document):
        raise InvalidField("document", "must be a valid CNPJ of 14 digits")
    if logo_png is not None:
        check_logo(logo_png)
    merchant = Merchant(
        merchant_id="M" + secrets.token_hex(8).upper(),
        name=name.strip(),
        document=document,
        app_id="app_" + secrets.token_hex(14),
        security_key="sk_" + secrets.token_hex(24),
        app_key=secrets.token_hex(32),
        return_hosts=[_host(h) for h in return_hosts],
        frame_origins=[_origin(o) for o in frame_origins],
        logo_png=logo_png,
        fx_markup_bps=fx_markup_bps,
        created_at=clock.now(),
    )
    session.add(merchant)
    session.flush()
    return merchant


def credentials(merchant: Merchant) -> dict:
    return {
        "merchant_id": merchant.merchant_id,
        "app_id": merchant.app_id,
        "security_key": merchant.security_key,
        "app_key": merchant.app_key,
    }


# Settings a merchant changes itself (the dashboard). The caller commits, then calls forget(app_id) so
# that this process's next request reads the new row (other processes within CACHE_SECONDS).
LANGUAGES = ("pt-BR", "es-MX", "en")  # the hosted pages' catalogues, as `?language=` names them


class InvalidLines(InvalidField):
    """Several lines of a list setting refused at once: `lines`, (field, line number from 1, value, rule) each."""

    def __init__(self, problems: list[tuple[str, int, str, str]]):
        super().__init__(problems[0][0], "; ".join(f"line {n}: {rule}" for _f, n, _v, rule in problems))
        self.lines = problems


def set_logo(merchant: Merchant, logo: NormalisedLogo) -> None:
    """Keep an uploaded logo, as policy.normalise_logo made it: decoded before the transaction began."""
    merchant.logo_png = logo


def remove_logo(merchant: Merchant) -> None:
    merchant.logo_png = None


def set_hosts(merchant: Merchant, return_hosts: list[str], frame_origins: list[str]) -> None:
    """Replace both lists, each value normalised as `merchants create` does (duplicates kept once). Every
    bad value is reported at once (InvalidLines) and then neither list changes."""
    problems: list[tuple[str, int, str, str]] = []

    def normalised(field: str, values: list[str], check) -> list[str]:
        kept: list[str] = []
        for number, value in enumerate(values, start=1):
            if not value.strip():
                continue  # an empty line of the text box
            try:
                good = check(value)
            except InvalidField as refused:
                problems.append((field, number, value, refused.rule))
            else:
                if good not in kept:
                    kept.append(good)
        return kept

    hosts = normalised("return_hosts", return_hosts, _host)
    frames = normalised("frame_origins", frame_origins, _origin)
    if problems:
        raise InvalidLines(problems)
    merchant.return_hosts, merchant.frame_origins = hosts, frames


def set_default_language(merchant: Merchant, language: str | None) -> None:
    """The hosted pages' language when neither the link nor the session names one; None: the browser's."""
    if language is not None and language not in LANGUAGES:
        raise InvalidField("default_language", f"must be one of {', '.join(LANGUAGES)} or none")
    merchant.default_language = language


def find_by_app_id(session: Session, app_id: str) -> Merchant | None:
    return session.scalar(select(Merchant).where(Merchant.app_id == app_id))


def new_keys() -> tuple[str, str]:
    """A fresh (security_key, app_key) pair, as `create` makes them."""
    return "sk_" + secrets.token_hex(24), secrets.token_hex(32)


class KeysChanged(LookupError):
    """The merchant's keys are no longer the pair a rotation was asked from: another rotation came first."""


def rotate_keys(session: Session, merchant_id: int, *, seen: tuple[str, str] | None = None) -> Merchant:
    """Give a merchant a new security_key and app_key; the old ones stop working at the commit.

    One UPDATE swaps both, so two rotations at once end with one pair, not a mix. With `seen` (the
    security_key and app_key someone confirmed a rotation of) it swaps them only if they are still those,
    else raises KeysChanged: of two confirmations at once the second finds other keys (PostgreSQL reads
    the row again once the first commits; SQLite runs one write transaction at a time). Every process
    checks the stored keys on each request (see `for_request`), so no cache keeps the old pair alive; this
    process forgets its copy as well. The security key also keys payin callback signatures and hosted-page
    return tokens: what is signed after the commit uses the new key.
    """
    security_key, app_key = new_keys()
    swap = update(Merchant).where(Merchant.id == merchant_id)
    if seen is not None:
        swap = swap.where(Merchant.security_key == seen[0], Merchant.app_key == seen[1])
    done = session.execute(
        swap.values(security_key=security_key, app_key=app_key).execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 0) != 1:
        if seen is not None and session.get(Merchant, merchant_id) is not None:
            raise KeysChanged(merchant_id)
        raise LookupError(merchant_id)
    merchant = session.get(Merchant, merchant_id, populate_existing=True)
    assert merchant is not None  # just updated
    forget(merchant.app_id)
    return merchant


# Every API request starts by finding its merchant. Settings change rarely, so each process keeps the row
# it read for a few seconds; the keys must be as stored now, so that a rotation is refused by the very next
# request in any process. On PostgreSQL the process hears every change to a merchant's row (db.heard_on: a
# trigger's NOTIFY, one listening connection a process): a copy no change was heard for since it was read is
# used as it is, one whose row changed is read again whole (its settings too), and so is one read before the
# process listened. Elsewhere, and while the process is not listening, the keys are read on every request
# (one indexed read of two columns through db.peek, outside the request's unit of work).
CACHE_SECONDS = 5.0
_KEYS = "SELECT security_key, app_key FROM merchants WHERE id = ?"
# Process-wide: what this process read of merchant rows, whichever app read it, with the listener and stamp
# that vouch for the read. A copy is used only once its keys match the request's own database (read there, or
# heard unchanged by that database's listener), so apps on other databases cannot mix; and `forget` is called
# by services (a key rotation, a settings change) that have no app at hand.
_cache: dict[str, tuple[float, Merchant, tuple[Changes, int] | None]] = {}
_cache_lock = threading.Lock()


def for_request(session: Session, app_id: str, *, attach: bool = True) -> Merchant | None:
    """The merchant named by a request's credentials: its settings read at most CACHE_SECONDS ago, its keys
    as stored now (a copy whose keys changed, by a rotation in any process, is read again).

    The copy is attached to `session` without a query (merge with load=False); a row lock taken later
    (payouts lock their merchant) reads the row afresh. A read-only operation that only reads the
    merchant's columns may take the shared copy itself (`attach=False`), which nothing may change.
    """
    now = time.monotonic()
    engine = session.get_bind().engine  # a reader session's bind is a Connection
    changes = heard_on(engine)
    with _cache_lock:
        hit = _cache.get(app_id)
    if hit is not None and now - hit[0] < CACHE_SECONDS:
        copy, heard = hit[1], hit[2]
        if changes is not None and heard is not None and heard[0] is changes:
            if changes.unchanged(f"merchants:{copy.id}", heard[1]):
                return session.merge(copy, load=False) if attach else copy
            # A change to the row was heard (or may have been): its settings as well as its keys, read below.
        elif _vouch(changes) is None:  # not listening: the keys as stored now, on every request
            stored = _stored_keys(engine, copy.id)
            if stored is not None and tuple(stored) == (copy.security_key, copy.app_key):
                return session.merge(copy, load=False) if attach else copy
        # Else listening now, and the copy was read before (or on another database): nothing vouches for its
        # settings either, so it is read again whole below, with a stamp.
    vouched = _vouch(changes)
    merchant = find_by_app_id(session, app_id)
    if merchant is None:
        return None
    snapshot = _detached_copy(merchant)
    with _cache_lock:
        if len(_cache) > 10_000:
            _cache.clear()
        _cache[app_id] = (now, snapshot, vouched)
    return merchant


def _vouch(changes: Changes | None) -> tuple[Changes, int] | None:
    """What a read made from now on may be trusted by: the listener of its database and its stamp."""
    stamp = changes.stamp() if changes is not None else None
    return None if changes is None or stamp is None else (changes, stamp)


def _stored_keys(engine: Engine, merchant_id: int) -> tuple | None:
    """The merchant's two keys as stored now, read beside the request's unit of work (which this read
    neither begins nor joins: on SQLite a writer's lock is then taken only by its writes)."""
    return peek(engine, _KEYS, (merchant_id,))


def _detached_copy(merchant: Merchant) -> Merchant:
    """A copy of the loaded row that belongs to no session, for merging into later ones."""
    copy = Merchant(
        **{
            column.key: getattr(merchant, column.key)
            for column in Merchant.__mapper__.column_attrs
            if column.key in merchant.__dict__
        }
    )
    make_transient_to_detached(copy)
    return copy


def forget(app_id: str | None = None) -> None:
    """Drop cached merchants (all, or one), after a change made in this process."""
    with _cache_lock:
        if app_id is None:
            _cache.clear()
        else:
            _cache.pop(app_id, None)
