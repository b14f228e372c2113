"""Statistics (spec 4.4, 4.7): database overview, breakdowns, freshness, shell addresses, public figures.

Filtered aggregates are computed once per data version and kept up to 15 minutes (`ResultCache`);
unfiltered ones with default parameters are precomputed and stored per data version
(`areas.stats.snapshots`). The answer says whether it came from either (`meta.cached`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.schemas import Candidate
from regintel.areas.companies.views import candidate
from regintel.areas.stats import breakdown as breakdown_svc
from regintel.areas.stats.schemas import (
    AddressSample,
    BreakdownGroup,
    CountryCount,
    CountryOverview,
    CoverageByField,
    FieldCoverage,
    Freshness,
    ImportRun,
    Overview,
    PublicShellAddress,
    PublicSource,
    PublicStats,
    ShellAddress,
    Source,
    SourceFreshness,
    Totals,
)
from regintel.db import stats as db
from regintel.db.company_filters import Conditions, Reference
from regintel.result_cache import ResultCache

T = TypeVar("T")
SAMPLES = 5


def cached(
    conn: Connection, cache: ResultCache, key: tuple[Any, ...], compute: Callable[[], T]
) -> tuple[T, bool]:
    return cache.get((*key, db.data_version(conn)), compute)


def overview(conn: Connection) -> Overview:
    parts = db.overview(conn)
    statuses: dict[str, dict[str, int]] = {}
    for r in parts["by_status"]:
        statuses.setdefault(r["country"], {})[r["status"]] = int(r["count"])
    counts = {name: {r["country"]: int(r["count"]) for r in parts[name]} for name in _COUNTED}
    seen = set(statuses).union(*counts.values())

    def entry(country: str) -> CountryOverview:
        by_status = statuses.get(country, {})
        n = {name: found.get(country, 0) for name, found in counts.items()}
        return CountryOverview(
            country=country,
            total=sum(by_status.values()),
            byStatus=by_status,
            inBankruptcy=n["in_bankruptcy"],
            inRestructuring=n["in_restructuring"],
            inLiquidation=n["in_liquidation"],
            withLei=n["with_lei"],
            withVatId=n["with_vat_id"],
            withFinancials=n["with_financials"],
        )

    by_country = sorted((entry(c) for c in seen), key=lambda e: (-e["total"], e["country"]))
    totals = Totals(
        total=sum(e["total"] for e in by_country),
        inBankruptcy=sum(e["inBankruptcy"] for e in by_country),
        inRestructuring=sum(e["inRestructuring"] for e in by_country),
        inLiquidation=sum(e["inLiquidation"] for e in by_country),
        withLei=sum(e["withLei"] for e in by_country),
        withVatId=sum(e["withVatId"] for e in by_country),
        withFinancials=sum(e["withFinancials"] for e in by_country),
    )
    by_status: dict[str, int] = {}
    for e in by_country:
        for status, count in e["byStatus"].items():
            by_status[status] = by_status.get(status, 0) + count
    return Overview(
        totals=totals,
        byStatus=by_status,
        byCountry=by_country,
        sources=[_source(s) for s in db.sources(conn)],
        lastImports=[_run(r) for r in db.last_runs(conn, 20)],
    )


_COUNTED = (
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "with_lei",
    "with_vat_id",
    "with_financials",
)


def breakdown(
    conn: Connection, by: str, cond: Conditions, ref: Reference, limit: int
) -> list[BreakdownGroup]:
    return breakdown_svc.breakdown(conn, by, cond, ref, limit)


def freshness(conn: Connection) -> Freshness:
    runs = db.last_run_per_source(conn)
    seen = {r["source"]: r for r in db.seen_per_source(conn)}
    sources = []
    for s in db.sources(conn):
        row = seen.get(s["id"])
        sources.append(
            SourceFreshness(
                **_source(s),
                lastRun=_run(runs[s["id"]]) if s["id"] in runs else None,
                companies=int(row["companies"]) if row else 0,
                oldestLastSeen=row["oldest_seen"] if row else None,
                newestLastSeen=row["newest_seen"] if row else None,
            )
        )
    cov = db.coverage(conn)
    total = int(cov["companies"])

    def covered(name: str) -> FieldCoverage:
        return FieldCoverage(
            companies=int(cov[name]), share=round(int(cov[name]) / total, 4) if total else 0.0
        )

    coverage = CoverageByField(
        lei=covered("lei"),
        financials=covered("financials"),
        nace=covered("nace"),
        address=covered("address"),
        vat_id=covered("vat_id"),
    )
    return Freshness(companies=total, lastUpdate=cov["last_update"], coverage=coverage, sources=sources)


def shell_addresses(conn: Connection, cond: Conditions, min_companies: int, limit: int) -> list[ShellAddress]:
    """Addresses with the most companies, with their status figures and a sample of companies."""
    dense = db.dense_addresses(conn, cond, min_companies, limit)
    details = db.address_details(conn, cond, [a for a, _ in dense])
    samples: dict[str, list[AddressSample]] = {}
    for s in db.address_samples(conn, cond, [a for a, _ in dense], SAMPLES):
        sample = AddressSample(
            **candidate(s),
            status=s["status"],
            inBankruptcy=bool(s["in_bankruptcy"]),
            inRestructuring=bool(s["in_restructuring"]),
            inLiquidation=bool(s["in_liquidation"]),
        )
        samples.setdefault(s["address_norm"], []).append(sample)
    out = []
    for address, n in dense:
        d: RowMapping | dict[str, Any] = details.get(address, {})
        figures = {k: int(d.get(k) or 0) for k in ("active", "dissolved", "insolvent", "in_liquidation")}
        out.append(
            ShellAddress(
                address=d.get("address"),
                addressNorm=address,
                city=d.get("city"),
                postalCode=d.get("postal_code"),
                country=d.get("country"),
                companies=n,
                sample=samples.get(address, []),
                active=figures["active"],
                dissolved=figures["dissolved"],
                insolvent=figures["insolvent"],
                inLiquidation=figures["in_liquidation"],
                shareDissolved=round(figures["dissolved"] / n, 4),
                shareInsolvent=round(figures["insolvent"] / n, 4),
            )
        )
    return out


def public_shell_addresses(
    conn: Connection, cond: Conditions, min_companies: int, limit: int
) -> list[PublicShellAddress]:
    """The public form of `shell_addresses`: companies by name and national identifier only."""
    dense = db.dense_addresses(conn, cond, min_companies, limit)
    details = db.address_details(conn, cond, [a for a, _ in dense])
    samples: dict[str, list[Candidate]] = {}
    for s in db.address_samples(conn, cond, [a for a, _ in dense], SAMPLES):
        samples.setdefault(s["address_norm"], []).append(candidate(s))
    out = []
    for address, n in dense:
        d: RowMapping | dict[str, Any] = details.get(address, {})
        out.append(
            PublicShellAddress(
                address=d.get("address"),
                addressNorm=address,
                city=d.get("city"),
                postalCode=d.get("postal_code"),
                country=d.get("country"),
                companies=n,
                sample=samples.get(address, []),
            )
        )
    return out


def public_stats(conn: Connection) -> PublicStats:
    countries = [
        CountryCount(country=r["country"], entities=int(r["count"]), active=int(r["active"]))
        for r in db.country_counts(conn)
    ]
    sources = db.sources(conn)
    imports = [s["last_import_at"] for s in sources if s["last_import_at"] is not None]
    return PublicStats(
        entities=sum(c["entities"] for c in countries),
        active=sum(c["active"] for c in countries),
        countries=countries,
        sources=[_public_source(s) for s in sources],
        lastUpdate=max(imports) if imports else None,
    )


def _source(row: RowMapping) -> Source:
    return Source(
        **_public_source(row),
        publisher=row["publisher"],
        category=row["category"],
        licence=row["licence"],
        cadence=row["cadence"],
    )


def _public_source(row: RowMapping) -> PublicSource:
    return PublicSource(
        id=row["id"],
        name=row["name"],
        country=row["country"],
        lastImportAt=row["last_import_at"],
        rows=int(row["row_count"]),
    )


def _run(row: RowMapping) -> ImportRun:
    return ImportRun(
        id=row["id"],
        source=row["source"],
        status=row["status"],
        startedAt=row["started_at"],
        finishedAt=row["finished_at"],
        stats=row["stats"],
    )
