"""The payout page's read of its session for a `GET`: a read model of what the unfilled form's copy is
keyed by, and the one statement, run on the driver, that fills it."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session

from .. import clock
from ..db import driver_rows
from ..merchants.models import Merchant
from ..payouts import sessions
from ..payouts.models import CheckoutSession


@dataclass(frozen=True, slots=True)
class ShownMerchant:
    """The merchant's settings a payout page shows or is set up by (its clock, language, frame origins)."""

    id: int
    name: str
    has_logo: bool
    frame_origins: tuple[str, ...]
    fx_markup_bps: int
    default_language: str | None


@dataclass(frozen=True, slots=True)
class ShownSession:
    """A checkout session as its page's `GET` reads it: whether the unfilled form is what it shows, and
    everything a copy of that form is kept under (see `key`)."""

    session_id: str
    status: str
    expires_at: datetime
    return_url: str
    country: str | None
    payout_id: int | None
    holder: int | None  # the payout holding the session's custom_code, if any (sessions.code_holder)
    merchant: ShownMerchant

    @classmethod
    def of(cls, record: CheckoutSession, merchant: Merchant, holder: int | None) -> ShownSession:
        """The same, from the entities the page's `POST` and its rendering use."""
        return cls(
            session_id=record.session_id,
            status=record.status,
            expires_at=record.expires_at,
            return_url=record.return_url,
            country=record.country,
            payout_id=record.payout_id,
            holder=holder,
            merchant=ShownMerchant(
                id=merchant.id,
                name=merchant.name,
                has_logo=merchant.has_logo,
                frame_origins=tuple(merchant.frame_origins or ()),
                fx_markup_bps=merchant.fx_markup_bps,
                default_language=merchant.default_language,
            ),
        )

    def shows_form(self) -> bool:
        """Whether the page is the unfilled form: the session open, in time on its merchant's clock (set
        by the page), and its custom_code held by no other payout."""
        return (
            self.status == sessions.OPEN
            and clock.as_utc(self.expires_at) > clock.now()
            and not sessions.code_taken_elsewhere(self.payout_id, self.holder)
        )

    def key(self, token: str, view: str, locale: str) -> tuple:
        """Everything the unfilled form shows but the nonce and the time (see rendered.py): the session
        (whose row changes only its status), its token, the layout and language, and the merchant's
        settings it shows or is set up by."""
        merchant = self.merchant
        return (
            self.session_id,
            self.status,
            self.expires_at,
            token,
            view,
            locale,
            merchant.id,
            merchant.name,
            merchant.has_logo,
            merchant.frame_origins,
            merchant.fx_markup_bps,
            merchant.default_language,
        )


_SESSION = CheckoutSession.__table__.c
_MERCHANT = Merchant.__table__.c


@functools.cache
def _statement() -> Select:
    """The session, its merchant's settings and its code's holder: table columns (`driver_rows` reads no
    ORM entity), in ShownSession's order, built once."""
    return (
        select(
            _SESSION.session_id,
            _SESSION.status,
            _SESSION.expires_at,
            _SESSION.return_url,
            _SESSION.country,
            _SESSION.payout_id,
            sessions.code_holder(),
            _MERCHANT.id,
            _MERCHANT.name,
            _MERCHANT.logo_png.is_not(None),
            _MERCHANT.frame_origins,
            _MERCHANT.fx_markup_bps,
            _MERCHANT.default_language,
        )
        .join_from(CheckoutSession.__table__, Merchant.__table__, _MERCHANT.id == _SESSION.merchant_id)
        .where(_SESSION.session_id == bindparam("session"))
    )


def read(session: Session, session_id: str) -> ShownSession | None:
    """The session named by a page token, or None. One statement on the driver (`driver_rows`), no ORM
    entity: a page shown from its kept copy needs nothing else (docs/benchmarks.md)."""
    rows = driver_rows(session, _statement(), {"session": session_id})
    if not rows:
        return None
    session_id, status, expires_at, return_url, country, payout_id, holder, *settings = rows[0]
    merchant_id, name, has_logo, frame_origins, fx_markup_bps, default_language = settings
    return ShownSession(
        session_id,
        status,
        expires_at,
        return_url,
        country,
        payout_id,
        holder,
        ShownMerchant(merchant_id, name, has_logo, tuple(frame_origins or ()), fx_markup_bps, default_language),
    )
