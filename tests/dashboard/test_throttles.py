"""Sign-up throttled per address with its hash computed outside any transaction; the login limit held by
concurrent attempts."""

from __future__ import annotations

import threading
from datetime import timedelta

from sqlalchemy import event, func, select

from checkout import clock
from checkout.dashboard import passwords, users
from checkout.dashboard.models import LoginAttempt, SignupAttempt
from checkout.db import db

from .helpers import PASSWORD, Browser, csrf


def test_ten_sign_ups_an_hour_from_one_address_then_429_until_the_oldest_is_an_hour_old(app, make_browser):
    flood = make_browser("203.0.113.20")
    for n in range(10):
        assert flood.sign_up(email=f"shop{n}@shop.example", shop_name=f"Loja {n}").status_code == 200
    refused = flood.sign_up(email="shop10@shop.example", shop_name="Loja 10")
    assert refused.status_code == 429
    text = refused.get_data(as_text=True)
    assert "Signing up is paused after too many new accounts from your address. Try again in 60 minutes" in text
    assert "UTC" in text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(users.User)) == 10
        assert db.session.scalar(select(func.count()).select_from(SignupAttempt)) == 10  # a refusal is not counted
        # Another address signs up; this one again once its oldest sign-up is an hour old (real time).
        oldest = db.session.scalar(select(func.min(SignupAttempt.at)))
        later = clock.as_utc(oldest) + timedelta(hours=1, seconds=1)
        users.check_signups(db.session, address="203.0.113.20", now=later)  # no SignupsPaused
        db.session.rollback()
    assert make_browser("203.0.113.21").sign_up(email="other@shop.example").status_code == 200


def test_a_sign_up_with_a_taken_e_mail_counts_toward_the_limit(app, visitor, make_browser):
    visitor.sign_up()
    again = make_browser("203.0.113.22")
    for _ in range(10):
        assert again.sign_up().status_code == 400  # the e-mail is taken
    assert again.sign_up(email="new@shop.example").status_code == 429
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(users.User)) == 1


def test_the_sandbox_clock_does_not_move_the_sign_up_limit(app, make_browser):
    flood = make_browser("203.0.113.23")
    for n in range(10):
        flood.sign_up(email=f"s{n}@shop.example")
    clock.advance(2 * 3600)
    assert flood.sign_up(email="late@shop.example").status_code == 429


def test_the_password_is_hashed_with_no_transaction_open(app, visitor, monkeypatch):
    """On SQLite a transaction holds the database's one writer turn: a scrypt hash inside it made every other
    merchant's payment wait. The address's limit is read, the transaction ended, then the hash is made."""
    order: list[str] = []
    real_hash = passwords.hash_password

    def hash_password(password: str) -> str:
        order.append("hash")
        return real_hash(password)

    def statement(_conn, _cursor, sql: str, *_args) -> None:
        order.append(sql.split(maxsplit=1)[0].upper())

    token = csrf(visitor.get("/dashboard/signup").get_data(as_text=True))
    monkeypatch.setattr(passwords, "hash_password", hash_password)
    with app.app_context():
        engine = db.engine
    listeners = [
        ("before_cursor_execute", statement),
        ("begin", lambda _conn: order.append("begin")),
        ("commit", lambda _conn: order.append("end")),
        ("rollback", lambda _conn: order.append("end")),
    ]
    for name, listener in listeners:
        event.listen(engine, name, listener)
    try:
        answer = visitor.client.post(
            "/dashboard/signup",
            data={"csrf_token": token, "email": "ana@shop.example", "password": PASSWORD, "shop_name": "Loja"},
            environ_base={"REMOTE_ADDR": visitor.address},
        )
    finally:
        for name, listener in listeners:
            event.remove(engine, name, listener)
    assert answer.status_code == 200
    assert order.count("hash") == 1
    before = order[: order.index("hash")]
    assert before.count("begin") == before.count("end")  # every transaction begun before the hash had ended
    assert "INSERT" in order[order.index("hash") :]


def test_a_paused_address_costs_no_hash(app, make_browser, monkeypatch):
    flood = make_browser("203.0.113.24")
    for n in range(10):
        assert flood.sign_up(email=f"p{n}@shop.example").status_code == 200
    hashed: list[str] = []
    real_hash = passwords.hash_password
    monkeypatch.setattr(passwords, "hash_password", lambda password: hashed.append(password) or real_hash(password))
    assert flood.sign_up(email="p10@shop.example").status_code == 429
    assert hashed == []


def test_twenty_concurrent_wrong_passwords_check_five(app, visitor, make_browser, monkeypatch):
    """Each attempt from its own address, at once: the account's limit of five holds (PostgreSQL counted
    before any of them had written its failure)."""
    visitor.sign_up()
    checked: list[int] = []
    real_matches = passwords.matches

    def matches(password_hash, password):
        checked.append(1)
        return real_matches(password_hash, password)

    monkeypatch.setattr(passwords, "matches", matches)
    browsers: list[Browser] = [make_browser(f"203.0.113.{100 + n}") for n in range(20)]
    tokens = [csrf(b.get("/dashboard/login").get_data(as_text=True)) for b in browsers]
    barrier = threading.Barrier(len(browsers))
    answers: list = [None] * len(browsers)

    def attempt(n: int) -> None:
        barrier.wait(timeout=30)
        answers[n] = browsers[n].client.post(
            "/dashboard/login",
            data={"csrf_token": tokens[n], "email": "ana@shop.example", "password": "wrong password!"},
            environ_base={"REMOTE_ADDR": browsers[n].address},
        )

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(len(browsers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(a.status_code for a in answers) == [200] * 5 + [429] * 15
    assert len(checked) == 5
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginAttempt)) == 5


def test_an_ipv6_64_counts_as_one_address(app, make_browser):
    """A client handed a /64 could otherwise take a fresh address for every sign-up."""
    for n in range(10):
        assert make_browser(f"2001:db8:7:1::{n + 1:x}").sign_up(email=f"v6{n}@shop.example").status_code == 200
    assert make_browser("2001:db8:7:1:ffff::1").sign_up(email="v6x@shop.example").status_code == 429
    assert make_browser("2001:db8:7:2::1").sign_up(email="v6y@shop.example").status_code == 200
