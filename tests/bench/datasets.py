"""Stored rows for the dataset figures: trades, payouts and ledger entries, bulk-generated, valid for the models.

Each kind of row is copied from one the service itself wrote through its API (so every column, including
ones added later, has a value the models accept); only keys, owners, times and amounts vary. The database
generates the rows itself (INSERT ... SELECT over a number series), in time order as a live service writes
them: several times faster than executemany or COPY fed from Python, which matters at a million rows on
a small machine. Trades and payouts belong mostly to other merchants (lookups are by unique id among many
rows); ledger entries all belong to the benchmark merchant (its balance history is what grows). Keep the
seeding here, so that it follows the models in one place.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from flask import Flask
from sqlalchemy import Table, func, select, text
from sqlalchemy.engine import Connection

from checkout.db import Base, db
from checkout.merchants import service as merchants
from checkout.payins.models import Trade
from checkout.payouts import ledger
from checkout.payouts.models import Payout
from checkout.signing import payout_signature
from tests import builders

from .signed import payin

SPAN_DAYS = 400
BENCH_SHARE = 4  # every 4th trade and payout is the benchmark merchant's, the rest other merchants'
OTHER_MERCHANTS = 9
SAMPLE = 1000  # ids of the benchmark merchant the load generators rotate through
# The ledger's cycle of balanced transactions (step = transaction number % 3): a top-up, a payout (available
# out; in transit, fees and taxes in), its settlement. Amounts per (step, leg) are in _ledger_amount(); one
# cycle (transaction number / 3) keeps one currency and one payout's amounts.
LEDGER_LEGS = [
    (0, 0, ledger.AVAILABLE),
    (0, 1, ledger.FUNDING),
    (1, 0, ledger.AVAILABLE),
    (1, 1, ledger.IN_TRANSIT),
    (1, 2, ledger.FEES),
    (1, 3, ledger.TAXES),
    (2, 0, ledger.IN_TRANSIT),
    (2, 1, ledger.PAID_OUT),
]
LEGS_PER_TRANSACTION = len(LEDGER_LEGS) / 3


@dataclass
class Sample:
    """Rows of the benchmark merchant that requests ask for, drawn from everything stored so far."""

    trade_nos: list[str] = field(default_factory=list)
    transaction_ids: list[str] = field(default_factory=list)


POSTGRES_DIGITS = {"Y": "YYYY", "m": "MM", "d": "DD", "H": "HH24", "M": "MI", "S": "SS"}  # strftime -> to_char


class _Sql:
    """What SQLite and PostgreSQL spell differently; `x` is an SQL expression of unix seconds."""

    def __init__(self, postgres: bool):
        self.postgres = postgres

    def series(self, first: int, last: int) -> tuple[str, str]:
        """(prefix, FROM clause) giving i = first .. last - 1, as 64-bit integers."""
        if self.postgres:
            return "", f"FROM generate_series(CAST({first} AS bigint), CAST({last - 1} AS bigint)) AS s(i)"
        return f"WITH RECURSIVE s(i) AS (SELECT {first} UNION ALL SELECT i + 1 FROM s WHERE i < {last - 1}) ", "FROM s"

    def timestamp(self, x: str) -> str:
        if self.postgres:
            return f"to_timestamp({x})"
        return f"strftime('%Y-%m-%d %H:%M:%f', {x}, 'unixepoch') || '000'"  # SQLAlchemy's text, microseconds

    def digits(self, x: str, pattern: str) -> str:
        """UTC date/time digits: pattern is 'YmdHMS' (14 digits), 'YmdHM' or 'Ymd'."""
        if self.postgres:
            spelled = "".join(POSTGRES_DIGITS[c] for c in pattern)
            return f"to_char(to_timestamp({x}) AT TIME ZONE 'UTC', '{spelled}')"
        return f"strftime('{''.join('%' + c for c in pattern)}', {x}, 'unixepoch')"

    def padded(self, x: str, width: int, hexadecimal: bool = False) -> str:
        if self.postgres:
            return f"lpad({'to_hex' if hexadecimal else 'CAST'}({x}{'' if hexadecimal else ' AS text'}), {width}, '0')"
        return f"printf('%0{width}{'x' if hexadecimal else 'd'}', {x})"

    def cast(self, param: str, table: Table, column: str, dialect) -> str:
        # PostgreSQL types an INSERT ... SELECT's constants by themselves: say what each column takes.
        return f"CAST(:{param} AS {table.c[column].type.compile(dialect=dialect)})" if self.postgres else f":{param}"


def _template(connection: Connection, table: Table, *where) -> dict:
    found = connection.execute(select(table).where(*where)).mappings().first()
    if found is None:
        raise RuntimeError(f"no template row in {table.name}")
    return dict(found)


class Seeder:
    """Grows the stored rows of one database to a given count per table; remembers how far it got."""

    def __init__(self, app: Flask, credentials: dict, notify_url: str, seed: int = 20261121):
        self.app, self.credentials = app, credentials
        self.engine = app.extensions["checkout.db"].engine
        self.postgres = self.engine.dialect.name == "postgresql"
        self.sql = _Sql(self.postgres)
        self.rng = random.Random(seed)
        self.run_tag = self.rng.getrandbits(32)
        end = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=1)
        self.start, self.span = int(end.timestamp()) - SPAN_DAYS * 86400, SPAN_DAYS * 86400
        self.counts = {"trades": 0, "payouts": 0, "ledger_entries": 0}
        self.phases: list[tuple[int, int]] = []  # row numbers each grow() added; each phase spans the days
        self.transactions = 0
        tables = Base.metadata.tables
        self.tables = {name: tables[name] for name in ("trades", "trade_events", "payouts", "ledger_entries")}
        with app.app_context():
            bench = merchants.find_by_app_id(db.session, credentials["app_id"])
            others = [merchants.create(db.session, name=f"Other Shop {n}") for n in range(OTHER_MERCHANTS)]
            db.session.commit()
            self.bench_id, self.other_ids = bench.id, [m.id for m in others]
        self._templates(notify_url)

    # --- templates: one row of each kind, written by the service -----------------------------------------

    def _templates(self, notify_url: str) -> None:
        client = self.app.test_client()
        pay = payin(
            self.credentials, "/trade/pay", builders.direct("PIX", out_trade_no="bench-template", notify_url=notify_url)
        )
        answer = client.post(pay.path, data=pay.body, headers=pay.headers).get_json()
        assert answer.get("code") == "10000", answer
        body = {**builders.payout("bench-template", notify_url=notify_url), "timestamp": int(time.time())}
        headers = {
            "AppId": self.credentials["app_id"],
            "Authorization": payout_signature(body, self.credentials["app_key"]),
        }
        paid = client.post("/api/payout", json=body, headers=headers).get_json()
        assert paid.get("code") == 200, paid
        t = self.tables
        with self.engine.connect() as connection:
            trade = _template(connection, t["trades"], t["trades"].c.trade_no == answer["trade_no"])
            self.templates = {
                "trades": trade,
                "trade_events": _template(connection, t["trade_events"], t["trade_events"].c.trade_id == trade["id"]),
                "payouts": _template(
                    connection, t["payouts"], t["payouts"].c.transaction_id == paid["data"]["transaction_id"]
                ),
                "ledger_entries": _template(
                    connection, t["ledger_entries"], t["ledger_entries"].c.merchant_id == self.bench_id
                ),
            }

    def _constant(self, value):
        """A template value as a parameter: JSON as text; on SQLite, times as SQLAlchemy writes them."""
        if isinstance(value, dict | list):
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        if self.postgres:
            return value
        if isinstance(value, datetime):
            if value.tzinfo is not None:
                value = value.astimezone(UTC).replace(tzinfo=None)
            return value.isoformat(" ", "microseconds")
        if isinstance(value, date):
            return value.isoformat()
        return value

    # --- keys and times ----------------------------------------------------------------------------------

    def _epoch(self, n: int) -> int:
        """Row n's time (unix seconds): each phase's rows spread evenly over the span, in order."""
        for first, last in self.phases:
            if first <= n < last:
                return self.start + self.span * (n - first) // (last - first)
        raise ValueError(f"row {n} is in no phase")

    def _epoch_sql(self, first: int, last: int, i: str = "i") -> str:
        return f"({self.start} + {self.span} * ({i} - {first}) / {last - first})"  # integer division, as _epoch

    def trade_no(self, n: int) -> str:
        return f"{datetime.fromtimestamp(self._epoch(n), UTC):%Y%m%d%H%M%S}{n:010d}"  # the service's shape

    def transaction_id(self, n: int) -> str:
        return f"TS{datetime.fromtimestamp(self._epoch(n), UTC):%Y%m%d}{n:012d}"

    def _owner_sql(self, i: str = "i") -> str:
        others = " ".join(f"WHEN {k} THEN {merchant}" for k, merchant in enumerate(self.other_ids))
        return (
            f"CASE WHEN {i} % {BENCH_SHARE} = 0 THEN {self.bench_id} ELSE CASE {i} % {len(self.other_ids)} "
            f"{others} END END"
        )

    # --- writing -------------------------------------------------------------------------------------------

    def _insert(
        self,
        connection: Connection,
        name: str,
        computed: dict[str, str],
        first: int,
        last: int,
        *,
        source: str | None = None,
    ) -> int:
        """INSERT ... SELECT: `computed` columns are SQL over i (the row number); every other column is the
        template's value, except the id when not computed (the database numbers the row). No ORDER BY: the
        series comes in order already, and sorting a million wide rows would spill to disk."""
        table, template = self.tables[name], self.templates[name]
        columns = [c for c in template if c in table.c and (c != "id" or "id" in computed)]
        params, items = {}, []
        for column in columns:
            if column in computed:
                items.append(computed[column])
            else:
                params[f"t_{column}"] = self._constant(template[column])
                items.append(self.sql.cast(f"t_{column}", table, column, self.engine.dialect))
        prefix, series = self.sql.series(first, last)
        names = ", ".join(f'"{c}"' for c in columns)
        statement = (
            f'{prefix}INSERT INTO "{name}" ({names}) SELECT {", ".join(items)} {series}{" " + source if source else ""}'
        )
        return connection.execute(text(statement), params).rowcount

    def _trades(self, connection: Connection, first: int, last: int) -> None:
        sql, at = self.sql, self._epoch_sql(first, last)
        first_id = self._next_id(connection, self.tables["trades"])
        self._insert(
            connection,
            "trades",
            {
                "id": f"({first_id} + i - {first})",
                "trade_no": f"{sql.digits(at, 'YmdHMS')} || {sql.padded('i', 10)}",
                "merchant_id": self._owner_sql(),
                "out_trade_no": f"'order-' || {sql.padded('i', 9)}",
                "prepay_id": f"'pp_' || {sql.padded('i', 24, hexadecimal=True)}",
                "status": "'SUCCESS'",
                "amount_minor": "(100 + (i * 7919) % 500000)",  # amount_minor(n)
                "subject": "'Order ' || CAST(i AS TEXT)",
                "buyer_id": "'buyer-' || CAST(i % 50000 AS TEXT)",
                "details": self._customer_sql(),
                "expires_at": sql.timestamp(f"{at} + 5400"),
                "created_at": sql.timestamp(at),
                "updated_at": sql.timestamp(f"{at} + 180"),
            },
            first,
            last,
        )
        # Each trade's history: created PROCESSING, then paid (SUCCESS), as the sandbox pays a PIX.
        for from_status, to_status, reason, after in (
            (None, "PROCESSING", None, 0),
            ("PROCESSING", "SUCCESS", "paid by the customer", 180),
        ):
            self._insert(
                connection,
                "trade_events",
                {
                    "trade_id": f"({first_id} + i - {first})",
                    "from_status": f"'{from_status}'" if from_status else "NULL",
                    "to_status": f"'{to_status}'",
                    "reason": f"'{reason}'" if reason else "NULL",
                    "at": sql.timestamp(f"{at} + {after}"),
                },
                first,
                last,
            )

    def _customer_sql(self) -> str:
        """The trade's details with its buyer's own e-mail and document (customer_email(n), customer_document(n)),
        so the dashboard's searches find a few trades, as a real shop's would, not all of them."""
        template = self.templates["trades"]["details"] or {}
        rest = json.dumps({k: v for k, v in template.items() if k != "customer"}, separators=(",", ":"))[1:-1]
        rest = rest.replace("'", "''").replace(":", "\\:")  # an SQL literal inside text(): no bind parameters
        buyer = "CAST(i % 50000 AS TEXT)"
        value = (
            f"""'{{"customer":{{"name":"Buyer ' || {buyer} || '","email":"buyer-' || {buyer} || '@example.com",'"""
            f""" || '"identify":{{"type":"CPF","number":"' || {self.sql.padded("i % 50000", 11)} || '"}}}}'"""
            + (f" || ',{rest}'" if rest else "")
            + " || '}'"
        )
        return f"CAST({value} AS JSON)" if self.postgres else value

    @staticmethod
    def customer_email(n: int) -> str:
        return f"buyer-{n % 50000}@example.com"

    @staticmethod
    def customer_document(n: int) -> str:
        return f"{n % 50000:011d}"

    @staticmethod
    def amount_minor(n: int) -> int:
        return 100 + (n * 7919) % 500000

    def _payouts(self, connection: Connection, first: int, last: int) -> None:
        """Paid payouts, as the sandbox bank leaves them (no step left to take)."""
        sql, at = self.sql, self._epoch_sql(first, last)
        self._insert(
            connection,
            "payouts",
            {
                "transaction_id": f"'TS' || {sql.digits(at, 'Ymd')} || {sql.padded('i', 12)}",
                "merchant_id": self._owner_sql(),
                "custom_code": f"'po-' || {sql.padded('i', 9)}",
                "status": "'PAID'",
                "remark": "'paid'",
                "bank_id": f"'E18236120' || {sql.digits(at, 'YmdHM')} || "
                f"upper({sql.padded('i', 11, hexadecimal=True)})",
                "next_step_at": "NULL",
                "created_at": sql.timestamp(at),
                "updated_at": sql.timestamp(f"{at} + 360"),
            },
            first,
            last,
        )

    def _ledger(self, connection: Connection, wanted: int) -> int:
        """About `wanted` entries of the benchmark merchant: whole balanced transactions of the cycle."""
        sql = self.sql
        count = max(1, round(wanted / LEGS_PER_TRANSACTION))
        first, last = self.transactions, self.transactions + count
        at = self._epoch_sql(first, last)
        legs = " UNION ALL ".join(
            f"SELECT {step} AS step, {leg} AS leg, '{account}' AS account" for step, leg, account in LEDGER_LEGS
        )
        self._insert(
            connection,
            "ledger_entries",
            {
                "transaction_id": f"{sql.padded(str(self.run_tag), 8, hexadecimal=True)} || '-0000-4000-8000-' || "
                f"{sql.padded('i', 12, hexadecimal=True)}",
                "merchant_id": str(self.bench_id),
                "currency": "CASE WHEN (i / 3) % 5 = 0 THEN 'EUR' ELSE 'USD' END",
                "account": "l.account",
                "amount_minor": _ledger_amount(),
                "kind": "CASE l.step WHEN 0 THEN 'funding' WHEN 1 THEN 'payout' ELSE 'payout-paid' END",
                "reference": f"CASE l.step WHEN 0 THEN 'sandbox-top-up' "
                f"ELSE 'TS' || {sql.digits(at, 'Ymd')} || {sql.padded('i', 12)} END",
                "created_at": sql.timestamp(at),
            },
            first,
            last,
            source=f"JOIN ({legs}) AS l ON l.step = i % 3",
        )
        self.transactions = last
        # Counted here: SQLite's driver reports no row count for a statement that starts WITH.
        legs = {step: sum(1 for s, _, _ in LEDGER_LEGS if s == step) for step in range(3)}
        return sum(legs[i % 3] for i in range(first, last))

    def _next_id(self, connection: Connection, table: Table) -> int:
        """The first id of the rows about to be loaded. On PostgreSQL past the table's sequence and then some:
        requests still in flight after a throughput measurement (a direct payment's queue drains for a
        second or so after wrk stops) take ids from the sequence meanwhile, and one of them took the first id
        of a load that began at max(id) + 1. On SQLite the load's transaction holds the write lock."""
        first = int(connection.scalar(select(func.coalesce(func.max(table.c.id), 0)))) + 1
        if self.postgres:
            sequence = connection.scalar(text(f"SELECT nextval(pg_get_serial_sequence('{table.name}', 'id'))"))
            first = max(first, int(sequence) + 10_000)
        return first

    def _loading(self, connection: Connection) -> None:
        if not self.postgres:
            # A bulk load touches far more index pages than SQLite's default 2 MB cache holds.
            connection.exec_driver_sql("PRAGMA cache_size = -262144")

    def _after_load(self) -> None:
        """What production would have by the time anyone reads: sequences past the new ids, planner
        statistics (autovacuum) on PostgreSQL; on SQLite the write-ahead log folded into the database."""
        if self.postgres:
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(
                    text("SELECT setval(pg_get_serial_sequence('trades', 'id'), (SELECT max(id) FROM trades))")
                )
                for name in [*self.tables, "ledger_days"]:
                    if name in Base.metadata.tables:
                        connection.execute(text(f'VACUUM ANALYZE "{name}"'))
        else:
            # On the driver's connection: the service's engine would wrap it in BEGIN IMMEDIATE, where SQLite
            # refuses to checkpoint.
            raw = self.engine.raw_connection()
            try:
                raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            finally:
                raw.close()

    def grow(self, rows: int) -> dict:
        """Bring trades, payouts and the merchant's ledger entries up to `rows` each; answers timings."""
        timings: dict[str, float | None] = {}
        started = time.monotonic()
        first = self.counts["trades"]
        if rows > first:
            self.phases.append((first, rows))
            with self.engine.begin() as connection:
                self._loading(connection)
                self._trades(connection, first, rows)
            mark = time.monotonic()
            timings["trades_s"] = mark - started
            with self.engine.begin() as connection:
                self._loading(connection)
                self._payouts(connection, first, rows)
            timings["payouts_s"] = time.monotonic() - mark
            self.counts["trades"] = self.counts["payouts"] = rows
        mark = time.monotonic()
        wanted = rows - self.counts["ledger_entries"]
        if wanted > 0:
            with self.engine.begin() as connection:
                self._loading(connection)
                self.counts["ledger_entries"] += self._ledger(connection, wanted)
        timings["ledger_s"] = time.monotonic() - mark
        timings["rebuild_daily_s"] = self._rebuild_daily()
        mark = time.monotonic()
        self._after_load()
        timings["analyze_s"] = time.monotonic() - mark
        timings["total_s"] = time.monotonic() - started
        return {"rows": dict(self.counts), **{k: None if v is None else round(v, 1) for k, v in timings.items()}}

    def _rebuild_daily(self) -> float | None:
        """Derived tables (per-day balances) recomputed from the bulk-loaded entries, when the service has them."""
        rebuild = getattr(ledger, "rebuild_daily", None)
        if rebuild is None:
            return None
        mark = time.monotonic()
        with self.app.app_context():
            rebuild(db.session)
            db.session.commit()
        return time.monotonic() - mark

    def sample(self) -> Sample:
        """Benchmark-merchant rows spread over everything stored so far (not only the latest)."""
        trades = range(0, self.counts["trades"], BENCH_SHARE)
        payouts = range(0, self.counts["payouts"], BENCH_SHARE)
        return Sample(
            trade_nos=[self.trade_no(n) for n in self.rng.sample(trades, min(SAMPLE, len(trades)))],
            transaction_ids=[self.transaction_id(n) for n in self.rng.sample(payouts, min(SAMPLE, len(payouts)))],
        )

    def check(self, sample: Sample) -> None:
        """The sampled rows are there and the merchant's (a wrong key would measure error answers)."""
        with self.app.app_context():
            found = db.session.scalar(
                select(func.count())
                .select_from(Trade)
                .where(Trade.trade_no.in_(sample.trade_nos[:50]), Trade.merchant_id == self.bench_id)
            )
            paid = db.session.scalar(
                select(func.count())
                .select_from(Payout)
                .where(Payout.transaction_id.in_(sample.transaction_ids[:50]), Payout.merchant_id == self.bench_id)
            )
        if found != min(50, len(sample.trade_nos)) or paid != min(50, len(sample.transaction_ids)):
            raise RuntimeError(f"sampled rows missing: {found} trades, {paid} payouts of 50")


def _ledger_amount() -> str:
    """Each leg's amount for transaction i; the legs of one transaction add up to zero, and a settlement
    moves exactly what its payout put in transit."""
    top_up = "(200000 + ((i / 3) * 7919) % 300000)"
    source = "(10000 + ((i / 3) * 104729) % 90000)"
    fee, tax = f"(100 + {source} / 200)", f"({source} * 38 / 10000)"
    settled = f"({source} - {fee} - {tax})"
    return (
        f"CASE l.step * 10 + l.leg WHEN 0 THEN {top_up} WHEN 1 THEN -{top_up} "
        f"WHEN 10 THEN -{source} WHEN 11 THEN {settled} WHEN 12 THEN {fee} WHEN 13 THEN {tax} "
        f"WHEN 20 THEN -{settled} ELSE {settled} END"
    )


def history_range(today: date | None = None) -> tuple[str, str]:
    """The latest 365 UTC days, today included."""
    end = today or datetime.now(UTC).date()
    return (end - timedelta(days=364)).isoformat(), end.isoformat()
