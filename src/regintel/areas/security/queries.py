"""The security area's SQL: company domains (and their import), stored checks and their signals, the
brand-signal list."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Row, and_, delete, func, select, update
from sqlalchemy.engine import Connection

from regintel.areas.security.tables import company_domains, security_checks, security_signals
from regintel.db.engine import upsert
from regintel.db.schema import companies, data_sources

d, k, s = company_domains.c, security_checks.c, security_signals.c


def _rows(result: Iterable[Any]) -> list[Mapping[str, Any]]:
    # RowMapping is typed Mapping[str | Column, Any]: cast, no run-time change.
    return [cast("Mapping[str, Any]", r._mapping) for r in result]


def domains_of(conn: Connection, country: str, national_id: str) -> list[Mapping[str, Any]]:
    """The company's domains with their source's catalogue entry (licence, attribution)."""
    ds = data_sources.c
    stmt = (
        select(
            d.host,
            d.registered_domain,
            d.kind,
            d.value,
            d.source,
            d.source_record,
            d.published_on,
            d.retrieved_at,
            d.run_id,
            ds.name.label("source_name"),
            ds.licence,
            ds.attribution,
        )
        .select_from(company_domains.outerjoin(data_sources, ds.id == d.source))
        .where(d.country == country, d.national_id == national_id)
        .order_by(d.kind.desc(), d.host, d.source)
    )
    return _rows(conn.execute(stmt))


def checks_for(conn: Connection, hosts: Sequence[str]) -> dict[str, Mapping[str, Any]]:
    if not hosts:
        return {}
    return {r["host"]: r for r in _rows(conn.execute(select(security_checks).where(k.host.in_(list(hosts)))))}


def signals_for(conn: Connection, hosts: Sequence[str]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {}
    if not hosts:
        return out
    stmt = select(security_signals).where(s.host.in_(list(hosts))).order_by(s.host, s.kind, s.name)
    for row in _rows(conn.execute(stmt)):
        out.setdefault(row["host"], []).append(row)
    return out


def host_known(conn: Connection, host: str) -> bool:
    """Whether a register published the host for some company (only those are ever checked)."""
    return conn.execute(select(d.id).where(d.host == host).limit(1)).first() is not None


def holders(conn: Connection, hosts: Sequence[str]) -> dict[str, list[Mapping[str, Any]]]:
    """Companies that published each host (country, national id, name when the company is loaded)."""
    c = companies.c
    stmt = (
        select(d.host, d.country, d.national_id, d.kind, d.source, c.name)
        .select_from(
            company_domains.outerjoin(companies, and_(c.country == d.country, c.national_id == d.national_id))
        )
        .where(d.host.in_(list(hosts)))
        .order_by(d.host, d.country, d.national_id, d.kind)
    )
    out: dict[str, list[Mapping[str, Any]]] = {}
    for row in _rows(conn.execute(stmt)) if hosts else []:
        out.setdefault(row["host"], []).append(row)
    return out


def save_check(conn: Connection, row: dict[str, Any], signal_rows: Sequence[dict[str, Any]]) -> None:
    """Replace the host's stored check and signals (one transaction: the caller's)."""
    upsert(conn, security_checks, [row], keys=["host"])
    conn.execute(delete(security_signals).where(s.host == row["host"]))
    if signal_rows:
        conn.execute(security_signals.insert(), list(signal_rows))


def signal_page(
    conn: Connection, filters: Mapping[str, Any], page: int, per_page: int
) -> tuple[int, list[Mapping[str, Any]]]:
    """Checked hosts (status `done`) matching every filter, by host name."""
    where: list[Any] = [k.status == "done"]
    for kind in ("technology", "mail_provider", "cert_issuer"):
        value = filters.get(kind)
        if value:  # technology and mail-provider names are canonical (the rule file's), issuers free text
            name = s.name == value if kind != "cert_issuer" else func.lower(s.name) == value.lower()
            where.append(k.host.in_(select(s.host).where(s.kind == kind, name)))
    if filters.get("category"):
        where.append(
            k.host.in_(
                select(s.host).where(
                    s.kind == "technology", func.lower(s.category) == str(filters["category"]).lower()
                )
            )
        )
    if filters.get("domain"):
        host, registered = filters["domain"]
        under = (k.host == host) | k.host.like("%." + host.replace("%", "").replace("_", "\\_"), escape="\\")
        where.append(k.host.in_(select(d.host).where(d.registered_domain == registered)))
        where.append(under)
    if filters.get("max_score") is not None:
        where.append(k.score <= int(filters["max_score"]))
    if filters.get("min_score") is not None:
        where.append(k.score >= int(filters["min_score"]))
    total = int(conn.execute(select(func.count()).select_from(security_checks).where(*where)).scalar_one())
    stmt = (
        select(k.host, k.score, k.checked_at)
        .where(*where)
        .order_by(k.host)
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    return total, _rows(conn.execute(stmt))


def stale_hosts(conn: Connection, before: datetime, limit: int) -> list[str]:
    """Hosts whose stored check is older than `before` and that a register still publishes, oldest first."""
    published = select(d.host).where(d.host == k.host).exists()
    stmt = select(k.host).where(k.checked_at < before, published).order_by(k.checked_at, k.host).limit(limit)
    return [str(h) for h in conn.execute(stmt).scalars()]


def stale_or_missing(
    checks: Mapping[str, Mapping[str, Any]], hosts: Sequence[str], before: datetime
) -> list[str]:
    """Hosts without a stored check, or whose check is older than `before`."""
    out = []
    for host in hosts:
        row = checks.get(host)
        if row is None or _aware(row["checked_at"]) < before:
            out.append(host)
    return out


# -- the domain import (importing.py) ------------------------------------------------------------------------

StoredDomain = Row[Any, Any, Any, Any, Any]  # (id, national_id, host, kind, value)
CHUNK = 500


def source_domains(conn: Connection, source: str, country: str) -> list[StoredDomain]:
    """Every domain row the source holds for `country`."""
    where = (d.source == source, d.country == country)
    return list(conn.execute(select(d.id, d.national_id, d.host, d.kind, d.value).where(*where)))


def source_domains_of(
    conn: Connection, source: str, country: str, national_ids: Sequence[str]
) -> list[StoredDomain]:
    """The source's domain rows of these enterprises of `country`, 500 enterprises to a query."""
    where = (d.source == source, d.country == country)
    rows: list[StoredDomain] = []
    for start in range(0, len(national_ids), CHUNK):
        part = national_ids[start : start + CHUNK]
        rows.extend(
            conn.execute(
                select(d.id, d.national_id, d.host, d.kind, d.value).where(*where, d.national_id.in_(part))
            )
        )
    return rows


def delete_domains(conn: Connection, ids: Sequence[int]) -> None:
    for start in range(0, len(ids), CHUNK):
        conn.execute(delete(company_domains).where(d.id.in_(ids[start : start + CHUNK])))


def insert_domains(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    conn.execute(company_domains.insert(), list(rows))


def refresh_domain(
    conn: Connection, row_id: int, value: str, run_id: int, now: datetime, published_on: date | None
) -> None:
    """A stored domain row's new value, as of this run."""
    conn.execute(
        update(company_domains)
        .where(d.id == row_id)
        .values(value=value, run_id=run_id, retrieved_at=now, published_on=published_on)
    )


def domain_count(conn: Connection, source: str) -> int:
    return int(
        conn.execute(select(func.count()).select_from(company_domains).where(d.source == source)).scalar_one()
    )


def _aware(value: datetime) -> datetime:
    from datetime import UTC

    return value if value.tzinfo else value.replace(tzinfo=UTC)
