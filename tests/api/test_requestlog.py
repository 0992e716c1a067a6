"""The API request log: one row per authenticated request, redacted, on real time, never failing the request."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event, select

from checkout import clock
from checkout.api import jobs as api_jobs
from checkout.api import requestlog
from checkout.api.requestlog import ApiRequest
from checkout.db import db
from tests import builders
from tests.strategies import PROPERTY


def logged(app) -> list[ApiRequest]:
    assert requestlog.flush()  # the writer thread has written what the requests queued
    with app.app_context():
        rows = list(db.session.scalars(select(ApiRequest).order_by(ApiRequest.id)))
        db.session.expunge_all()
        return rows


def test_a_card_number_and_its_cvv_are_never_kept(app, api):
    token = api.post("/card/token", builders.card("4111111111111111", card={"cvv": "987"}), expect=200)["token"]
    [row] = logged(app)
    assert (row.method, row.path, row.status) == ("POST", "/card/token", 200)
    sent = json.loads(row.request_body)
    assert sent["card"]["card_no"] == "411111******1111"
    assert sent["card"]["cvv"] == "***"
    assert sent["card"]["holder"] == {"name": "Ana Souza"} and sent["app_id"] == api.app_id
    assert "4111111111111111" not in row.request_body + row.response_body
    assert '"987"' not in row.request_body  # as a value (the random app_id may hold the digits)
    answer = json.loads(row.response_body)
    assert answer["token"] == "[redacted]" and token not in row.response_body
    assert (answer["first_six_digits"], answer["last_four_digits"]) == ("411111", "1111")


def test_keys_secrets_and_the_authorization_header_are_never_kept(app, api):
    body = builders.direct("PIX", "order-1", security_key=api.credentials["security_key"], password="hunter2hunter2")
    api.post("/trade/pay", body)
    [row] = logged(app)
    kept = row.request_body + row.response_body
    assert api.credentials["security_key"] not in kept and "hunter2" not in kept
    assert api.auth["Authorization"].split()[1] not in kept
    sent = json.loads(row.request_body)
    assert sent["security_key"] == "[redacted]" and sent["password"] == "[redacted]"
    assert sent["order_amount"] == "100.50" and sent["out_trade_no"] == "order-1"


def test_a_payout_signature_and_key_are_never_kept(app, payout_api):
    body = builders.dry_run()
    payout_api.post("/payout/dry-run", body, expect=200)
    [row] = logged(app)
    signature = payout_api.headers(body)["Authorization"]
    assert (row.path, row.status) == ("/api/payout/dry-run", 200)
    assert signature not in row.request_body + row.response_body
    assert payout_api.credentials["app_key"] not in row.request_body + row.response_body
    assert json.loads(row.response_body)["code"] == 200


def test_a_pix_payments_qr_image_is_logged_as_its_type_and_length(app, api):
    answer = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    [row] = logged(app)
    kept = json.loads(row.response_body)
    image = answer["qr_code_img"].removeprefix("data:image/png;base64,")
    assert kept["qr_code_img"] == f"data:image/png;base64,[{len(image):,} characters, not kept]"
    assert (kept["qr_code"], kept["trade_no"]) == (answer["qr_code"], answer["trade_no"])
    assert image not in row.response_body


@pytest.mark.parametrize(
    "value, kept",
    [
        ("data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,[12 characters, not kept]"),
        ("data:;base64,QUJD", "data:;base64,[4 characters, not kept]"),
        ("data:text/plain;charset=utf-8;base64,", "data:text/plain;charset=utf-8;base64,[0 characters, not kept]"),
        # Not base64: text, whose card numbers are masked as anywhere else.
        ("data:text/plain,4111111111111111", "data:text/plain,411111******1111"),
        ("data: 4111 1111 1111 1111", "data: 411111******1111"),
    ],
)
def test_base64_in_a_data_uri_is_kept_as_its_length(value, kept):
    assert json.loads(requestlog.redacted_body(json.dumps({"img": value, "note": [value]}))) == {
        "img": kept,
        "note": [kept],
    }


def test_a_refused_request_is_logged_with_its_status_and_answer(app, api, payout_api):
    answer = api.post("/trade/pay", builders.direct("PIX", "order-1", order_amount="-1"), expect=400)
    payout_api.post("/payout/dry-run", builders.dry_run(amount="abc"))
    payin, payout = logged(app)
    assert (payin.path, payin.status) == ("/trade/pay", 400)
    assert json.loads(payin.response_body)["sub_code"] == answer["sub_code"]
    assert payout.path == "/api/payout/dry-run" and payout.status == 400
    assert json.loads(payout.response_body)["code"] != 200


def test_a_request_that_fails_authentication_is_not_logged(app, client, api):
    client.post("/trade/query", json={"trade_no": "x"}, headers={"Authorization": "Basic bm9wZTpub3Bl"})
    assert logged(app) == []


def test_sandbox_requests_are_logged_on_real_time(app, api):
    api.post("/sandbox/clock", {"advance_seconds": 86400}, expect=200)
    api.get("/sandbox/clock")
    advance, read = logged(app)
    assert (advance.method, advance.path, read.method, read.path) == ("POST", "/sandbox/clock", "GET", "/sandbox/clock")
    assert abs(clock.as_utc(read.at) - clock.real_now()) < timedelta(minutes=1)
    assert read.duration_ms >= 0


def test_one_insert_per_request_after_its_own_transaction(app, api, monkeypatch):
    statements: list[str] = []
    writes: list[tuple] = []
    write = requestlog._write

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement)

    def counted(engine, rows):
        writes.append((len(statements), rows))
        write(engine, rows)

    monkeypatch.setattr(requestlog, "_write", counted)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        api.post("/trade/query", {"trade_no": "nope"}, expect=400)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert requestlog.flush()
    [(after, [row])] = writes  # one INSERT (requestlog._write), after every statement of the request itself
    assert after == len(statements) and not any(s.startswith("INSERT") for s in statements)
    assert row[2:5] == ("POST", "/trade/query", 400)
    assert [r.path for r in logged(app)] == ["/trade/query"]


def test_the_request_succeeds_when_the_log_fails(app, api, monkeypatch, caplog):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the log is down")

    monkeypatch.setattr(requestlog, "_write", broken)
    with caplog.at_level(logging.ERROR, logger="checkout.api.requestlog"):
        answer = api.post("/trade/pay", builders.direct("PIX", "order-1"), expect=200)
        assert answer["code"] == "10000" and answer["trade_no"]
        assert logged(app) == []  # flushed: the writer thread has tried, and logged its failure
    assert "could not record a batch of 1 API requests" in caplog.text


def test_bodies_are_bounded_and_marked(app, api):
    api.post("/trade/pay", builders.direct("PIX", "order-1", subject="x" * 20000))
    [row] = logged(app)
    assert len(row.request_body) == requestlog.MAX_BODY and row.request_body.endswith(requestlog.TRUNCATED)


def test_a_body_that_is_not_json_is_kept_only_as_its_length():
    for raw in (
        b"card_no=4111-1111-1111-1111&cvv=123&app_key=secretvalue",
        b'{"card_no": "4111 1111 1111 1111", "cvv": "123",}',  # a trailing comma: not JSON
    ):
        assert requestlog.redacted_body(raw) == f"[not JSON: {len(raw)} bytes, not kept]"


def test_card_numbers_are_masked_whatever_the_field_is_called():
    body = {
        "cardNo": "4111111111111111",
        "Card-Number": "5555 5555 5555 4444",
        "securityCode": "123",
        "cardCvc": "999",
        "subject": "paid with 4111-1111-1111-1111 by phone",
        "out_trade_no": "12345678901234",  # 14 digits failing the Luhn check: kept
        "amount": 4111111111111111,
    }
    kept = json.loads(requestlog.redacted_body(json.dumps(body)))
    assert kept == {
        "cardNo": "411111******1111",
        "Card-Number": "555555******4444",
        "securityCode": "***",
        "cardCvc": "***",
        "subject": "paid with 411111******1111 by phone",
        "out_trade_no": "12345678901234",
        "amount": "411111******1111",
    }


def test_purge_forgets_requests_older_than_seven_days(app, api, monkeypatch):
    api.get("/sandbox/clock")
    api.get("/sandbox/clock")
    old, recent = logged(app)
    with app.app_context():
        db.session.get(ApiRequest, old.id).at = clock.real_now() - timedelta(days=7, minutes=1)
        db.session.get(ApiRequest, recent.id).at = clock.real_now() - timedelta(days=6, hours=23)
        db.session.commit()
        monkeypatch.setattr(api_jobs, "_last", [float("-inf")])
        assert api_jobs.purge_request_log(db.session, app.config) == 0
        db.session.commit()
    assert [row.id for row in logged(app)] == [recent.id]


def test_the_worker_runs_the_purges():
    from checkout import worker
    from checkout.dashboard import jobs as dashboard_jobs

    assert api_jobs.purge_request_log in worker.JOBS
    assert dashboard_jobs.purge_login_attempts in worker.JOBS


def test_the_logs_connections_keep_the_schema_the_database_url_names():
    """The log's own pool sets synchronous_commit per connection, keeping the URL's `options` (a
    search_path naming the service's schema) instead of replacing them."""
    import os

    import pytest
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    base = make_url(os.environ.get("CHECKOUT_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    url = base.update_query_dict({"options": "-csearch_path=log_schema_check"})
    engine = create_engine(url)
    try:
        writer = requestlog.writer(engine)
        with writer.connect() as connection:
            shown = (
                connection.exec_driver_sql("SHOW search_path").scalar(),
                connection.exec_driver_sql("SHOW synchronous_commit").scalar(),
            )
    except OperationalError:
        pytest.skip("no PostgreSQL at the test URL")
    finally:
        engine.dispose()
    assert shown == ("log_schema_check", "off")


def test_a_request_does_not_wait_for_its_log(app, api, monkeypatch):
    """The writer thread redacts and writes; the request only queues its row (a slow log slows nobody)."""
    import threading

    release = threading.Event()
    write = requestlog._write

    def slow(engine, rows):
        release.wait(10)
        write(engine, rows)

    monkeypatch.setattr(requestlog, "_write", slow)
    api.post("/trade/query", {"trade_no": "nope"}, expect=400)
    assert not requestlog.flush(timeout=0.2)  # still being written
    release.set()
    assert [(r.path, r.status) for r in logged(app)] == [("/trade/query", 400)]


_CARDS = ("4111111111111111", "5555 5555 5555 4444", "3782-822463-10005", "6011000990139424")
# Names with no rule of their own, under any parent (a secret word or a card field's name is redacted whole).
_FIELD_NAMES = (
    st.sampled_from(["subject", "remark", "trade_no", "name", "n", "description", "x"]) | st.text(max_size=6)
).filter(lambda name: requestlog._field(name, "card")[1] is None)
_TEXTS = st.text(max_size=20) | st.from_regex(r"[0-9 -]{0,24}", fullmatch=True)


@PROPERTY
@given(
    st.recursive(
        st.builds(
            lambda before, card, after: f"{before}{card}{after}",
            st.sampled_from(["", "paid ", "x-"]),
            st.sampled_from(_CARDS),
            st.sampled_from(["", " ok", "."]),
        )
        | _TEXTS,
        lambda inner: st.dictionaries(_FIELD_NAMES, inner, max_size=5) | st.lists(inner, max_size=3),
        max_leaves=20,
    ).filter(lambda value: isinstance(value, dict))
)
def test_no_card_number_survives_in_any_field_however_deep(body):
    """Texts of any field, short or long, at any depth: a Luhn-valid run of 13 to 19 digits never reaches
    the log, and every other text is kept exactly (fields with no rule of their own take a shortcut)."""
    kept = json.loads(requestlog.redacted_body(json.dumps(body)))

    def walk(sent, logged):
        if isinstance(sent, dict):
            assert list(logged) == list(sent)
            for key in sent:
                walk(sent[key], logged[key])
        elif isinstance(sent, list):
            assert len(logged) == len(sent)
            for item, got in zip(sent, logged, strict=True):
                walk(item, got)
        else:
            for run in requestlog._DIGIT_RUN.findall(logged):
                assert not requestlog._luhn("".join(c for c in run if c.isdigit())), (sent, logged)
            if not any(card in sent for card in _CARDS) and logged != sent:
                # Only a digit run or a data: URI's base64 is ever changed.
                assert requestlog._DIGIT_RUN.search(sent) or requestlog._BASE64_DATA.match(sent), (sent, logged)

    walk(body, kept)


def _cut_after_redacting_whole(text: str) -> str:
    """What a body was kept as when the whole of it was redacted first, then cut at MAX_BODY."""
    parsed = json.loads(text, parse_float=requestlog._number, parse_int=requestlog._number)
    written = json.dumps(requestlog.redact(parsed), ensure_ascii=False, separators=(",", ":"))
    return requestlog._bounded(requestlog._MARKED.sub(lambda m: m.group(1), written))


_SCALARS = (
    st.text(max_size=300)
    | st.integers()
    | st.decimals(places=2, allow_nan=False, allow_infinity=False).map(float)
    | st.booleans()
    | st.none()
    | st.sampled_from(_CARDS)
)


@PROPERTY
@given(
    st.recursive(
        _SCALARS,
        lambda inner: st.dictionaries(st.text(max_size=12), inner, max_size=8) | st.lists(inner, max_size=40),
        max_leaves=400,
    )
)
def test_a_body_is_kept_as_if_all_of_it_were_redacted_then_cut(body):
    """Redaction stops once what it has written passes MAX_BODY: what is kept is the same, to the
    character, as redacting the whole body and cutting it. (A small MAX_BODY, so that most bodies are cut.)"""
    text = json.dumps(body, ensure_ascii=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(requestlog, "MAX_BODY", 120)
        assert requestlog.redacted_body(text) == _cut_after_redacting_whole(text)


@pytest.mark.parametrize(
    "body",
    [
        list(range(5000)),  # numbers write no quotes: each counts exactly its digits
        [None, True, False] * 2000,
        ["", "a", {}, []] * 2000,
        {f"k{n}": n / 4 for n in range(3000)},
        {"data": [{"n": n, "card": "4111111111111111", "cvv": "123", "token": "t" * n} for n in range(300)]},
    ],
)
def test_bodies_of_small_values_are_cut_where_they_were_before(body):
    text = json.dumps(body)
    assert len(text) > requestlog.MAX_BODY
    kept = requestlog.redacted_body(text)
    assert kept == _cut_after_redacting_whole(text)
    assert len(kept) == requestlog.MAX_BODY


def test_a_long_answer_is_cut_where_it_was_before():
    # A year of balance history: 365 records, about 70 KB, cut to MAX_BODY.
    records = [
        {
            "merchant_id": "M0001",
            "current_day": f"2026-01-{day % 28 + 1:02d}",
            "balance": [{"currency": c, "amount": f"{1000 + day}.50"} for c in ("BRL", "MXN", "USD")],
        }
        for day in range(365)
    ]
    text = json.dumps({"code": 200, "msg": "success", "time": 1764136800, "data": records})
    kept = requestlog.redacted_body(text)
    assert kept == _cut_after_redacting_whole(text)
    assert len(kept) == requestlog.MAX_BODY and kept.endswith(requestlog.TRUNCATED)
