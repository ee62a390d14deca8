"""The statements of the hot path, written once per process instead of compiled by the ORM each time.

A move is a locking read of the table with its game, match and fair deal, then one INSERT and two
UPDATEs, which go to PostgreSQL as one statement (`write`: one round trip, not three). The locking read
is one statement, read again only when it had to wait for another writer (see `lock_table`). Built by the
ORM each time, those statements cost more CPU in query compilation and model construction than
everything else a move does (bench/move_cost.py). Here each statement's SQL is
written once per process (per model and set of fields) from the models' own metadata, and rows come
back as ordinary model instances through the same converters the ORM applies (`Model.from_db`), so the
services use them exactly as before. Nothing here knows a rule: it is storage.

On PostgreSQL these statements run on a cursor that sends the parameters beside the statement
(server-side binding) instead of Django's default, which quotes every parameter into the statement's
text in Python (the game's state, a few kilobytes of JSON, was escaped on every move), and each is
prepared on its connection the first time it runs (Django turns psycopg's own preparing off), so
PostgreSQL parses and plans it once per connection instead of on every move (bench/README.md: most of
PostgreSQL's CPU per move was that). Behind a pooler in transaction mode, prepared statements need the
pooler's support (PgBouncer 1.21 or later with `max_prepared_statements`); `DATABASE_PREPARED=0` turns
them off.

JSON columns (the game's state and log, the table's seating, the match's scores) are written and read
as compact JSON text by apps/live/compact.py, in C: the same values the ORM's `json` module gives, at a
fraction of its CPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.db import connection, models
from django.db.backends.utils import CursorWrapper
from psycopg.types.json import Jsonb

from apps.live.compact import dumps, loads
from apps.tables.models import FairDeal, Game, Match, Table

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]


class _Columns:
    """One model's concrete columns in a joined SELECT: their SQL, and how a row's values become the
    model's values (the ORM's converters)."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(field.column)}" for field in self.fields)
        self.converters: list[tuple[list[Converter], Any]] = []
        for field in self.fields:
            column = field.get_col(model._meta.db_table)
            own = [_json_from_db] if _plain_json(field) else field.get_db_converters(connection)  # type: ignore[attr-defined]  # Django's Field method, missing from the stubs
            self.converters.append((connection.ops.get_db_converters(column) + own, column))
        self.pk_at = next(i for i, field in enumerate(self.fields) if field.primary_key)

    def build(self, values: Sequence[Any]) -> models.Model | None:
        if values[self.pk_at] is None:
            return None  # the LEFT JOIN found nothing
        converted = []
        for value, (converters, column) in zip(values, self.converters, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.attnames, converted)


def _plain_json(field: models.Field[Any, Any]) -> bool:
    """A JSON column with the standard encoder and decoder (all of this app's)."""
    return isinstance(field, models.JSONField) and field.encoder is None and field.decoder is None


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    """`JSONField.from_db_value` for a plain column: text that is not JSON stays as it came."""
    if not isinstance(value, str):
        return value
    try:
        return loads(value)
    except ValueError:
        return value


def _params(fields: Sequence[models.Field[Any, Any]], instance: models.Model, adding: bool) -> list[Any]:
    """The values of `fields` of `instance` as a save sends them (`pre_save`, then `get_db_prep_save`);
    plain JSON columns encoded as compact JSON on PostgreSQL."""
    params = []
    for field in fields:
        value = field.get_db_prep_save(field.pre_save(instance, adding), connection)
        if isinstance(value, Jsonb) and _plain_json(field):  # Django's choice of SQL NULL or JSON kept
            value = Jsonb(value.obj, dumps=dumps)
        params.append(value)
    return params


def _cursor() -> CursorWrapper:
    """A cursor for one hot statement: server-side binding on PostgreSQL (see above), prepared unless
    DATABASE_PREPARED is off; Django's own elsewhere. Either way it is Django's wrapper, so errors, query
    logging and execute wrappers behave as for any cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if settings.DATABASE_PREPARED and raw.prepare_threshold is None:
        # Only server-side binding cursors (these) ever prepare: Django's own bind on the client side.
        raw.prepare_threshold = 0
    return connection._prepare_cursor(psycopg.Cursor(raw))  # type: ignore[attr-defined, no-any-return]  # Django's own wrapping of a cursor, private


@cache
def _locking_read() -> tuple[str, str, list[_Columns]]:
    """The locking read and the plain read of the same rows. On PostgreSQL the locking read also says
    whether the table's row it locked is the one its snapshot saw (`xmin`: the transaction that wrote
    that version of the row), as its last two columns."""
    quote = connection.ops.quote_name
    parts = [_Columns(Table, "t"), _Columns(Game, "g"), _Columns(Match, "m"), _Columns(FairDeal, "f")]
    table = quote(Table._meta.db_table)
    read = (
        f"SELECT {', '.join(part.sql for part in parts)} FROM {table} t"
        f" LEFT JOIN {quote(Game._meta.db_table)} g ON g.{quote('id')} = t.{quote('current_game_id')}"
        f" LEFT JOIN {quote(Match._meta.db_table)} m ON m.{quote('id')} = t.{quote('match_id')}"
        f" LEFT JOIN {quote(FairDeal._meta.db_table)} f ON f.{quote('match_id')} = m.{quote('id')}"
        f" WHERE t.{quote('id')} = %s"
    )
    locking = read
    if connection.vendor == "postgresql":
        seen = f"(SELECT s.xmin::text FROM {table} s WHERE s.{quote('id')} = t.{quote('id')})"
        locking = read.replace(" FROM ", f", t.xmin::text, {seen} FROM ", 1) + " FOR UPDATE OF t"
    elif connection.features.has_select_for_update_of:
        locking = read + " FOR UPDATE OF t"
    return locking, read, parts


def lock_table(table_id: int) -> Table | None:
    """The table's row, locked until the transaction ends, with its current game, its match and the
    match's fair deal attached (one statement). None if there is no such table.

    In READ COMMITTED, a `SELECT ... JOIN ... FOR UPDATE OF t` that waits for the lock re-reads the
    locked row once it is granted but keeps the joined rows of the snapshot it took before waiting
    (PostgreSQL's "EvalPlanQual" rule): a move waiting behind another would see the new table and the
    game as it was before that move. So the statement also reads the table row's `xmin` twice: as locked
    (the newest version) and as its snapshot saw it. When they differ, another transaction changed the
    table while this one waited, and the rows are read again by a new statement, whose snapshot is taken
    under the lock. Every service that writes a table's game, match or fair deal under this lock also
    writes the table's row (a move raises its version; a draft or a seed touches `updated_at`), so a
    change of the joined rows always shows as a change of the table's row
    (tests/tables/test_locking.py). Costs nothing when nobody waited: one statement, as before."""
    locking, read, parts = _locking_read()
    with _cursor() as cursor:
        cursor.execute(locking, [table_id])
        row = cursor.fetchone()
        if row is not None and connection.vendor == "postgresql":
            locked_version, seen_version = row[-2:]
            row = row[:-2]
            if locked_version != seen_version:
                cursor.execute(read, [table_id])
                row = cursor.fetchone()
    if row is None:
        return None
    at, built = 0, []
    for part in parts:
        built.append(part.build(row[at : at + len(part.fields)]))
        at += len(part.fields)
    table, game, match, fair = built
    assert isinstance(table, Table)
    if isinstance(match, Match):
        if fair is None:
            Match.fair_deal.related.set_cached_value(match, None)
        else:
            assert isinstance(fair, FairDeal)
            match.fair_deal = fair
        table.match = match
    if isinstance(game, Game):
        if isinstance(match, Match) and game.match_id == match.pk:
            game.match = match
        table.current_game = game
    return table


@cache
def _update_sql(model: type[models.Model], names: tuple[str, ...]) -> tuple[str, list[models.Field[Any, Any]]]:
    quote = connection.ops.quote_name
    fields = [_concrete_field(model, name) for name in names]
    columns = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    pk = model._meta.pk
    assert pk is not None
    return f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {quote(pk.column)} = %s", fields


def _concrete_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The model's field of that name, one with a column (not a relation seen from its other side)."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def update(instance: models.Model, names: Sequence[str]) -> None:
    """`instance.save(update_fields=names)`, without the ORM's compilation (auto_now fields still move)."""
    sql, fields = _update_sql(type(instance), tuple(names))
    with _cursor() as cursor:
        cursor.execute(sql, [*_params(fields, instance, False), instance.pk])


@cache
def _insert_sql(model: type[models.Model]) -> tuple[str, list[models.Field[Any, Any]]]:
    quote = connection.ops.quote_name
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})", fields


def insert(instance: models.Model) -> None:
    """`instance.save()` of a new row whose id nobody reads, without the ORM's compilation."""
    sql, fields = _insert_sql(type(instance))
    with _cursor() as cursor:
        cursor.execute(sql, _params(fields, instance, True))


@cache
def _write_sql(shape: tuple[tuple[type[models.Model], tuple[str, ...] | None], ...]) -> tuple[str, list[list[models.Field[Any, Any]]]]:
    """One statement for several rows' writes on PostgreSQL: every write but the last in a data-modifying
    WITH clause (they all run, on the same snapshot, whatever the main statement returns)."""
    parts = [_insert_sql(model) if names is None else _update_sql(model, names) for model, names in shape]
    *first, (last, _) = parts
    sql = last
    if first:
        sql = "WITH " + ", ".join(f"w{i} AS ({text})" for i, (text, _) in enumerate(first)) + " " + last
    return sql, [fields for _, fields in parts]


def write(*changes: tuple[models.Model, Sequence[str] | None]) -> None:
    """Several rows saved at once: each change is `(instance, None)` for `insert(instance)` or
    `(instance, names)` for `update(instance, names)`, in the order given. On PostgreSQL they are one
    statement (one round trip); elsewhere one statement each."""
    if connection.vendor != "postgresql":
        for instance, names in changes:
            if names is None:
                insert(instance)
            else:
                update(instance, names)
        return
    shape = tuple((type(instance), None if names is None else tuple(names)) for instance, names in changes)
    sql, fields_of = _write_sql(shape)
    params: list[Any] = []
    for (instance, names), fields in zip(changes, fields_of, strict=True):
        adding = names is None
        params += _params(fields, instance, adding)
        if not adding:
            params.append(instance.pk)
    with _cursor() as cursor:
        cursor.execute(sql, params)
