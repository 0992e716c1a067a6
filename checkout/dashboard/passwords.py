"""Password hashing for dashboard users (werkzeug's scrypt), kept apart so services see no web framework."""

from __future__ import annotations

from werkzeug.security import check_password_hash, generate_password_hash

MIN_LENGTH = 10

# Checked against when the e-mail is unknown, so that both answers take the same time.
_DUMMY = generate_password_hash("not a password of anyone", method="scrypt")


def hash_password(password: str) -> str:
    return generate_password_hash(password, method="scrypt")


def matches(password_hash: str | None, password: str) -> bool:
    if password_hash is None:
        check_password_hash(_DUMMY, password)
        return False
    return check_password_hash(password_hash, password)
