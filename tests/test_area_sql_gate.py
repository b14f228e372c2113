"""SQL placement (docs/architecture.md, "Areas"): in `src/regintel/areas/`, only an area's `queries.py`
or a module of its `queries/` package builds SQL; its other modules call those functions.

The check reads each module's syntax tree, so it needs no import and sees every branch. A module builds
SQL when it
- uses a statement or expression constructor it imported from SQLAlchemy (`select`, `insert`, `func`,
  `and_`, `text`, a dialect's `insert`, ...), other than in an annotation;
- names a column of any table (`t.c.name`), or reaches into a table it imported (from
  `regintel.db.schema` or an area's `tables`) for its columns (`.c`, `.columns`) or a statement
  (`.select()`, `.insert()`, `.update()`, `.delete()`, `.join()`);
- hands `execute` a string, or calls `exec_driver_sql`;
- holds an SQL statement in a string (`"SELECT ..."`, `"DELETE FROM ..."`).
What stays allowed: SQLAlchemy types in annotations and `isinstance` checks (`Connection`, `Table`,
`DateTime`), tables passed whole to a queries function, catching SQLAlchemy's exceptions. `tables.py` is
not checked: it holds the area's schema, the counterpart of `db/schema.py`, whose DDL may need `text` or
`func` (a server default, an expression index)."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

AREAS = Path(__file__).resolve().parents[1] / "src" / "regintel" / "areas"

# SQLAlchemy's statement and expression constructors (sqlalchemy.sql.expression and the dialects' insert).
BUILDERS = frozenset(
    {
        "select", "insert", "update", "delete", "text", "union", "union_all", "intersect", "intersect_all",
        "except_", "except_all", "exists", "func", "and_", "or_", "not_", "case", "cast", "type_coerce",
        "literal", "literal_column", "bindparam", "tuple_", "distinct", "desc", "asc", "null", "true",
        "false", "column", "table", "lateral", "values", "join", "outerjoin", "over", "extract",
        "between", "any_", "all_", "nulls_first", "nulls_last", "collate", "within_group", "funcfilter",
        "label", "alias", "Select", "Insert", "Update", "Delete", "TextClause",
    }
)  # fmt: skip
TABLE_ATTRIBUTES = frozenset({"c", "columns", "select", "insert", "update", "delete", "join", "outerjoin"})
# A statement's opening words, not a sentence's ("Create a subscription", "Select the companies ...").
SQL_STRING = re.compile(
    r"^\s*(SELECT\s+(\*|DISTINCT\s|COUNT\(|[\w.]+\s*(,|\s+FROM\s))|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s"
    r"|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\(|(CREATE|DROP)\s+(UNIQUE\s+)?(TABLE|INDEX|VIEW)\s"
    r"|ALTER\s+TABLE\s|PRAGMA\s+\w+)",
    re.IGNORECASE,
)
TABLE_MODULES = ("regintel.db.schema",)


def _is_tables_module(module: str | None, level: int) -> bool:
    """`.tables`, `..funds.tables`, `regintel.areas.<area>.tables`, or `regintel.db.schema`."""
    if module is None:
        return False
    if module in TABLE_MODULES:
        return True
    last = module.rsplit(".", 1)[-1]
    return last == "tables" and (level > 0 or module.startswith("regintel.areas."))


class _Imports(ast.NodeVisitor):
    """The names a module bound to SQLAlchemy's constructors and modules, and to tables."""

    def __init__(self) -> None:
        self.builders: set[str] = set()  # `from sqlalchemy import select as s` -> "s"
        # `import sqlalchemy as sa`, `from sqlalchemy.dialects import sqlite`
        self.sa_modules: set[str] = set()
        self.tables: set[str] = set()  # names imported from a tables module
        self.table_modules: set[str] = set()  # `from . import tables` -> "tables"

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "sqlalchemy" or alias.name.startswith("sqlalchemy."):
                self.sa_modules.add(alias.asname or alias.name.split(".")[0])
            elif alias.name in TABLE_MODULES and alias.asname:
                self.table_modules.add(alias.asname)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        for alias in node.names:
            bound = alias.asname or alias.name
            if module == "sqlalchemy" or module.startswith("sqlalchemy."):
                if alias.name in BUILDERS:
                    self.builders.add(bound)
                elif module.startswith("sqlalchemy.dialects") or alias.name in {"sql", "dialects"}:
                    self.sa_modules.add(bound)
            elif _is_tables_module(node.module, node.level):
                self.tables.add(bound)
            elif alias.name == "tables" or f"{module}.{alias.name}" in TABLE_MODULES:
                self.table_modules.add(bound)


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """ids of every node inside an annotation: types named there build nothing."""
    roots: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            roots.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
    return {id(n) for root in roots for n in ast.walk(root)}


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _is_string(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):  # "..." + x, "..." % x
        return _is_string(node.left)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"


def _table_name(node: ast.expr, imports: _Imports) -> str | None:
    if isinstance(node, ast.Name) and node.id in imports.tables:
        return node.id
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in imports.table_modules
    ):
        return f"{node.value.id}.{node.attr}"
    return None


def sql_built(source: str) -> list[tuple[int, str]]:
    """(line, what) for each place the module's source builds SQL."""
    tree = ast.parse(source)
    imports = _Imports()
    imports.visit(tree)
    annotations = _annotation_nodes(tree)
    docstrings = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in annotations:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in imports.builders:
            found.append((node.lineno, f"SQLAlchemy's {node.id}"))
        elif isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in imports.sa_modules:
                if node.attr in BUILDERS:
                    found.append((node.lineno, f"SQLAlchemy's {node.value.id}.{node.attr}"))
            table = _table_name(node.value, imports)
            if table is not None and node.attr in TABLE_ATTRIBUTES:
                found.append((node.lineno, f"table {table}.{node.attr}"))
            elif isinstance(node.value, ast.Attribute) and node.value.attr == "c":
                found.append((node.lineno, f"column .c.{node.attr}"))  # of any table, imported or not
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "exec_driver_sql":
                found.append((node.lineno, "exec_driver_sql"))
            elif node.func.attr in {"execute", "executemany"} and node.args and _is_string(node.args[0]):
                found.append((node.lineno, f"{node.func.attr} of a string"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if SQL_STRING.match(node.value):
                found.append((node.lineno, f"an SQL string {node.value.strip()[:30]!r}"))
    return sorted(set(found))


def _is_queries(path: Path) -> bool:
    relative = path.relative_to(AREAS)
    return path.name == "queries.py" or "queries" in relative.parts[:-1]


def _checked_modules() -> list[Path]:
    return sorted(p for p in AREAS.rglob("*.py") if not _is_queries(p) and p.name != "tables.py")


def test_areas_build_sql_only_in_their_queries_modules() -> None:
    offences = [
        f"{path.relative_to(AREAS.parents[1])}:{line}: {what}"
        for path in _checked_modules()
        for line, what in sql_built(path.read_text(encoding="utf-8"))
    ]
    assert not offences, "SQL outside the areas' queries modules:\n" + "\n".join(offences)


def test_the_gate_reads_every_area() -> None:
    checked = {p.relative_to(AREAS).parts[0] for p in _checked_modules()}
    assert {"companies", "public_money", "screening", "accounts"} <= checked
    assert not any(_is_queries(p) for p in _checked_modules())


# The checker itself: each snippet builds SQL, so the gate can fail.
BUILDS_SQL = {
    "select": "from sqlalchemy import select\ndef f(conn, t):\n    return conn.execute(select(t)).all()\n",
    "renamed": "from sqlalchemy import func as fn\nx = fn.count()\n",
    "module": "import sqlalchemy as sa\ndef f(conn, t):\n    return conn.execute(sa.delete(t))\n",
    "dialect insert": (
        "from sqlalchemy.dialects import postgresql\ndef f(t):\n    return postgresql.insert(t)\n"
    ),
    "passed, not called": "from sqlalchemy import and_\ndef f(q, a, b):\n    return q.where(and_, a, b)\n",
    "table columns": (
        "from regintel.db.schema import companies\n"
        "def f(conn, q):\n    return q.ids(conn, companies.c.country == 'SK')\n"
    ),
    "table statement": (
        "from .tables import contracts\ndef f(conn):\n    conn.execute(contracts.insert().values(x=1))\n"
    ),
    "a column of a table passed in": "def f(q, conn, t):\n    return q.rows(conn, t, t.c.name)\n",
    "tables module": "from . import tables\ndef f(conn):\n    conn.execute(tables.contracts.delete())\n",
    "text string": "def f(conn):\n    conn.execute('DELETE FROM contracts')\n",
    "f-string": "def f(conn, t):\n    conn.execute(f'select * from {t}')\n",
    "driver sql": "def f(conn):\n    conn.exec_driver_sql('VACUUM')\n",
    "statement in a string": "STALE = 'UPDATE vat_payers SET company_id = NULL WHERE id = :id'\n",
    "query in a string": 'Q = """\n  select id, name from companies where country = :c"""\n',
}

BUILDS_NONE = {
    "calls queries": (
        "from sqlalchemy.engine import Connection\nfrom . import queries\n"
        "def f(conn: Connection, ids: list[int]) -> int:\n    return queries.count(conn, ids)\n"
    ),
    "annotations only": (
        "from __future__ import annotations\nfrom sqlalchemy import Select, Table, Engine\n"
        "def f(engine: Engine, t: Table) -> Select[tuple[int]]:\n    ...\n"
        "x: Select[tuple[int]] | None = None\n"
    ),
    "types checked": (
        "from sqlalchemy import DateTime, Table\n"
        "def f(kind: object) -> bool:\n    return isinstance(kind, DateTime)\n"
    ),
    "table passed whole": (
        "from .tables import contracts\nfrom . import queries\n"
        "def f(conn):\n    return queries.count(conn, contracts), contracts.name\n"
    ),
    "sqlalchemy errors": (
        "from sqlalchemy.exc import IntegrityError\n"
        "def f(g):\n    try:\n        g()\n    except IntegrityError:\n        pass\n"
    ),
    "columns looked up": ("def f(t, row):\n    return {k: t.c[k].type for k in row if k in t.c}\n"),
    "SQL in a docstring": 'def f():\n    """SELECT the rows: see queries."""\n',
    "prose": "HELP = 'Select the companies of one country'\n",
    "other execute": "def f(job):\n    return job.execute(retry=True)\n",
}


@pytest.mark.parametrize("name", sorted(BUILDS_SQL))
def test_the_checker_flags_sql(name: str) -> None:
    assert sql_built(textwrap.dedent(BUILDS_SQL[name])), name


@pytest.mark.parametrize("name", sorted(BUILDS_NONE))
def test_the_checker_leaves_queries_calls_alone(name: str) -> None:
    assert sql_built(textwrap.dedent(BUILDS_NONE[name])) == [], name
