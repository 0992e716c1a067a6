"""Dashboard users: creation, sign-up with a new merchant, and login with a per-account and per-address limit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from .. import clock
from ..errors import InvalidField
from ..merchants import service as merchants
from ..merchants.models import Merchant
from . import passwords
from .models import LoginAttempt, User

WINDOW = timedelta(minutes=15)
MAX_FAILURES = 5


class DuplicateEmail(ValueError):
    """Another user already signs in with this e-mail address."""


@dataclass
class Locked(Exception):
    """Too many failed logins for this account or this address: try again at `retry_at` (real time)."""

    retry_at: datetime


def normalise(email: str) -> str:
    return email.strip().lower()


def create(session: Session, *, merchant: Merchant, email: str, password: str) -> User:
    key = normalise(email)
    if "@" not in key or len(key) > 254:
        raise InvalidField("email", "must be an e-mail address")
    if len(password) < passwords.MIN_LENGTH:
        raise InvalidField("password", f"must have at least {passwords.MIN_LENGTH} characters")
    if session.scalar(select(User.id).where(User.email == key)) is not None:
        raise DuplicateEmail(key)
    user = User(
        merchant_id=merchant.id,
        email=key,
        password_hash=passwords.hash_password(password),
        created_at=clock.real_now(),
    )
    session.add(user)
    session.flush()
    return user


def sign_up(session: Session, *, email: str, password: str, shop_name: str) -> tuple[Merchant, User]:
    """A new merchant and its first user (the e-mail checked first: a refused sign-up creates nothing)."""
    if session.scalar(select(User.id).where(User.email == normalise(email))) is not None:
        raise DuplicateEmail(normalise(email))
    merchant = merchants.create(session, name=shop_name)
    return merchant, create(session, merchant=merchant, email=email, password=password)


def get(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def _retry_at(session: Session, column, value: str, now: datetime) -> datetime | None:
    since = now - WINDOW
    failures = session.execute(
        select(func.count(), func.min(LoginAttempt.at)).where(column == value, LoginAttempt.at > since)
    ).one()
    if failures[0] >= MAX_FAILURES:
        return clock.as_utc(failures[1]) + WINDOW
    return None


def check_limit(session: Session, *, email: str, address: str, now: datetime | None = None) -> None:
    """Raises Locked when this account or this address failed MAX_FAILURES times within WINDOW."""
    now = now or clock.real_now()
    times = [
        t
        for t in (
            _retry_at(session, LoginAttempt.email, normalise(email), now),
            _retry_at(session, LoginAttempt.address, address, now),
        )
        if t is not None
    ]
    if times:
        raise Locked(max(times))


def authenticate(session: Session, *, email: str, password: str, address: str) -> User | None:
    """The user these credentials name, or None (unknown e-mail and wrong password alike). Raises Locked
    before looking at the password when the account or the address is locked. Failures are counted on
    real time, never the sandbox clock; a success clears its account's failures."""
    now = clock.real_now()
    key = normalise(email)[:254]
    check_limit(session, email=key, address=address, now=now)
    user = session.scalar(select(User).where(User.email == key))
    if passwords.matches(user.password_hash if user else None, password):
        session.execute(delete(LoginAttempt).where(LoginAttempt.email == key))
        return user
    session.add(LoginAttempt(email=key, address=address[:64], at=now))
    session.flush()
    return None
