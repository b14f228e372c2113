"""Planner hints for SQLite, written as SQL that means the same on every backend.

SQLite plans without per-value statistics (its Python build has no STAT4) and never reorders a LEFT
JOIN, so three conditions that look alike to it need saying apart. On PostgreSQL, whose planner has
the statistics and costs LIMIT itself, each construct renders as the bare expression.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Integer, Numeric
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import NullType


class Unindexed(ColumnElement[bool]):
    """A condition the SQLite planner must not answer from an index, so that it walks the ORDER BY
    index instead and stops after one page. Written `coalesce(cond, 0)`: same truth value, but neither
    an index term nor (unlike `+cond`) a null-rejecting one that would turn the LEFT JOIN to
    latest_financials into an inner join SQLite may reorder. PostgreSQL's planner costs LIMIT itself."""

    inherit_cache = True
    type = NullType()  # as Boolean, SQLite would get `… = 1` appended, which no index serves
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[bool]):
        self.clause = clause


@compiles(Unindexed)
def _compile_unindexed(element: Unindexed, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.clause, **kw))


@compiles(Unindexed, "sqlite")
def _compile_unindexed_sqlite(element: Unindexed, compiler: Any, **kw: Any) -> str:
    return "coalesce(" + str(compiler.process(element.clause, **kw)) + ", 0)"


class Rare(ColumnElement[bool]):
    """A condition few rows meet (an LEI: a few per cent of companies), told to the SQLite planner with
    `unlikely()`: without per-value statistics it would rate `lei > ''` as matching a quarter of the
    table and prefer a broader index. PostgreSQL has the statistics."""

    inherit_cache = True
    type = NullType()  # as Boolean, SQLite would get `… = 1` appended, which no index serves
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
    """A grouping or sort key the SQLite planner must not read in index order (`key || ''`): under a
    selective condition (a flag, an LEI, a region) it should find the few rows by the condition's index
    and group or sort them, not walk every row in key order to test the condition."""

    inherit_cache = True
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[Any]):
        self.clause = clause
        self.type = clause.type


@compiles(Unordered)
def _compile_unordered(element: Unordered, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.clause, **kw))


@compiles(Unordered, "sqlite")
def _compile_unordered_sqlite(element: Unordered, compiler: Any, **kw: Any) -> str:
    # `+ 0` for numbers (text would order 9 after 10), `|| ''` for text and the ISO dates SQLite stores.
    suffix = " + 0" if isinstance(element.type, (Integer, Numeric)) else " || ''"
    return "(" + str(compiler.process(element.clause, **kw)) + suffix + ")"


class Common(ColumnElement[bool]):
    """A condition most rows meet (a country holds millions of companies, most are active), told to the
    SQLite planner with `likelihood(…, 0.9)` so that it drives the query from the other, specific
    filter's index, whose second column is the country (`(nace, country)`: both answered in the index)."""

    inherit_cache = True
    type = NullType()
    _traverse_internals = [("clause", InternalTraversal.dp_clauseelement)]

    def __init__(self, clause: ColumnElement[bool]):
        self.clause = clause


@compiles(Common)
def _compile_common(element: Common, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.clause, **kw))


@compiles(Common, "sqlite")
def _compile_common_sqlite(element: Common, compiler: Any, **kw: Any) -> str:
    return "likelihood(" + str(compiler.process(element.clause, **kw)) + ", 0.9)"
