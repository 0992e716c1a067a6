"""The database: the one way every other module reaches it, the fast paths included.

Modules outside this package import only the names below (an import contract keeps feature packages off
its submodules, and off the drivers). Each fast path keeps one invariant, which is why it may skip the
unit of work:

- `db.session`: the unit of work of a request, a job or a command (one per application context). Every
  write goes through it, with the change's notification in the same transaction. On SQLite a write
  transaction holds its database's writer turn from BEGIN to COMMIT or ROLLBACK (sqlite.py).
- `db.read_only()`: the request's unit of work never writes; on SQLite it begins deferred and waits for no
  writer. Called before the session is first used.
- `db.read_only(one_statement=True)`: ...and it reads with a single statement, which is its own snapshot, so
  no transaction is begun around it (PostgreSQL autocommit); its session is bound to a connection its
  thread keeps out of the pool (kept.py). Only for a unit of work that truly runs one statement.
- `peek(engine, sql, parameters)`: one row as stored now, outside any unit of work (neither begun nor
  joined), on the connection its thread keeps; `?` stands for each parameter whatever the driver. For a
  value a request must see fresh and nothing else (a merchant's keys); never for a write.
- `driver_rows(session, statement, parameters)`: the rows of a one-statement unit of work's one Core SELECT, run
  on the driver under its kept connection (compiled once per dialect, each column converted by its type's
  result processor), without SQLAlchemy's execution or the session's transaction; through Core when the
  session has no kept connection. For a read answered on every request (`/trade/query`); never for a write.
- `heard_on(engine)`: on PostgreSQL, the process's listener for changes announced by the tables' triggers
  (`Changes`: a stamp taken before a read, and whether the row read is unchanged since), or None; for a value
  read every time only to be sure it is still as stored (a merchant's keys). Never for a write.
- `RowWriter`: append-only rows that nothing in the request reads back (the API request log), written by a
  thread of their own in batches with commits that do not wait for the disk. A row may be lost on a crash;
  no other table's data ever is.
- `side_engine(url)`: a pool of one connection for one purpose (the sandbox clock), counted in the
  process's connection budget (`Budget`); `make_engine`, `one_statement`: the engines behind the above.
- `writer_turn(engine)`: the SQLite writer's turn around a write begun by hand on a driver connection.
- `upgrade(url)`, `alembic_config(url)`, `MIGRATIONS`: apply the migrations (checkout/migrations/).
- `Base`: the declarative base of every table; `Database`: the class of `db` (a Flask extension whose
  `init_app` makes the app's engine within its `Budget`, or raises `BudgetError`); `Readers`: the kept
  connections behind one-statement reads; `PING_AFTER_IDLE`: how long a pooled PostgreSQL connection may
  sit idle before it is pinged on checkout.

Threads keep at most `Budget.readers` connections out of the pool between them; past it they read through
the pool. The state that is process-wide by nature (writer turns per database file, each thread's kept
connections) lives in sqlite.py and kept.py, and a forked child starts its own.
"""

from __future__ import annotations

from .budget import Budget, BudgetError
from .changes import Changes, heard_on
from .engines import PING_AFTER_IDLE, make_engine, one_statement, side_engine
from .kept import Readers, driver_rows, peek
from .migrate import MIGRATIONS, alembic_config, upgrade
from .rows import RowWriter
from .session import Base, Database, db
from .sqlite import writer_turn

__all__ = [
    "MIGRATIONS",
    "PING_AFTER_IDLE",
    "Base",
    "Budget",
    "BudgetError",
    "Changes",
    "Database",
    "Readers",
    "RowWriter",
    "alembic_config",
    "db",
    "driver_rows",
    "heard_on",
    "make_engine",
    "one_statement",
    "peek",
    "side_engine",
    "upgrade",
    "writer_turn",
]
