"""Statistics (spec 4.4, 4.7): database overview, breakdowns, freshness, shell addresses, public figures.

Filtered aggregates are computed once per data version and kept up to 15 minutes (`ResultCache`);
unfiltered ones with default parameters are precomputed and stored per data version
(`areas.stats.snapshots`). The answer says whether it came from either (`meta.cached`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.views import candidate
from regintel.areas.stats import breakdown as breakdown_svc
from regintel.db import stats as db
from regintel.db.company_filters import Conditions, Reference
from regintel.services.result_cache import ResultCache

T = TypeVar("T")
SAMPLES = 5


def cached(
    conn: Connection, cache: ResultCache, key: tuple[Any, ...], compute: Callable[[], T]
) -> tuple[T, bool]:
    return cache.get((*key, db.data_version(conn)), compute)


def overview(conn: Connection) -> dict[str, Any]:
    parts = db.overview(conn)
    countries: dict[str, dict[str, Any]] = {}

    def entry(country: str) -> dict[str, Any]:
        return countries.setdefault(
            country,
            {
                "country": country,
                "total": 0,
                "byStatus": {},
                **dict.fromkeys(
                    (
                        "inBankruptcy",
                        "inRestructuring",
                        "inLiquidation",
                        "withLei",
                        "withVatId",
                        "withFinancials",
                    ),
                    0,
                ),
            },
        )

    for r in parts["by_status"]:
        entry(r["country"])["total"] += int(r["count"])
        entry(r["country"])["byStatus"][r["status"]] = int(r["count"])
    for out, name in (
        ("inBankruptcy", "in_bankruptcy"),
        ("inRestructuring", "in_restructuring"),
        ("inLiquidation", "in_liquidation"),
        ("withLei", "with_lei"),
        ("withVatId", "with_vat_id"),
        ("withFinancials", "with_financials"),
    ):
        for r in parts[name]:
            entry(r["country"])[out] = int(r["count"])
    by_country = sorted(countries.values(), key=lambda e: (-e["total"], e["country"]))
    totals = {
        k: sum(e[k] for e in by_country)
        for k in (
            "total",
            "inBankruptcy",
            "inRestructuring",
            "inLiquidation",
            "withLei",
            "withVatId",
            "withFinancials",
        )
    }
    by_status: dict[str, int] = {}
    for e in by_country:
        for status, n in e["byStatus"].items():
            by_status[status] = by_status.get(status, 0) + n
    return {
        "totals": totals,
        "byStatus": by_status,
        "byCountry": by_country,
        "sources": [_source(s) for s in db.sources(conn)],
        "lastImports": [_run(r) for r in db.last_runs(conn, 20)],
    }


def breakdown(
    conn: Connection, by: str, cond: Conditions, ref: Reference, limit: int
) -> list[dict[str, Any]]:
    return breakdown_svc.breakdown(conn, by, cond, ref, limit)


def freshness(conn: Connection) -> dict[str, Any]:
    runs = db.last_run_per_source(conn)
    seen = {r["source"]: r for r in db.seen_per_source(conn)}
    sources = []
    for s in db.sources(conn):
        row = seen.get(s["id"])
        sources.append(
            _source(s)
            | {
                "lastRun": _run(runs[s["id"]]) if s["id"] in runs else None,
                "companies": int(row["companies"]) if row else 0,
                "oldestLastSeen": row["oldest_seen"] if row else None,
                "newestLastSeen": row["newest_seen"] if row else None,
            }
        )
    cov = db.coverage(conn)
    total = int(cov["companies"])
    coverage = {
        name: {"companies": int(cov[name]), "share": round(int(cov[name]) / total, 4) if total else 0.0}
        for name in ("lei", "financials", "nace", "address", "vat_id")
    }
    return {"companies": total, "lastUpdate": cov["last_update"], "coverage": coverage, "sources": sources}


def shell_addresses(
    conn: Connection, cond: Conditions, min_companies: int, limit: int, public: bool
) -> list[dict[str, Any]]:
    """Addresses with the most companies; the public form keeps names and identifiers only."""
    dense = db.dense_addresses(conn, cond, min_companies, limit)
    details = db.address_details(conn, cond, [a for a, _ in dense])
    samples: dict[str, list[dict[str, Any]]] = {}
    for s in db.address_samples(conn, cond, [a for a, _ in dense], SAMPLES):
        sample: dict[str, Any] = (
            dict(candidate(s))
            if public
            else dict(candidate(s))
            | {
                "status": s["status"],
                "inBankruptcy": bool(s["in_bankruptcy"]),
                "inRestructuring": bool(s["in_restructuring"]),
                "inLiquidation": bool(s["in_liquidation"]),
            }
        )
        samples.setdefault(s["address_norm"], []).append(sample)
    out = []
    for address, n in dense:
        d: RowMapping | dict[str, Any] = details.get(address, {})
        item = {
            "address": d.get("address"),
            "addressNorm": address,
            "city": d.get("city"),
            "postalCode": d.get("postal_code"),
            "country": d.get("country"),
            "companies": n,
            "sample": samples.get(address, []),
        }
        if not public:
            figures = {k: int(d.get(k) or 0) for k in ("active", "dissolved", "insolvent", "in_liquidation")}
            item |= {
                "active": figures["active"],
                "dissolved": figures["dissolved"],
                "insolvent": figures["insolvent"],
                "inLiquidation": figures["in_liquidation"],
                "shareDissolved": round(figures["dissolved"] / n, 4),
                "shareInsolvent": round(figures["insolvent"] / n, 4),
            }
        out.append(item)
    return out


def public_stats(conn: Connection) -> dict[str, Any]:
    countries = [
        {"country": r["country"], "entities": int(r["count"]), "active": int(r["active"])}
        for r in db.country_counts(conn)
    ]
    sources = db.sources(conn)
    imports = [s["last_import_at"] for s in sources if s["last_import_at"] is not None]
    return {
        "entities": sum(c["entities"] for c in countries),
        "active": sum(c["active"] for c in countries),
        "countries": countries,
        "sources": [_public_source(s) for s in sources],
        "lastUpdate": max(imports) if imports else None,
    }


def _source(row: RowMapping) -> dict[str, Any]:
    return _public_source(row) | {
        "publisher": row["publisher"],
        "category": row["category"],
        "licence": row["licence"],
        "cadence": row["cadence"],
    }


def _public_source(row: RowMapping) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "country": row["country"],
        "lastImportAt": row["last_import_at"],
        "rows": int(row["row_count"]),
    }


def _run(row: RowMapping) -> dict[str, Any]:
    return {
        "id": row["id"],
        "source": row["source"],
        "status": row["status"],
        "startedAt": row["started_at"],
        "finishedAt": row["finished_at"],
        "stats": row["stats"],
    }
