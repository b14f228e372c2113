"""The trigram index behind `name_contains` (migrations 0008_name_trigrams, 0009_name_trigram_content):
a substring of the normalised name is found from an index instead of by reading every name.

- PostgreSQL (migration 0010_pg_name_table): a plain table of (id, country, name_norm), written in
  name order and kept in step by triggers on `companies`, with one GIN index over the country
  (btree_gin) and the name's trigrams (pg_trgm). The index names candidates, which PostgreSQL
  re-tests on their rows: on this table's pages (10M: 548 MB, its index 206 MB) rather than on rows
  spread over the 30 GB `companies` table, and with a country the index narrows the candidates itself.
- SQLite: an FTS5 table with the `trigram` tokenizer that keeps its own copy of `companies.name_norm`
  (`detail='none'`: no positions, half the size), kept in step by three triggers
  (`companies_name_trgm_ai`, `_ad`, `_au`). The names holding every trigram of the term come from
  the index (a doclist intersection), and the substring test runs on those candidates only, on the
  table's own copy of the name, so the answer is exactly the substring test's and no row of the
  30 GB `companies` table (10M) is read to find the matches. Terms shorter than three characters
  have no trigram and are tested on every name instead.

  Its second column holds the company's country as a tag (`fr$`: a trigram no name holds, since
  names are letters, digits and spaces), so `name_contains` with `country` is one doclist
  intersection: candidates of other countries are never read (1M: 8,758 names hold "nord", 1,123
  of them French).

  The table's rowid is a *name key*, not the company id: the first KEY_CHARS characters of the name
  (code points capped at 127, 7 bits each) above the company id (ID_BITS bits). FTS5 returns
  candidates in rowid order, so they come in name order up to ties within a key prefix, and a page
  in name order reads the matches from the start of that order until it has the page and the rest
  of the last key prefix (then sorts those exactly), instead of walking the name index past every
  name that does not hold the term ("nord" clusters at "nord…": 233,000 index entries for the first
  20 matches at 1M).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    Integer,
    Select,
    TextClause,
    any_,
    bindparam,
    column,
    literal,
    select,
    table,
    text,
    tuple_,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import NullType

from regintel.db.schema import companies, latest_financials

FTS_TABLE = "companies_name_trgm"
MIN_TRIGRAM = 3  # FTS5's trigram tokenizer indexes nothing shorter
KEY_CHARS = 5
ID_BITS = 27  # company ids up to 134,217,727 (the insert trigger refuses larger ones)
ID_MASK = (1 << ID_BITS) - 1
PG_CHUNK = 500  # sorted matches tested against other filters per statement


def key_sql(name: str, id_: str) -> str:
    """SQL of the rowid for a name and a company id. The key never decreases as the name grows in
    SQLite's (code point) order: capping a code point at 127 keeps `<=`, and a missing character is 0."""
    chars = [
        f"(coalesce(min(unicode(substr({name}, {i + 1}, 1)), 127), 0) << {ID_BITS + 7 * (KEY_CHARS - 1 - i)})"
        for i in range(KEY_CHARS)
    ]
    return "(" + " | ".join([*chars, id_]) + ")"


def country_tag_sql(country: str) -> str:
    return f"(lower({country}) || '$')"


# Filling the FTS5 table from `companies` (bulk writers load with its triggers dropped, then this), in
# rowid order, which FTS5 appends fastest (1M companies: 7 s, against 17 s unsorted).
SQLITE_FILL = (
    f"INSERT INTO {FTS_TABLE}(rowid, name_norm, country) SELECT {key_sql('name_norm', 'id')} AS k, "
    f"name_norm, {country_tag_sql('country')} FROM companies ORDER BY k"
)

# PostgreSQL: the same, in name order, which keeps the matches of a term most names start with together.
PG_FILL = (
    f"INSERT INTO {FTS_TABLE} (id, country, name_norm) SELECT id, country, name_norm FROM companies "
    "ORDER BY name_norm, id"
)

trigrams = table(FTS_TABLE, column("rowid", Integer))
# FTS5 keeps the table's own copy of the rows in this shadow table (columns c0, c1, … in declaration
# order: sqlite.org/fts5.html, appendix B). Reading the names there, by rowid, is 2-3 times faster
# than through the FTS5 table's columns (1M: 10,001 "consulting" matches counted in 15 ms, not 37).
names = table(f"{FTS_TABLE}_content", column("id", Integer), column("c0"))
# PostgreSQL's name table (same name, a plain table there).
pg_names = table(FTS_TABLE, column("id", Integer), column("country"), column("name_norm"))


class NameContains(ColumnElement[bool]):
    """`companies.name_norm` holds `term` (already normalised) as a substring."""

    inherit_cache = True
    # A boolean condition typed NullType on purpose: as Boolean, SQLite would get `… = 1` appended.
    type = NullType()  # type: ignore[assignment]
    _traverse_internals = [
        ("term", InternalTraversal.dp_plain_obj),
        ("countries", InternalTraversal.dp_plain_obj),
    ]

    def __init__(self, term: str, countries: tuple[str, ...] = (), covers: ColumnElement[bool] | None = None):
        """`countries` (upper case), when given, narrow the SQLite candidates by their country tags;
        `covers` is the `country` condition they repeat, which a query of the trigram table alone may
        leave out."""
        self.term = term
        self.countries = countries
        self.covers = covers

    def tested(self) -> ColumnElement[bool]:
        """The bare substring test, for a plan that walks the name index and tests each entry: there
        the name is in the index entry, and testing it is cheaper than probing the trigram matches
        (at 10M, "nord": 165 ms against 540 ms for the same walk)."""
        return companies.c.name_norm.contains(self.term, autoescape=True)

    def indexed(self) -> bool:
        """Whether the trigram table finds it (terms of three characters or more)."""
        return len(self.term) >= MIN_TRIGRAM

    def fts_match(self) -> TextClause:
        """SQLite, on the trigram table: the candidates holding every trigram of the term."""
        return text(f"{FTS_TABLE} MATCH :trigram_query").bindparams(
            trigram_query=trigram_query(self.term, self.countries)
        )

    def names_like(self) -> ColumnElement[bool]:
        """SQLite: the substring test on the trigram table's copy of the name (`names`)."""
        return names.c.c0.contains(self.term, autoescape=True)


def company_id(key: Any) -> Any:
    """The company id in a trigram rowid (SQL)."""
    return key.op("&")(ID_MASK)


def pg_matches(name: NameContains, *columns: Any) -> Select[Any]:
    """PostgreSQL: the name table's rows that hold the term (in one of the countries, if any)."""
    query = select(*(columns or (pg_names.c.id,))).where(
        pg_names.c.name_norm.contains(name.term, autoescape=True)
    )
    if name.countries:
        query = query.where(pg_names.c.country.in_(name.countries))
    return query


def matches(name: NameContains, dialect: str = "sqlite") -> Select[Any]:
    """The matches of the name filter (and its countries) from the trigram table alone. SQLite: in
    its order (the key, the name, the company id), joined to the table's copy of the names by rowid
    and streamed, so that a LIMIT stops it early (an IN list would intersect every doclist first)."""
    if dialect == "postgresql":
        return pg_matches(name)
    key = trigrams.c.rowid
    return (
        select(key, names.c.c0, company_id(key))
        .select_from(trigrams.join(names, names.c.id == key))
        .where(name.fts_match(), name.names_like())
    )


def page_ids(
    conn: Connection,
    name: NameContains,
    others: list[Any],
    financials: bool,
    desc: bool,
    offset: int,
    limit: int,
) -> list[int]:
    """SQLite, a page in name order under `name_contains`: the matches in key order, each tested
    against `others` (conditions on `companies`, joined with `latest_financials` when `financials`)
    on its row as it comes. Reading stops once it has offset + limit of them and the rest of the last
    one's key prefix (the names the key cannot tell apart), which are then sorted exactly."""
    query = matches(name)
    if others:
        query = query.join(companies, companies.c.id == company_id(trigrams.c.rowid)).where(*others)
        if financials:
            query = query.join(
                latest_financials, latest_financials.c.company_id == companies.c.id, isouter=True
            )
    key = trigrams.c.rowid
    wanted = offset + limit
    found: list[tuple[int, str, int]] = []
    with conn.execute(
        query.order_by(key.desc() if desc else key.asc()).execution_options(yield_per=64)
    ) as rows:
        for row in rows:
            if len(found) >= wanted and row[0] >> ID_BITS != found[wanted - 1][0] >> ID_BITS:
                break
            found.append((row[0], row[1], row[2]))
    # Python orders str by code point, as SQLite's BINARY collation orders UTF-8.
    found.sort(key=lambda r: (r[1], r[2]), reverse=desc)
    return [r[2] for r in found[offset:wanted]]


def _pg_order(desc: bool) -> list[Any]:
    return (
        [pg_names.c.name_norm.desc(), pg_names.c.id.desc()] if desc else [pg_names.c.name_norm, pg_names.c.id]
    )


def pg_page_ids(
    conn: Connection,
    name: NameContains,
    others: list[Any],
    financials: bool,
    desc: bool,
    offset: int,
    limit: int,
) -> list[int]:
    """PostgreSQL, a page in name order under `name_contains`: the name table's matches, sorted (its
    pages are in name order, so the matches of a term most names start with are read from few of
    them). Without `others` (conditions on `companies`, joined with `latest_financials` when
    `financials`) a top-N sort keeps offset + limit of them; with them, the sorted matches are read
    PG_CHUNK at a time and each chunk's rows tested, until the page is full."""
    query = pg_matches(name).order_by(*_pg_order(desc))
    if not others:
        return list(conn.execute(query.offset(offset).limit(limit)).scalars())
    wanted = offset + limit
    found: list[int] = []
    source = (
        companies.outerjoin(latest_financials, latest_financials.c.company_id == companies.c.id)
        if financials
        else companies
    )
    with conn.execute(query.execution_options(yield_per=PG_CHUNK)) as rows:
        for chunk in rows.partitions():
            ids = [r[0] for r in chunk]
            kept = set(
                conn.execute(
                    select(companies.c.id).select_from(source).where(companies.c.id.in_(ids), *others)
                ).scalars()
            )
            found += [i for i in ids if i in kept]
            if len(found) >= wanted:
                break
    return found[offset:wanted]


def pg_sorted(conn: Connection, ids: list[int], desc: bool, offset: int, limit: int) -> list[int]:
    """PostgreSQL: a page of these company ids in name order, from the name table (by primary key)."""
    wanted = pg_names.c.id == any_(bindparam("ids", ids, type_=ARRAY(BigInteger)))
    return list(
        conn.execute(
            select(pg_names.c.id).where(wanted).order_by(*_pg_order(desc)).offset(offset).limit(limit)
        ).scalars()
    )


@compiles(NameContains)
def _compile(element: NameContains, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.tested(), **kw))


@compiles(NameContains, "postgresql")
def _compile_postgresql(element: NameContains, compiler: Any, **kw: Any) -> str:
    # The ids from the name table: its GIN index serves LIKE with leading and trailing wildcards, and
    # the re-test reads its compact rows. A term under three characters has no trigram to look up:
    # it is tested on the rows the other conditions (or a walk of the name index) bring.
    if not element.indexed():
        return str(compiler.process(element.tested(), **kw))
    # By (name, id), not id alone: the planner may then probe `ix_companies_name_sort` (which holds the
    # common filters' columns) by index-only scans instead of reading each candidate's row (10M,
    # `nace=62&name_contains=nord`: 87,448 probes, 963 ms by row, 110-160 ms in the index).
    pair = tuple_(companies.c.name_norm, companies.c.id)
    return str(compiler.process(pair.in_(pg_matches(element, pg_names.c.name_norm, pg_names.c.id)), **kw))


@compiles(NameContains, "sqlite")
def _compile_sqlite(element: NameContains, compiler: Any, **kw: Any) -> str:
    # Beside other filters: the candidates' ids (the doclists alone) as a set that either drives the
    # query or is probed, and the substring tested on the row, which the other filters read anyway.
    # The ids come in name-key order; sorted, the rows they drive to are read in file order (1M, 16,480
    # "bau" candidates: 31 ms against 52).
    substring = str(compiler.process(element.tested(), **kw))
    if not element.indexed():
        return substring
    match = compiler.process(literal(trigram_query(element.term, element.countries)), **kw)
    return (
        f"({compiler.process(companies.c.id, **kw)} IN (SELECT rowid & {ID_MASK} AS id FROM {FTS_TABLE} "
        f"WHERE {FTS_TABLE} MATCH {match} ORDER BY id) AND {substring})"
    )


def trigram_query(term: str, countries: tuple[str, ...] = ()) -> str:
    """An FTS5 query for the names holding every trigram of `term` (each quoted, so no character is
    query syntax), of one of `countries` if any. Without positions FTS5 cannot check their order: the
    caller tests the substring on those candidates (at 10M, 87,544 candidates for the 87,448 names
    holding "nord")."""
    grams = dict.fromkeys(term[i : i + MIN_TRIGRAM] for i in range(len(term) - MIN_TRIGRAM + 1))
    query = " AND ".join(_quoted(g) for g in grams)
    if countries:
        query += " AND (" + " OR ".join(_quoted(cc.lower() + "$") for cc in countries) + ")"
    return query


def _quoted(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'
