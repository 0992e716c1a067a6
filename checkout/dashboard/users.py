"""Dashboard users: creation, sign-up with a new merchant (limited per address), login with a per-account and
per-address limit, a new password, and the session version that ends every copy of a user's sessions."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from .. import clock
from ..errors import InvalidField
from ..merchants import service as merchants
from ..merchants.models import Merchant
from . import passwords
from .models import LoginAttempt, SignupAttempt, User

WINDOW = timedelta(minutes=15)
MAX_FAILURES = 5
SIGNUP_WINDOW = timedelta(hours=1)
MAX_SIGNUPS = 10  # per client address within SIGNUP_WINDOW

# What each PostgreSQL advisory lock counts (its first key; the second is a digest of the e-mail or address).
_ACCOUNT, _ADDRESS, _SIGNUP_ADDRESS = 1, 2, 3


class DuplicateEmail(ValueError):
    """Another user already signs in with this e-mail address."""


class WrongPassword(Exception):
    """The password typed again is not the user's: counted as a failed login."""


@dataclass
class Locked(Exception):
    """Too many failed logins for this account or this address: try again at `retry_at` (real time)."""

    retry_at: datetime


class SignupsPaused(Locked):
    """Too many sign-ups from this address within SIGNUP_WINDOW: try again at `retry_at` (real time)."""


def normalise(email: str) -> str:
    return email.strip().lower()


def hashed(password: str) -> str:
    """The password's scrypt hash. It takes a while on purpose, so callers compute it before their first
    statement: on SQLite a write transaction holds the database's one writer turn, and every other
    merchant's payment would wait for the hash."""
    if len(password) < passwords.MIN_LENGTH:
        raise InvalidField("password", f"must have at least {passwords.MIN_LENGTH} characters")
    return passwords.hash_password(password)


def create(session: Session, *, merchant: Merchant, email: str, password: str) -> User:
    return add(session, merchant=merchant, email=email, password_hash=hashed(password))


def add(session: Session, *, merchant: Merchant, email: str, password_hash: str) -> User:
    """A user of this merchant, with a password hashed beforehand (`hashed`)."""
    key = normalise(email)
    if "@" not in key or len(key) > 254:
        raise InvalidField("email", "must be an e-mail address")
    if session.scalar(select(User.id).where(User.email == key)) is not None:
        raise DuplicateEmail(key)
    user = User(
        merchant_id=merchant.id,
        email=key,
        password_hash=password_hash,
        created_at=clock.real_now(),
        session_version=0,
    )
    session.add(user)
    session.flush()
    return user


def _one_at_a_time(session: Session, kind: int, key: str) -> None:
    """On PostgreSQL, wait until no other transaction counts attempts for this key (the lock is held to the
    commit): two attempts at once would both count the failures before either wrote its own, and both
    pass the limit. SQLite needs none: a write transaction holds the database's one writer turn."""
    if session.get_bind().dialect.name != "postgresql":
        return
    digest = int.from_bytes(hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()[:4], "big", signed=True)
    session.execute(text("SELECT pg_advisory_xact_lock(:kind, :key)"), {"kind": kind, "key": digest})


def check_signups(session: Session, *, address: str, now: datetime | None = None) -> None:
    """Raises SignupsPaused when this address signed up MAX_SIGNUPS times within SIGNUP_WINDOW."""
    now = now or clock.real_now()
    _one_at_a_time(session, _SIGNUP_ADDRESS, address[:64])
    retry_at = _retry_at(session, SignupAttempt.address, address[:64], now, SIGNUP_WINDOW, MAX_SIGNUPS)
    if retry_at is not None:
        raise SignupsPaused(retry_at)


def sign_up(session: Session, *, email: str, password_hash: str, shop_name: str, address: str) -> tuple[Merchant, User]:
    """A new merchant and its first user, the password hashed beforehand (`hashed`). Raises SignupsPaused
    (nothing written), or counts the attempt toward the address's limit and then raises DuplicateEmail
    (the count is all there is to commit) or creates both."""
    now = clock.real_now()
    check_signups(session, address=address, now=now)
    session.add(SignupAttempt(address=address[:64], at=now))
    session.flush()
    if session.scalar(select(User.id).where(User.email == normalise(email))) is not None:
        raise DuplicateEmail(normalise(email))
    merchant = merchants.create(session, name=shop_name)
    return merchant, add(session, merchant=merchant, email=email, password_hash=password_hash)


def get(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def _retry_at(
    session: Session, column: InstrumentedAttribute, value: str, now: datetime, window: timedelta, limit: int
) -> datetime | None:
    at = column.class_.at
    found = session.execute(select(func.count(), func.min(at)).where(column == value, at > now - window)).one()
    if found[0] >= limit:
        return clock.as_utc(found[1]) + window
    return None


def check_limit(session: Session, *, email: str, address: str, now: datetime | None = None) -> None:
    """Raises Locked when this account or this address failed MAX_FAILURES times within WINDOW."""
    now = now or clock.real_now()
    times = [
        t
        for t in (
            _retry_at(session, LoginAttempt.email, normalise(email), now, WINDOW, MAX_FAILURES),
            _retry_at(session, LoginAttempt.address, address[:64], now, WINDOW, MAX_FAILURES),
        )
        if t is not None
    ]
    if times:
        raise Locked(max(times))


def authenticate(session: Session, *, email: str, password: str, address: str) -> User | None:
    """The user these credentials name, or None (unknown e-mail and wrong password alike). Raises Locked
    before looking at the password when the account or the address is locked. Failures are counted on
    real time, never the sandbox clock; a success clears its account's failures. Attempts on one account
    or from one address take turns on PostgreSQL (_one_at_a_time), so the limit holds when they come at once."""
    now = clock.real_now()
    key, address = normalise(email)[:254], address[:64]
    _one_at_a_time(session, _ACCOUNT, key)  # always the account first, then the address: no deadlock
    _one_at_a_time(session, _ADDRESS, address)
    check_limit(session, email=key, address=address, now=now)
    user = session.scalar(select(User).where(User.email == key))
    if passwords.matches(user.password_hash if user else None, password):
        session.execute(delete(LoginAttempt).where(LoginAttempt.email == key))
        return user
    session.add(LoginAttempt(email=key, address=address, at=now))
    session.flush()
    return None


def confirm_password(session: Session, *, email: str, password: str, address: str) -> None:
    """The signed-in user typed their password again. Same rate limit and the same counting as the login
    page: raises Locked (before looking at the password) or WrongPassword (a failure counted)."""
    if authenticate(session, email=email, password=password, address=address) is None:
        raise WrongPassword


def end_sessions(session: Session, user_id: int) -> None:
    """Every session of this user ends, on every device and every copy of its cookie (a logout)."""
    session.execute(update(User).where(User.id == user_id).values(session_version=User.session_version + 1))


def set_password(session: Session, *, email: str, password_hash: str) -> User:
    """A new password (hashed beforehand): every session of the user ends, and its failed logins are
    forgotten. Raises LookupError for an unknown e-mail."""
    key = normalise(email)
    user = session.scalar(select(User).where(User.email == key))
    if user is None:
        raise LookupError(key)
    session.execute(
        update(User)
        .where(User.id == user.id)
        .values(password_hash=password_hash, session_version=User.session_version + 1)
        .execution_options(synchronize_session=False)
    )
    session.execute(delete(LoginAttempt).where(LoginAttempt.email == key))
    session.refresh(user)
    return user
