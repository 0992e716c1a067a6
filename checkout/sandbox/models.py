"""The sandbox clock's shared offset: one row that every process reads."""

from __future__ import annotations

from sqlalchemy import BigInteger, create_engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.pool import NullPool

from ..db import Base

ROW = 1


class SandboxClock(Base):
    __tablename__ = "sandbox_clock"

    id: Mapped[int] = mapped_column(primary_key=True)
    offset_seconds: Mapped[int] = mapped_column(BigInteger, default=0)


def add_offset(conn, seconds: int, maximum: int) -> int:
    """Move the shared offset inside the caller's transaction; answers the new offset."""
    # The row exists before the move: the first advance creates it, one racing with it waits for that
    # insert and does nothing. An update that then moves nothing was refused by the maximum alone.
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(SandboxClock).values(id=ROW, offset_seconds=0).on_conflict_do_nothing())
    moved = conn.scalar(
        update(SandboxClock)
        .where(SandboxClock.id == ROW, SandboxClock.offset_seconds + seconds <= maximum)
        .values(offset_seconds=SandboxClock.offset_seconds + seconds)
        .returning(SandboxClock.offset_seconds)
    )
    if moved is None:
        raise ValueError(f"the sandbox clock cannot run more than {maximum // 86400} days ahead")
    return int(moved)


class DatabaseOffsetStore:
    """clock.OffsetStore in the database, on connections of its own.

    Its SQLite connections begin plain (deferred) transactions: in WAL mode a read never waits for a
    writer, so reading the clock inside another transaction cannot deadlock.
    """

    def __init__(self, url: str):
        self.engine = create_engine(
            url,
            connect_args={"timeout": 30} if url.startswith("sqlite") else {},
            poolclass=NullPool if url.startswith("sqlite") else None,
        )

    def load(self) -> int | None:
        try:
            with self.engine.connect() as conn:
                value = conn.scalar(select(SandboxClock.offset_seconds).where(SandboxClock.id == ROW))
                conn.rollback()
        except DBAPIError:
            return None  # not migrated yet, or the database is briefly unavailable
        return int(value or 0)

    def add(self, seconds: int, maximum: int) -> int:
        with self.engine.begin() as conn:
            return add_offset(conn, seconds, maximum)

    def reset(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(SandboxClock))
