"""Planner hints, written as SQL that means the same on every backend.

`Unindexed` and `Unordered` carry a decision made from exact counts (which read plan a page takes)
and apply on every backend. `Rare` and `Common` stand in for statistics that SQLite lacks (its
Python build has no STAT4, and nothing runs ANALYZE by default); on PostgreSQL, whose planner has
them, they render as the bare condition.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import NullType


class Unindexed(ColumnElement[bool]):
    """A condition no planner may answer from an index, so that it walks the ORDER BY index instead and
    stops after one page (chosen from the exact match count, which beats any estimate). Written
    `coalesce(cond, false)`: same truth value, but neither an index term nor (unlike `+cond`) a
    null-rejecting one that would turn the LEFT JOIN to latest_financials into an inner join that the
    planner may reorder."""

    inherit_cache = True
    # A boolean condition typed NullType on purpose: as Boolean, SQLite would get `… = 1` appended, which no
    # index serves.
    type = NullType()  # type: ignore[assignment]
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[bool]):
        self.clause = clause


@compiles(Unindexed)
def _compile_unindexed(element: Unindexed, compiler: Any, **kw: Any) -> str:
    return "coalesce(" + str(compiler.process(element.clause, **kw)) + ", false)"


@compiles(Unindexed, "sqlite")
def _compile_unindexed_sqlite(element: Unindexed, compiler: Any, **kw: Any) -> str:
    return "coalesce(" + str(compiler.process(element.clause, **kw)) + ", 0)"


class Rare(ColumnElement[bool]):
    """A condition few rows meet (an LEI: a few per cent of companies), told to the SQLite planner with
    `unlikely()`: without per-value statistics it would rate `lei > ''` as matching a quarter of the
    table and prefer a broader index. PostgreSQL has the statistics."""

    inherit_cache = True
    # A boolean condition typed NullType on purpose: as Boolean, SQLite would get `… = 1` appended, which no
    # index serves.
    type = NullType()  # type: ignore[assignment]
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[bool]):
        self.clause = clause


@compiles(Rare)
def _compile_rare(element: Rare, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.clause, **kw))


@compiles(Rare, "sqlite")
def _compile_rare_sqlite(element: Rare, compiler: Any, **kw: Any) -> str:
    return "unlikely(" + str(compiler.process(element.clause, **kw)) + ")"


class Unordered(ColumnElement[Any]):
    """A grouping or sort key no planner may read in index order (`coalesce(key, key)`): under a
    selective condition (a flag, an LEI, a region) it should find the few rows by the condition's index
    and group or sort them, not walk every row in key order to test the condition. (PostgreSQL with
    the default random_page_cost = 4 walks `name_norm` for 1,789 bankrupt French companies of 1M: 234
    ms, against 32 ms this way.)"""

    inherit_cache = True
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[Any]):
        self.clause = clause
        self.type = clause.type


@compiles(Unordered)
def _compile_unordered(element: Unordered, compiler: Any, **kw: Any) -> str:
    # The same value and type, but no index gives its order.
    text = str(compiler.process(element.clause, **kw))
    return f"coalesce({text}, {text})"


class Common(ColumnElement[bool]):
    """A condition most rows meet (a country holds millions of companies, most are active), told to the
    SQLite planner with `likelihood(…, 0.9)` so that it drives the query from the other, specific
    filter's index, whose second column is the country (`(nace, country)`: both answered in the index)."""

    inherit_cache = True
    type = NullType()  # type: ignore[assignment]  # as above: no `… = 1` appended
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[bool]):
        self.clause = clause


@compiles(Common)
def _compile_common(element: Common, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.clause, **kw))


@compiles(Common, "sqlite")
def _compile_common_sqlite(element: Common, compiler: Any, **kw: Any) -> str:
    return "likelihood(" + str(compiler.process(element.clause, **kw)) + ", 0.9)"
