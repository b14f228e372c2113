"""Aggregate reads over companies for the statistics endpoints (conn-first, plain rows out)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    Integer,
    and_,
    case,
    column,
    desc,
    func,
    inspect,
    or_,
    select,
    table,
    true,
)
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.company_filters import Conditions, base_query, c
from regintel.db.schema import (
    NACE_DIGITS,
    code_list_items,
    companies,
    company_changes,
    company_sources,
    data_sources,
    import_runs,
    latest_financials,
)
from regintel.db.sql_hints import Rare, Unordered


class DataVersion(NamedTuple):
    change_id: int | None
    run_id: int | None
    run_finished_at: datetime | None
    privacy_action_id: int | None = None

    @property
    def importing(self) -> bool:
        """The newest import run has not finished (or was killed outright)."""
        return self.run_id is not None and self.run_finished_at is None


def data_version(conn: Connection) -> DataVersion:
    """Changes whenever imported data does: the newest change-log row, the newest import run and
    when that run finished (primary-key ends). The finish matters: bulk writers (`regintel synth`)
    log no changes, and a run's end writes its status and the catalogue's figures, so a figure
    computed while a run was still writing must not pass for current once it is over."""
    last_run = conn.execute(
        select(import_runs.c.id, import_runs.c.finished_at).order_by(desc(import_runs.c.id)).limit(1)
    ).first()
    return DataVersion(
        conn.execute(select(func.max(company_changes.c.id))).scalar(),
        last_run[0] if last_run else None,
        last_run[1] if last_run else None,
        _privacy_action(conn),
    )


# A withholding of a natural person (areas/accounts) deletes or rewrites served rows and writes neither the
# change log nor an import run: its log's newest id is part of the version. Named, not imported (db sits
# below the areas); a database migrated before that log has none.
_privacy_actions = table("privacy_actions", column("id"))
_has_privacy_actions: set[str] = set()


def _privacy_action(conn: Connection) -> int | None:
    url = str(conn.engine.url)
    if url not in _has_privacy_actions:
        if not inspect(conn).has_table("privacy_actions"):
            return None
        _has_privacy_actions.add(url)
    found = conn.execute(select(func.max(_privacy_actions.c.id))).scalar()
    return None if found is None else int(found)


FLAGS = ("in_bankruptcy", "in_restructuring", "in_liquidation")


def _sum(condition: ColumnElement[bool]) -> Any:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _counts(
    conn: Connection,
    cond: Conditions,
    keys: Sequence[Any],
    join: tuple[Any, Any] | None,
    selective: bool = False,
) -> dict[tuple[Any, ...], int]:
    labelled = [(Unordered(k) if selective else k).label(f"key{i}") for i, k in enumerate(keys)]
    query = base_query(cond, *labelled, func.count())
    if join is not None:
        query = query.join(*join)
    return {tuple(row[:-1]): int(row[-1]) for row in conn.execute(query.group_by(*labelled))}


def grouped(
    conn: Connection, cond: Conditions, keys: Sequence[Any], *, join: tuple[Any, Any] | None = None
) -> list[dict[str, Any]]:
    """Matching companies grouped by `keys` (key0, key1, …) with `count` and the three insolvency flags.

    Counting only (no other column) lets an index that starts with the keys answer without reading rows;
    each flag is a second count restricted to the flagged rows, which their partial indexes find."""
    groups = {k: {"count": n, **dict.fromkeys(FLAGS, 0)} for k, n in _counts(conn, cond, keys, join).items()}
    for flag in FLAGS:
        flagged = Conditions([*cond.where, c[flag] == true()], cond.needs_financials)
        for k, n in _counts(conn, flagged, keys, join, selective=True).items():
            groups.setdefault(k, {"count": 0, **dict.fromkeys(FLAGS, 0)})[flag] = n
    return [{**{f"key{i}": v for i, v in enumerate(k)}, **figures} for k, figures in groups.items()]


def grouped_by_source(conn: Connection, cond: Conditions) -> list[dict[str, Any]]:
    return grouped(
        conn, cond, (company_sources.c.source,), join=(company_sources, company_sources.c.company_id == c.id)
    )


def address_density(conn: Connection, cond: Conditions) -> list[RowMapping]:
    """How many addresses hold 1, 2-4, 5-9, 10-49, 50-99, 100+ companies, and those companies."""
    per_address = (
        base_query(cond, c.address_norm, func.count().label("n"))
        .where(c.address_norm.is_not(None))
        .group_by(c.address_norm)
        .subquery()
    )
    n = per_address.c.n
    bucket = case(
        (n == 1, "1"), (n < 5, "2-4"), (n < 10, "5-9"), (n < 50, "10-49"), (n < 100, "50-99"), else_="100+"
    ).label("bucket")
    query = select(bucket, func.count().label("addresses"), func.sum(n).label("companies")).group_by(bucket)
    return list(conn.execute(query).mappings())


def dense_addresses(
    conn: Connection, cond: Conditions, min_companies: int, limit: int
) -> list[tuple[str, int]]:
    """(normalised address, companies) with at least `min_companies`, densest first: a count over the
    address index alone when no other filter applies."""
    query = (
        base_query(cond, c.address_norm, func.count().label("n"))
        .where(c.address_norm.is_not(None))
        .group_by(c.address_norm)
        .having(func.count() >= min_companies)
        .order_by(desc("n"), c.address_norm)
        .limit(limit)
    )
    return [(row[0], int(row[1])) for row in conn.execute(query)]


def address_details(conn: Connection, cond: Conditions, addresses: list[str]) -> dict[str, RowMapping]:
    """For each address: a display form, its country, and its companies by status and flag."""
    if not addresses:
        return {}
    query = (
        base_query(
            cond,
            c.address_norm,
            func.min(c.country).label("country"),
            func.max(c.address_text).label("address"),
            func.max(c.city).label("city"),
            func.max(c.postal_code).label("postal_code"),
            func.count().label("count"),
            _sum(c.status == "active").label("active"),
            _sum(c.status == "dissolved").label("dissolved"),
            _sum(or_(c.in_bankruptcy == true(), c.in_restructuring == true())).label("insolvent"),
            _sum(c.in_liquidation == true()).label("in_liquidation"),
        )
        .where(c.address_norm.in_(addresses))
        .group_by(c.address_norm)
    )
    return {row["address_norm"]: row for row in conn.execute(query).mappings()}


def address_samples(
    conn: Connection, cond: Conditions, addresses: list[str], per_address: int
) -> list[RowMapping]:
    """The first matching companies (by id) registered at each address, in one query."""
    if not addresses:
        return []
    rank = func.row_number().over(partition_by=c.address_norm, order_by=c.id).label("rank")
    inner = (
        base_query(
            cond,
            c.address_norm,
            c.country,
            c.national_id,
            c.name,
            c.status,
            c.in_bankruptcy,
            c.in_restructuring,
            c.in_liquidation,
            rank,
        )
        .where(c.address_norm.in_(addresses))
        .subquery()
    )
    return list(
        conn.execute(
            select(inner).where(inner.c.rank <= per_address).order_by(inner.c.address_norm, inner.c.rank)
        ).mappings()
    )


def overview(conn: Connection) -> dict[str, list[RowMapping]]:
    """Per country: companies by status, the flags, and how many carry an LEI, a VAT id, statements.
    Each figure is one grouped count an index answers (the (country, status) index, the flags'
    partial indexes, the LEI and VAT id indexes, latest_financials' country)."""
    out: dict[str, list[RowMapping]] = {
        "by_status": list(
            conn.execute(
                select(c.country, c.status, func.count().label("count")).group_by(c.country, c.status)
            ).mappings()
        )
    }
    for name, condition in (
        ("in_bankruptcy", c.in_bankruptcy == true()),
        ("in_restructuring", c.in_restructuring == true()),
        ("in_liquidation", c.in_liquidation == true()),
        ("with_lei", Rare(c.lei > "")),
        ("with_vat_id", c.vat_id > ""),
    ):
        country = Unordered(c.country).label("country")
        query = base_query(Conditions([condition], False), country, func.count().label("count"))
        out[name] = list(conn.execute(query.group_by(country)).mappings())
    lf = latest_financials.c
    out["with_financials"] = list(
        conn.execute(select(lf.country, func.count().label("count")).group_by(lf.country)).mappings()
    )
    return out


def country_counts(conn: Connection) -> list[RowMapping]:
    """Entities and active entities per country (the (country, status) index alone answers it)."""
    query = (
        select(c.country, func.count().label("count"), _sum(c.status == "active").label("active"))
        .group_by(c.country)
        .order_by(desc("count"))
    )
    return list(conn.execute(query).mappings())


def sources(conn: Connection) -> list[RowMapping]:
    return list(conn.execute(select(data_sources).order_by(data_sources.c.id)).mappings())


def last_runs(conn: Connection, limit: int) -> list[RowMapping]:
    return list(conn.execute(select(import_runs).order_by(desc(import_runs.c.id)).limit(limit)).mappings())


def last_run_per_source(conn: Connection) -> dict[str, RowMapping]:
    latest = select(func.max(import_runs.c.id)).group_by(import_runs.c.source).scalar_subquery()
    rows = conn.execute(select(import_runs).where(import_runs.c.id.in_(latest))).mappings()
    return {row["source"]: row for row in rows}


def seen_per_source(conn: Connection) -> list[RowMapping]:
    """Companies per source with the oldest and newest `last_seen` (one index scan)."""
    cs = company_sources.c
    query = (
        select(
            cs.source,
            func.count().label("companies"),
            func.min(cs.last_seen).label("oldest_seen"),
            func.max(cs.last_seen).label("newest_seen"),
        )
        .group_by(cs.source)
        .order_by(cs.source)
    )
    return list(conn.execute(query).mappings())


def coverage(conn: Connection) -> dict[str, Any]:
    """How many companies carry an LEI, NACE, an address, a VAT id; and have financial statements.
    One count per column so that each is answered by that column's index."""
    counts = {
        "companies": select(func.count()).select_from(companies),
        "lei": select(func.count()).where(c.lei > ""),
        "nace": select(func.count()).where(NACE_DIGITS >= ""),
        "address": select(func.count()).where(c.address_norm > ""),
        "vat_id": select(func.count()).where(c.vat_id > ""),
        "financials": select(func.count()).select_from(latest_financials),
    }
    out: dict[str, Any] = {name: int(conn.execute(query).scalar_one()) for name, query in counts.items()}
    out["last_update"] = conn.execute(select(func.max(c.updated_at))).scalar()
    return out


def labels(conn: Connection, list_name: str, codes: Iterable[str]) -> dict[str, RowMapping]:
    """Code-list items (name_en, name_sk, parent, extra) of `codes` in one list."""
    wanted = sorted({code for code in codes if code})
    if not wanted:
        return {}
    query = select(
        code_list_items.c.code,
        code_list_items.c.name_en,
        code_list_items.c.name_sk,
        code_list_items.c.parent,
        code_list_items.c.extra,
    ).where(and_(code_list_items.c.list_name == list_name, code_list_items.c.code.in_(wanted)))
    return {row["code"]: row for row in conn.execute(query).mappings()}


def year_of(column: Any) -> Any:
    """The year of a date column on both backends."""
    return func.extract("year", column).cast(Integer)
