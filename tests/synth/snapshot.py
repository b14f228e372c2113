"""The contents of the tables a synthetic build writes, keyed by natural keys instead of surrogate
ids and without bookkeeping timestamps, so two databases can be compared row for row."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, inspect, text

_SKIP = {"id", "created_at", "updated_at", "first_seen", "last_seen", "run_id"}


def _rows(conn: Any, sql: str) -> list[dict[str, Any]]:
    return [dict(r) for r in conn.execute(text(sql)).mappings()]


def _clean(row: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, _value(v)) for k, v in row.items() if k not in _SKIP))


def _value(v: Any) -> Any:
    if hasattr(v, "isoformat"):
        return v.isoformat()[:10] if len(str(v)) <= 10 else str(v)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if v.__class__.__name__ == "Decimal":
        return float(v) if v % 1 else int(v)
    return v


def snapshot(engine: Engine) -> dict[str, list[tuple[tuple[str, Any], ...]]]:
    ckey = "c.country || ':' || c.national_id"
    queries = {
        "companies": "SELECT * FROM companies",
        "identifiers": f"SELECT i.type, i.value, i.source, {ckey} AS company FROM identifiers i "
        "JOIN companies c ON c.id = i.company_id",
        "company_sources": f"SELECT s.source, s.source_record_id, s.published_on, {ckey} AS company "
        "FROM company_sources s JOIN companies c ON c.id = s.company_id",
        "people": "SELECT * FROM people",
        "roles": f"SELECT r.*, {ckey} AS company, p.person_key AS person, h.country || ':' || h.national_id "
        "AS holder_company FROM roles r JOIN companies c ON c.id = r.company_id "
        "LEFT JOIN people p ON p.id = r.person_id LEFT JOIN companies h ON h.id = r.holder_company_id",
        "ownerships": "SELECT o.kind, o.share_pct, o.since, o.until, o.source, p.country || ':' || "
        "p.national_id AS parent, c.country || ':' || c.national_id AS child FROM ownerships o JOIN "
        "companies p ON p.id = o.parent_id JOIN companies c ON c.id = o.child_id",
        "financial_statements": f"SELECT f.*, {ckey} AS company FROM financial_statements f "
        "JOIN companies c ON c.id = f.company_id",
        "latest_financials": f"SELECT l.*, {ckey} AS company FROM latest_financials l "
        "JOIN companies c ON c.id = l.company_id",
    }
    out = {}
    present = set(inspect(engine).get_table_names())
    with engine.connect() as conn:
        for table, sql in queries.items():
            if table not in present:
                continue
            rows = [
                {
                    k: v
                    for k, v in r.items()
                    if k
                    not in (
                        "company_id",
                        "person_id",
                        "holder_company_id",
                        "parent_id",
                        "child_id",
                        "statement_id",
                    )
                }
                for r in _rows(conn, sql)
            ]
            out[table] = sorted((_clean(r) for r in rows), key=repr)
    return out
