"""The statements of the question path (``fdeplatform.runs.asking``), written out once.

Under load, compiling the ORM's querysets for a question cost the web process more CPU than
the database spent answering them, and ``raw()`` still resolves columns and converters on
every query. Here each statement is composed once per database vendor from the models'
metadata, and rows become model instances with the same conversions Django applies
(JSON, time zones, UUIDs), looked up once per connection.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import datetime
from functools import cache
from typing import Any, Generic, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import Model

from fdeplatform.cases.models import CaseVersion
from fdeplatform.runs.models import Exchange, Run, Submission

M = TypeVar("M")
Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]

#: What the customer's history and the transcript read of an earlier exchange.
EXCHANGE_FIELDS = (
    "id",
    "run_id",
    "turn",
    "client_id",
    "question",
    "answer",
    "stakeholder_id",
    "stakeholder",
    "disclosed",
    "speakers",
    "created_at",
)


@dataclass(slots=True)
class ExchangeRow:
    """An earlier exchange as the question path reads it: what the customer's history and the
    transcript need, without a model instance per row (which cost half a millisecond for 20
    exchanges, on every question)."""

    id: int
    run_id: Any
    turn: int
    client_id: str
    question: str
    answer: str
    stakeholder_id: str
    stakeholder: str
    disclosed: list[str]
    speakers: list[str]
    created_at: datetime

    @classmethod
    def of(cls, exchange: Exchange) -> ExchangeRow:
        """The row of an exchange just recorded (its id set)."""
        return cls(**{f.name: getattr(exchange, f.name) for f in fields(cls)})

    def to_model(self, run: Run) -> Exchange:
        """The stored exchange as a model instance (the fields read here; others deferred)."""
        mine = {f.name for f in fields(self)}
        names = [f.attname for f in Exchange._meta.concrete_fields if f.attname in mine]
        exchange = Exchange.from_db(DEFAULT_DB_ALIAS, set(names), [getattr(self, n) for n in names])
        Exchange.run.field.set_cached_value(exchange, run)
        return exchange


class Rows(Generic[M]):
    """Instances of ``model`` (only ``names`` loaded) from rows that list those columns.

    ``make`` builds each one from the converted values (``Model.from_db`` by default).
    """

    def __init__(
        self,
        model: type[Model],
        names: Iterable[str] | None = None,
        make: Callable[..., M] | None = None,
    ) -> None:
        wanted = set(names) if names is not None else None
        self.model = model
        # In the model's field order: ``Model.from_db`` fills the rest with deferred fields.
        self.fields = [
            f
            for f in model._meta.concrete_fields
            if wanted is None or f.attname in wanted or f.name in wanted
        ]
        self.attnames = {f.attname for f in self.fields}
        self.make: Callable[[list[Any]], M]
        if make is None:  # a model instance, with the fields not read deferred
            self.make = cast(
                Callable[[list[Any]], M],
                lambda values: model.from_db(DEFAULT_DB_ALIAS, self.attnames, values),
            )
        else:
            names = [f.attname for f in self.fields]
            self.make = lambda values: make(**dict(zip(names, values, strict=True)))
        self._converters: weakref.WeakKeyDictionary[
            BaseDatabaseWrapper, list[tuple[int, list[Converter], Any]]
        ] = weakref.WeakKeyDictionary()

    def columns(self, quote: Callable[[str], str]) -> str:
        table = quote(self.model._meta.db_table)
        return ", ".join(f"{table}.{quote(f.column)}" for f in self.fields)

    def build(self, rows: Sequence[Sequence[Any]], connection: BaseDatabaseWrapper) -> list[M]:
        converters = self._converters_for(connection)
        built = []
        for row in rows:
            values = list(row[: len(self.fields)])
            for index, functions, column in converters:
                value = values[index]
                for function in functions:
                    value = function(value, column, connection)
                values[index] = value
            built.append(self.make(values))
        return built

    def _converters_for(
        self, connection: BaseDatabaseWrapper
    ) -> list[tuple[int, list[Converter], Any]]:
        found = self._converters.get(connection)
        if found is None:
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.model._meta.db_table)
                functions = connection.ops.get_db_converters(column) + list(
                    column.get_db_converters(connection)
                )
                if functions:
                    found.append((index, functions, column))
            self._converters[connection] = found
        return found


RUNS: Rows[Run] = Rows(Run)
EXCHANGES: Rows[ExchangeRow] = Rows(Exchange, EXCHANGE_FIELDS, ExchangeRow)
SUBMISSIONS: Rows[Submission] = Rows(Submission)


def database() -> BaseDatabaseWrapper:
    return connections[DEFAULT_DB_ALIAS]


@contextmanager
def _cursor(db: BaseDatabaseWrapper) -> Iterator[Any]:
    """A cursor for the question path's statements.

    With PostgreSQL and the connection pool (``DB_POOL_SIZE``), a psycopg cursor that binds on
    the server and prepares: Django's own binds parameters on the client, so PostgreSQL parsed
    and planned every statement of every question anew, while these few fixed statements, run
    on the pool's long-lived connections, are prepared once per connection (measured: 1.28 ->
    1.13 ms for the lock and the two reads). Without the pool a connection lives for one
    request, and preparing would only add work.
    """
    if db.vendor != "postgresql" or "pool" not in db.settings_dict.get("OPTIONS", {}):
        with db.cursor() as cursor:
            yield cursor
        return
    db.ensure_connection()
    raw = db.connection
    if raw.prepare_threshold is None:  # Django's default: never prepare. Only this cursor
        raw.prepare_threshold = 1_000_000  # prepares (Django's client-side cursors cannot).
    # Django's wrappers around it: its error classes, its transaction checks, and the query
    # log when one is kept (tests count the statements of a question).
    wrapper = CursorDebugWrapper if db.queries_logged else CursorWrapper
    with wrapper(_prepared_cursor_class()(raw), db) as cursor:
        yield cursor


@cache
def _prepared_cursor_class() -> type[Any]:
    """A psycopg cursor that prepares every statement it runs."""
    import psycopg

    class PreparedCursor(psycopg.Cursor[Any]):
        def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
            kwargs.setdefault("prepare", True)
            return super().execute(query, params, **kwargs)

    return PreparedCursor


def lock_run(run_key: Any) -> tuple[Run, str] | None:
    """The run (its row locked until the transaction ends) and its case version's digest."""
    return _run_row("lock", run_key)


def read_run(run_key: Any) -> tuple[Run, str] | None:
    """The run and its case version's digest, without a lock."""
    return _run_row("read_run", run_key)


def _run_row(statement: str, run_key: Any) -> tuple[Run, str] | None:
    db = database()
    with _cursor(db) as cursor:
        cursor.execute(statements(db.vendor)[statement], [run_key])
        row = cursor.fetchone()
    if row is None:
        return None
    return RUNS.build([row], db)[0], str(row[-1])


def exchanges_of(run_key: Any) -> list[ExchangeRow]:
    return _read(EXCHANGES, "exchanges", run_key)


def exchanges_after(run_key: Any, turn: int) -> list[ExchangeRow]:
    """The run's exchanges after ``turn``, in turn order."""
    return _read(EXCHANGES, "exchanges_after", run_key, turn)


def submissions_of(run_key: Any) -> list[Submission]:
    return _read(SUBMISSIONS, "submissions", run_key)


def _read(rows: Rows[M], statement: str, *params: Any) -> list[M]:
    db = database()
    with _cursor(db) as cursor:
        cursor.execute(statements(db.vendor)[statement], list(params))
        return rows.build(cursor.fetchall(), db)


def record(run_key: Any, rounds_used: int, exchange: Exchange) -> None:
    """Count the round on the run and insert ``exchange`` (its id is set)."""
    db = database()
    sql = statements(db.vendor)
    fields = _insert_fields()
    # The same preparation the ORM's insert applies (JSON adapters, time zones, UUIDs).
    params = [f.get_db_prep_save(getattr(exchange, f.attname), db) for f in fields]
    with _cursor(db) as cursor:
        if sql["record"]:  # one statement: the round counted in a CTE beside the insert
            cursor.execute(sql["record"], [rounds_used, run_key, *params])
        else:
            cursor.execute(sql["count_round"], [rounds_used, run_key])
            cursor.execute(sql["insert_exchange"], params)
        if sql["returns_id"]:
            exchange.pk = cursor.fetchone()[0]
        else:
            pk_column = Exchange._meta.pk.column  # type: ignore[union-attr]
            exchange.pk = db.ops.last_insert_id(cursor, Exchange._meta.db_table, pk_column)
    exchange._state.adding = False
    exchange._state.db = db.alias


def run_key(value: Any) -> Any:
    """A run id as the database takes it (UUID on PostgreSQL, hex text on SQLite)."""
    return Run._meta.pk.get_db_prep_value(value, database())  # type: ignore[union-attr]


def _insert_fields() -> list[Any]:
    return [f for f in Exchange._meta.concrete_fields if not f.primary_key]


@cache
def statements(vendor: str) -> dict[str, Any]:
    """The question path's SQL for the default database's vendor, composed once."""
    db = database()
    quote = db.ops.quote_name
    run_table = quote(Run._meta.db_table)
    run_pk = f"{run_table}.{quote(Run._meta.pk.column)}"  # type: ignore[union-attr]
    version_table = quote(CaseVersion._meta.db_table)
    # The version's digest rides along (a subquery locks nothing) to key the version cache.
    lock = (
        f"SELECT {RUNS.columns(quote)}, (SELECT v.{quote('digest')} FROM {version_table} v "
        f"WHERE v.{quote('id')} = {run_table}.{quote('case_version_id')}) "
        f"FROM {run_table} WHERE {run_pk} = %s"
    )
    read_run = lock
    if db.features.has_select_for_update:
        lock += " FOR UPDATE"  # of the run's row only (SQLite locks the whole database anyway)
    ex_table = quote(Exchange._meta.db_table)
    fields = _insert_fields()
    returns_id = bool(db.features.can_return_columns_from_insert)
    insert = (
        f"INSERT INTO {ex_table} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    if returns_id:
        insert += f" RETURNING {quote(Exchange._meta.pk.column)}"  # type: ignore[union-attr]
    sub_table = quote(Submission._meta.db_table)
    count_round = f"UPDATE {run_table} SET {quote('rounds_used')} = %s WHERE {run_pk} = %s"
    # PostgreSQL runs a data-modifying CTE with the statement it belongs to: one round trip.
    record = f"WITH counted AS ({count_round}) {insert}" if db.vendor == "postgresql" else ""
    return {
        "lock": lock,
        "read_run": read_run,
        "exchanges": (
            f"SELECT {EXCHANGES.columns(quote)} FROM {ex_table} "
            f"WHERE {ex_table}.{quote('run_id')} = %s ORDER BY {ex_table}.{quote('turn')}"
        ),
        "exchanges_after": (
            f"SELECT {EXCHANGES.columns(quote)} FROM {ex_table} "
            f"WHERE {ex_table}.{quote('run_id')} = %s AND {ex_table}.{quote('turn')} > %s "
            f"ORDER BY {ex_table}.{quote('turn')}"
        ),
        "submissions": (
            f"SELECT {SUBMISSIONS.columns(quote)} FROM {sub_table} "
            f"WHERE {sub_table}.{quote('run_id')} = %s ORDER BY {sub_table}.{quote('number')}"
        ),
        "count_round": count_round,
        "insert_exchange": insert,
        "record": record,
        "returns_id": returns_id,
    }
