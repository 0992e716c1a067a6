"""What the settings page reads and changes of one merchant: logo, return hosts, frame origins, language.

Each change goes through `checkout.merchants.service` (the same normalisers as `checkout merchants
create`); the caller commits, then drops the per-process merchant cache (`merchants.forget`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..merchants import service as merchants
from ..merchants.models import Merchant
from ..merchants.policy import NormalisedLogo

# A text box holds at most this many lines (a merchant registers a handful of hosts).
MAX_LINES = 50


@dataclass(frozen=True)
class Problem:
    field: str  # return_hosts or frame_origins
    line: int  # from 1, as the text box numbers it
    value: str


def get(session: Session, merchant_id: int) -> Merchant:
    found = session.get(Merchant, merchant_id)
    assert found is not None  # a user's merchant_id is a foreign key
    return found


def logo_version(merchant: Merchant) -> str | None:
    """A short digest of the stored logo: the pages serve logos cacheable for an hour, so a preview asks
    for `?v=<digest>` and shows a new logo at once."""
    return hashlib.sha256(merchant.logo_png).hexdigest()[:16] if merchant.logo_png else None


def lines(text: str | None) -> list[str]:
    """A text box's lines, numbered as the box shows them (blank lines are skipped by the service)."""
    return (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def set_logo(session: Session, merchant_id: int, logo: NormalisedLogo) -> Merchant:
    """Keep a logo the caller normalised (policy.normalise_logo) before this transaction began: decoding
    takes a while, and on SQLite a transaction holds the database's write turn from its first statement."""
    merchant = get(session, merchant_id)
    merchants.set_logo(merchant, logo)
    session.flush()
    return merchant


def remove_logo(session: Session, merchant_id: int) -> Merchant:
    merchant = get(session, merchant_id)
    merchants.remove_logo(merchant)
    session.flush()
    return merchant


def set_hosts(session: Session, merchant_id: int, return_hosts: str, frame_origins: str) -> list[Problem]:
    """Both lists replaced, or (with every problem listed) neither."""
    merchant = get(session, merchant_id)
    hosts, frames = lines(return_hosts), lines(frame_origins)
    try:
        merchants.set_hosts(merchant, hosts, frames)
    except merchants.InvalidLines as refused:
        return [Problem(field, line, value.strip()) for field, line, value, _rule in refused.lines]
    session.flush()
    return []


def set_default_language(session: Session, merchant_id: int, language: str | None) -> Merchant:
    merchant = get(session, merchant_id)
    merchants.set_default_language(merchant, language)
    session.flush()
    return merchant
