"""The dashboard's tables: users who sign in for a merchant, and login and sign-up attempts for rate limiting."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class User(Base):
    __tablename__ = "dashboard_users"

    id: Mapped[int] = mapped_column(primary_key=True)
    merchant_id: Mapped[int] = mapped_column(ForeignKey("merchants.id", ondelete="CASCADE"), index=True)
    # Kept folded to lower case: unique whatever case it is typed in.
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Copied into the session at login; a logout adds one, and every copy of an older cookie is refused.
    session_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class LoginAttempt(Base):
    """One failed login, on real time: counted per account (e-mail) and per client address."""

    __tablename__ = "dashboard_login_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SignupAttempt(Base):
    """One sign-up, on real time: counted per client address."""

    __tablename__ = "dashboard_signup_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
