"""The sandbox clocks: the operator's shared offset (one row) and each merchant's own (one row per merchant
off the shared clock), which every process reads."""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, side_engine

ROW = 1


class SandboxClock(Base):
    __tablename__ = "sandbox_clock"

    id: Mapped[int] = mapped_column(primary_key=True)
    offset_seconds: Mapped[int] = mapped_column(BigInteger, default=0)


class MerchantClock(Base):
    """A merchant's own offset, on top of the shared one; no row: the merchant is on the shared clock."""

    __tablename__ = "merchant_clocks"

    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"), primary_key=True)
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


def add_merchant_offset(conn, merchant_id: int, seconds: int, maximum: int) -> int:
    """Move one merchant's offset inside the caller's transaction, as add_offset moves the shared one."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(
        dialect.insert(MerchantClock).values(merchant_id=merchant_id, offset_seconds=0).on_conflict_do_nothing()
    )
    moved = conn.scalar(
        update(MerchantClock)
        .where(MerchantClock.merchant_id == merchant_id, MerchantClock.offset_seconds + seconds <= maximum)
        .values(offset_seconds=MerchantClock.offset_seconds + seconds)
        .returning(MerchantClock.offset_seconds)
    )
    if moved is None:
        raise ValueError(f"the sandbox clock cannot run more than {maximum // 86400} days ahead")
    return int(moved)


def reset_merchant_offset(conn, merchant_id: int | None) -> None:
    """Put one merchant (None: every merchant) back on the shared clock (the operator's reset)."""
    query = delete(MerchantClock)
    conn.execute(query if merchant_id is None else query.where(MerchantClock.merchant_id == merchant_id))


def shared_offset(conn) -> int:
    return int(conn.scalar(select(SandboxClock.offset_seconds).where(SandboxClock.id == ROW)) or 0)


def merchant_offsets(conn) -> dict[int, int]:
    rows = conn.execute(
        select(MerchantClock.merchant_id, MerchantClock.offset_seconds).where(MerchantClock.offset_seconds != 0)
    )
    return {int(merchant_id): int(offset) for merchant_id, offset in rows}


class DatabaseOffsetStore:
    """clock.OffsetStore and clock.MerchantOffsetStore in the database, on connections of its own.

    Its side engine's SQLite connections begin plain (deferred) transactions: in WAL mode a read never waits
    for a writer, so reading the clock inside another transaction cannot deadlock. On PostgreSQL it has one
    connection (the process's budget counts it): a read takes a moment, a thread waits for another's.
    """

    def __init__(self, url: str):
        self.engine = side_engine(url)

    def load(self) -> int | None:
        try:
            with self.engine.connect() as conn:
                value = shared_offset(conn)
                conn.rollback()
        except (DBAPIError, PoolTimeout):
            return None  # not migrated yet, or the database is briefly unavailable
        return value

    def add(self, seconds: int, maximum: int) -> int:
        with self.engine.begin() as conn:
            return add_offset(conn, seconds, maximum)

    def reset(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(SandboxClock))

    def load_merchants(self) -> dict[int, int] | None:
        try:
            with self.engine.connect() as conn:
                offsets = merchant_offsets(conn)
                conn.rollback()
        except (DBAPIError, PoolTimeout):
            return None
        return offsets

    def add_merchant(self, merchant_id: int, seconds: int, maximum: int) -> int:
        with self.engine.begin() as conn:
            return add_merchant_offset(conn, merchant_id, seconds, maximum)

    def reset_merchant(self, merchant_id: int | None) -> None:
        with self.engine.begin() as conn:
            reset_merchant_offset(conn, merchant_id)
