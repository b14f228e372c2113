"""Running a real import in a test and reading back what it wrote."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select

from regintel.config import Settings
from regintel.db.schema import companies, company_changes, company_sources, identifiers, people, roles
from regintel.ingest.base import Source
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import run_import

FIXTURES = Path(__file__).parent.parent / "fixtures"


def get_source(source_id: str) -> Source:
    """The source of module `regintel.ingest.sources.<id>` (only that module is imported)."""
    return importlib.import_module(f"regintel.ingest.sources.{source_id}").SOURCE  # type: ignore[no-any-return]


def run(
    engine: Engine, settings: Settings, source_id: str, path: Path | str, batch_size: int = 7
) -> LoadStats:
    """Import `path` with the registered source; a small batch size exercises several batches."""
    _, stats, _ = run_import(
        engine, get_source(source_id), str(path), settings.data_dir, batch_size=batch_size
    )
    return stats


def rejects(
    engine: Engine, settings: Settings, source_id: str, path: Path | str
) -> tuple[LoadStats, list[dict]]:
    """Import and return the stats with the reject file's rows."""
    _, stats, reject_path = run_import(
        engine, get_source(source_id), str(path), settings.data_dir, batch_size=7
    )
    rows = [json.loads(line) for line in reject_path.read_text().splitlines()] if reject_path else []
    return stats, rows


def company(engine: Engine, country: str, national_id: str) -> dict[str, Any]:
    with engine.connect() as conn:
        row = (
            conn.execute(
                select(companies).where(
                    companies.c.country == country, companies.c.national_id == national_id
                )
            )
            .mappings()
            .one()
        )
    return dict(row)


def count(engine: Engine, table: Any = companies) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def changes(engine: Engine, national_id: str | None = None) -> dict[str, tuple[str | None, str | None]]:
    """field -> (old, new) of the change log (of one company when `national_id` is given)."""
    query = select(company_changes.c.field, company_changes.c.old_value, company_changes.c.new_value).join(
        companies, companies.c.id == company_changes.c.company_id
    )
    if national_id is not None:
        query = query.where(companies.c.national_id == national_id)
    with engine.connect() as conn:
        return {
            r.field: (r.old_value, r.new_value) for r in conn.execute(query.order_by(company_changes.c.id))
        }


def identifier_pairs(engine: Engine, national_id: str) -> set[tuple[str, str]]:
    query = (
        select(identifiers.c.type, identifiers.c.value)
        .join(companies, companies.c.id == identifiers.c.company_id)
        .where(companies.c.national_id == national_id)
    )
    with engine.connect() as conn:
        return {(r.type, r.value) for r in conn.execute(query)}


def provenance(engine: Engine, national_id: str) -> dict[str, Any]:
    query = (
        select(company_sources)
        .join(companies, companies.c.id == company_sources.c.company_id)
        .where(companies.c.national_id == national_id)
    )
    with engine.connect() as conn:
        return dict(conn.execute(query).mappings().one())


def role_rows(engine: Engine, national_id: str) -> list[dict[str, Any]]:
    query = (
        select(roles, people.c.birth_date, people.c.nationality, people.c.country_of_residence)
        .join(companies, companies.c.id == roles.c.company_id)
        .outerjoin(people, people.c.id == roles.c.person_id)
        .where(companies.c.national_id == national_id)
        .order_by(roles.c.holder_name)
    )
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(query).mappings()]


def assert_idempotent(engine: Engine, settings: Settings, source_id: str, path: Path | str) -> LoadStats:
    """A second import of the same file changes nothing and reports nothing new."""
    before = count(engine, company_changes)
    stats = run(engine, settings, source_id, path)
    assert (stats.inserted, stats.updated, stats.changes) == (0, 0, 0)
    assert count(engine, company_changes) == before
    return stats
