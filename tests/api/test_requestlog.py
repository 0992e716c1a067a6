"""The API request log: one row per authenticated request, redacted, on real time, never failing the request."""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from datetime import timedelta

from sqlalchemy import event, select

from checkout import clock
from checkout.api import jobs as api_jobs
from checkout.api import redaction, requestlog
from checkout.api.requestlog import ApiRequest
from checkout.db import db
from checkout.db import rows as row_writer
from checkout.merchants.models import Merchant
from tests import builders


def rows_of(app):
    return requestlog.of(app).rows


def logged(app) -> list[ApiRequest]:
    assert requestlog.of(app).flush()  # the writer thread has written what the requests queued
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
    write = rows_of(app)._write

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement)

    def counted(rows):
        writes.append((len(statements), rows))
        write(rows)

    monkeypatch.setattr(rows_of(app), "_write", counted)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        api.post("/trade/query", {"trade_no": "nope"}, expect=400)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert requestlog.of(app).flush()
    [(after, [row])] = writes  # one INSERT (RowWriter._write), after every statement of the request itself
    assert after == len(statements) and not any(s.startswith("INSERT") for s in statements)
    assert row[2:5] == ("POST", "/trade/query", 400)
    assert [r.path for r in logged(app)] == ["/trade/query"]


def test_the_request_succeeds_when_the_log_fails(app, api, monkeypatch, caplog):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the log is down")

    monkeypatch.setattr(rows_of(app), "_write", broken)
    with caplog.at_level(logging.ERROR, logger="checkout.api.requestlog"):
        answer = api.post("/trade/pay", builders.direct("PIX", "order-1"), expect=200)
        assert answer["code"] == "10000" and answer["trade_no"]
        assert logged(app) == []  # flushed: the writer thread has tried, and logged its failure
    assert "could not record a batch of 1 API requests" in caplog.text


def test_bodies_are_bounded_and_marked(app, api):
    api.post("/trade/pay", builders.direct("PIX", "order-1", subject="x" * 20000))
    [row] = logged(app)
    assert len(row.request_body) == redaction.MAX_BODY and row.request_body.endswith(redaction.TRUNCATED)


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

    assert api_jobs.purge_request_log in worker.HOUSEKEEPING
    assert dashboard_jobs.purge_login_attempts in worker.HOUSEKEEPING


def test_the_logs_connections_keep_the_schema_the_database_url_names():
    """The log's own pool keeps the URL's `options` (a search_path naming the service's schema), and sets
    nothing on its sessions: synchronous_commit is off only inside its own transactions (SET LOCAL), so that
    behind PgBouncer's transaction pooling no server connection keeps it for others."""
    import os

    import pytest
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    base = make_url(os.environ.get("CHECKOUT_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    url = base.update_query_dict({"options": "-csearch_path=log_schema_check"})
    writer = row_writer.unsynced_engine(url.render_as_string(hide_password=False))
    try:
        with writer.connect() as connection:
            shown = (
                connection.exec_driver_sql("SHOW search_path").scalar(),
                connection.exec_driver_sql("SHOW synchronous_commit").scalar(),
            )
    except OperationalError:
        pytest.skip("no PostgreSQL at the test URL")
    finally:
        writer.dispose()
    assert shown == ("log_schema_check", "on")


def test_a_request_does_not_wait_for_its_log(app, api, monkeypatch):
    """The writer thread redacts and writes; the request only queues its row (a slow log slows nobody)."""
    import threading

    release = threading.Event()
    write = rows_of(app)._write

    def slow(rows):
        release.wait(10)
        write(rows)

    monkeypatch.setattr(rows_of(app), "_write", slow)
    api.post("/trade/query", {"trade_no": "nope"}, expect=400)
    assert not requestlog.of(app).flush(timeout=0.2)  # still being written
    release.set()
    assert [(r.path, r.status) for r in logged(app)] == [("/trade/query", 400)]


# --- hosted-page links: bearer tokens never kept ----------------------------------------------------


def _answer(row: ApiRequest) -> dict:
    return json.loads(row.response_body)


def test_a_payout_checkout_link_is_kept_without_its_token(app, payout_api):
    link = payout_api.post("/checkout", builders.checkout_session(), expect=200)["data"]["checkout_url"]
    [row] = logged(app)
    assert _answer(row)["data"]["checkout_url"] == "http://checkout.test/pages/payout?token=[redacted]"
    assert link.split("token=")[1] not in row.response_body


def test_a_pix_payments_links_are_kept_without_their_tokens(app, api):
    answer = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    [row] = logged(app)
    kept = _answer(row)
    assert kept["pay_url"] == "http://checkout.test/pages/pay?token=[redacted]"
    assert kept["qr_code_url"] == "http://checkout.test/pages/pay/qr.png?token=[redacted]"
    assert (kept["qr_code"], kept["trade_no"]) == (answer["qr_code"], answer["trade_no"])  # kept whole
    assert "token=" not in row.response_body.replace("token=[redacted]", "")


def test_a_created_trades_web_url_is_kept_without_its_token_and_its_boleto_whole(app, api):
    answer = api.post("/trade/create", builders.direct("Boleto"), expect=200)
    [row] = logged(app)
    kept = _answer(row)
    assert kept["web_url"] == kept["pay_url"] == "http://checkout.test/pages/pay?token=[redacted]"
    assert (kept["barcode"], kept["bank_code"], kept["trade_no"]) == (
        answer["barcode"],
        answer["bank_code"],
        answer["trade_no"],
    )


def test_a_vaults_checkout_link_is_kept_without_its_token(app, api):
    api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)
    [row] = logged(app)
    assert _answer(row)["checkout_url"] == "http://checkout.test/pages/vault?token=[redacted]"
    assert _answer(row)["token"] == "[redacted]"


# --- one bad row costs only itself ----------------------------------------------------------------


def _merchant_id(app, api) -> int:
    with app.app_context():
        return db.session.scalar(select(Merchant.id).where(Merchant.app_id == api.app_id))


def test_a_lone_surrogate_costs_no_other_merchants_rows(app, api, other_api, monkeypatch):
    """A body holding `"\\ud800"` (which no UTF-8 encoder takes, nor PostgreSQL) used to fail the whole
    batch it was written in: every other merchant's rows of those 50 ms were lost."""
    release, batches = threading.Event(), []
    write = rows_of(app)._write

    def held(rows):
        batches.append(len(rows))
        release.wait(10)
        write(rows)

    monkeypatch.setattr(rows_of(app), "_write", held)
    api.get("/sandbox/clock")  # a first batch, held while the next requests queue up behind it
    deadline = time.monotonic() + 10
    while not batches and time.monotonic() < deadline:
        time.sleep(0.005)
    other_api.post("/trade/query", {"trade_no": "theirs"}, expect=400)
    api.post("/trade/query", {"trade_no": "\ud800", "subject": "x\x00y"})
    other_api.post("/trade/query", {"trade_no": "theirs-too"}, expect=400)
    release.set()
    rows = logged(app)
    assert batches == [1, 3]
    assert [(r.merchant_id, json.loads(r.request_body)["trade_no"]) for r in rows[1:]] == [
        (_merchant_id(app, other_api), "theirs"),
        (_merchant_id(app, api), "\ufffd"),
        (_merchant_id(app, other_api), "theirs-too"),
    ]
    assert json.loads(rows[2].request_body)["subject"] == "x\x00y"  # kept as the JSON escape `\u0000`


def test_a_row_the_database_refuses_is_dropped_alone_and_said_so(app, api, other_api, caplog):
    """Whatever the reason a database refuses a row (here its merchant is gone), the others of its batch
    are written, and the log says whose row was dropped, never what it held."""
    ours, theirs = _merchant_id(app, api), _merchant_id(app, other_api)
    now = clock.real_now()

    def row(merchant_id: int, path: str, body: str) -> tuple:
        return (merchant_id, now, "POST", path, 200, 3, body, "{}")

    rows = [
        row(ours, "/trade/query", '{"n":1}'),
        row(2**31 - 1, "/trade/query", '{"secret_stuff":"do-not-log-me"}'),  # no such merchant
        row(theirs, "/trade/\x00query\ud800", '{"subject":"\\ud800 and \ud800"}'),
        row(theirs, "/trade/query", '{"n":2}'),
    ]
    with caplog.at_level(logging.WARNING, logger="checkout.api.requestlog"):
        rows_of(app)._write(rows)
    kept = [(r.merchant_id, r.path, r.request_body) for r in logged(app)]
    assert kept == [
        (ours, "/trade/query", '{"n":1}'),
        (theirs, "/trade/\ufffdquery\ufffd", '{"subject":"\ufffd and \ufffd"}'),
        (theirs, "/trade/query", '{"n":2}'),
    ]
    assert re.search(rf"a row of merchant {2**31 - 1} \(status 200\) was not written: \w+", caplog.text)
    assert "do-not-log-me" not in caplog.text and "secret_stuff" not in caplog.text


def test_a_database_that_cannot_be_reached_fails_the_batch_once(app, api, monkeypatch, caplog):
    """Not a row's fault: the batch is not tried row by row (the caller logs it once)."""
    import pytest

    gone, tried = rows_of(app).engine.dialect.dbapi.OperationalError, []

    def down(_engine, _connection, _sql, values):
        tried.append(len(values))
        raise gone("the database is gone")

    monkeypatch.setattr(row_writer, "_insert", down)
    now, merchant_id = clock.real_now(), _merchant_id(app, api)
    batch = [(merchant_id, now, "GET", "/a", 200, 1, "", ""), (merchant_id, now, "GET", "/b", 200, 1, "", "")]
    with caplog.at_level(logging.WARNING, logger="checkout.api.requestlog"), pytest.raises(gone):
        rows_of(app)._write(batch)
    assert tried == [2] and caplog.text == ""


def test_a_card_number_in_the_path_is_masked(app, api):
    """A merchant who sends a card number where a trade number goes: the path is kept masked like a body."""
    api.client.post("/sandbox/trades/4111111111111111/pay", json={}, headers=api.auth)
    (row,) = logged(app)
    assert row.path == "/sandbox/trades/411111******1111/pay"


def test_a_batch_longer_than_one_statement_is_written_whole_and_in_order(app, api, other_api, monkeypatch):
    """A batch goes as multi-row INSERTs of at most 999 parameters (124 rows of 8 columns): 300 rows are three
    statements, every row kept in the order handed over; one the database refuses costs only itself."""
    ours, theirs = _merchant_id(app, api), _merchant_id(app, other_api)
    now = clock.real_now()
    batch = [(ours if n % 2 else theirs, now, "POST", f"/trade/{n}", 200, n, f'{{"n":{n}}}', "{}") for n in range(300)]
    statements: list[int] = []  # each statement's parameters
    insert = row_writer._multi_row

    def seen(sql, values):
        made = insert(sql, values)
        statements.extend(len(parameters) for _sql, parameters in made)
        return made

    monkeypatch.setattr(row_writer, "_multi_row", seen)
    rows_of(app)._write(batch)
    assert statements == [992, 992, 416]
    kept = logged(app)
    assert [(r.merchant_id, r.path, r.duration_ms, r.request_body) for r in kept] == [
        (row[0], row[3], row[5], row[6]) for row in batch
    ]
    gone = 2**31 - 1  # no such merchant: the database refuses the row
    again = [(ours, now, "GET", f"/again/{n}", 200, n, "", "") for n in range(130)]
    again[125] = (gone, now, "GET", "/again/refused", 200, 125, "", "")
    rows_of(app)._write(again)
    assert [r.path for r in logged(app)[300:]] == [f"/again/{n}" for n in range(130) if n != 125]
