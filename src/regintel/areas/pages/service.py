"""Use cases of the public face: check data, badges, view counts, rankings, comparisons, coverage, sitemaps.

Values of other areas come only through their service functions (credit grade, NIS2 scope, screening hits);
where an area has no value for a company, the answer says so (`None`, "not rated", "not assessed")."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine

from regintel.areas.companies import service as companies_svc
from regintel.areas.nis2 import service as nis2_svc
from regintel.areas.scores import service as scores_svc
from regintel.areas.screening import service as screening_svc
from regintel.areas.security import service as security_svc
from regintel.areas.stats import service as stats_svc
from regintel.areas.stats import snapshots as stats_snapshots
from regintel.db import stats_snapshots as stats_snapshots_db
from regintel.db.engine import begin_write
from regintel.db.stats import data_version
from regintel.errors import NotFound, ValidationFailed
from regintel.render import svg
from regintel.result_cache import ResultCache

from . import queries
from .aggregates import (
    COUNTRY_LARGEST,
    SHELL_SNAPSHOT,
    as_number,
    company_entry,
    largest,
    live_shell_addresses,
    shell_snapshot,
)
from .i18n import N_

log = logging.getLogger(__name__)
SITEMAP_URLS = 50_000  # sitemaps.org: at most 50,000 URLs per file
GRADE_COLOURS = {
    "A+": "green",
    "A": "green",
    "B": "lime",
    "C": "yellow",
    "D": "orange",
    "E": "red",
    "F": "red",
}
NIS2_LABELS = {
    "essential": ("ESSENTIAL", "red"),
    "important": ("IMPORTANT", "orange"),
    "out-of-scope": ("OUT OF SCOPE", "green"),
}
# English (the JSON and CSV say them so); the pages translate them (i18n.N_ marks them for the catalog)
TITLES = {
    "largest": N_("Largest companies"),
    "shell-addresses": N_("Shell addresses"),
    "most-viewed": N_("Most viewed companies"),
    "public-contracts": N_("Public contracts"),
}
RANKINGS = {
    "largest": N_(
        "Largest companies by revenue of their latest financial statement (one currency at a time)"
    ),
    "shell-addresses": N_("Addresses where the most companies are registered"),
    "most-viewed": N_("Companies whose public check page was viewed most"),
    "public-contracts": N_(
        "Companies with the most public-contract value as supplier, in one currency at a time "
        "(precomputed totals)"
    ),
}


# -- view counter ------------------------------------------------------------------------------------------


class ViewCounter:
    """Views counted in memory and added to `page_views` in one upsert per batch: every `batch` views, and
    by a timer `max_age` seconds after the first pending view. A request never writes: the flush runs in a
    thread of its own (several processes add up, the upsert adds rather than overwrites)."""

    def __init__(self, engine: Engine, batch: int = 200, max_age: float = 10.0):
        self.engine, self.batch, self.max_age = engine, batch, max_age
        self._pending: dict[int, int] = {}
        self._flushing: dict[int, int] = {}  # taken by a flush whose transaction has not committed yet
        self._total = 0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()
        self.flushes = 0  # flushes written: a reader that saw one pass re-reads (view_stats)

    def add(self, company_id: int) -> None:
        with self._lock:
            self._pending[company_id] = self._pending.get(company_id, 0) + 1
            self._total += 1
            due = self._total >= self.batch
            if not due and self._timer is None:
                self._timer = threading.Timer(self.max_age, self._flush_quietly)
                self._timer.daemon = True
                self._timer.start()
        if due:
            threading.Thread(target=self._flush_quietly, daemon=True, name="page-views-flush").start()

    def _flush_quietly(self) -> None:
        try:
            self.flush()
        except Exception:  # logged; the views stay pending and the next flush retries them
            log.exception("page views: flush failed")

    def pending(self, company_id: int) -> int:
        with self._lock:
            return self._pending.get(company_id, 0) + self._flushing.get(company_id, 0)

    def flush(self) -> int:
        """Write the pending views in one transaction; returns how many. One flush at a time per process."""
        with self._flush_lock:
            return self._flush()

    def _flush(self) -> int:
        with self._lock:
            batch, self._pending, self._total = self._pending, {}, 0
            self._flushing = batch
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        if not batch:
            return 0
        try:
            with begin_write(self.engine) as conn:
                queries.add_views(conn, batch, datetime.now(UTC))
        except Exception:
            with self._lock:  # put them back: a view is counted late rather than lost
                self._flushing = {}
                for cid, n in batch.items():
                    self._pending[cid] = self._pending.get(cid, 0) + n
                    self._total += n
            raise
        with self._lock:
            self._flushing = {}
            self.flushes += 1
        return sum(batch.values())


def view_stats(conn: Connection, row: Mapping[str, Any], counter: ViewCounter) -> dict[str, Any]:
    # Pending first, then the stored count: a flush that commits between the two is seen by its count of
    # flushes and the pair is read again; read the other way round, a flush in between counted its views
    # in neither (the page showed 0 views right after a flush).
    for _ in range(3):
        flushes = counter.flushes
        pending = counter.pending(row["id"])
        stored = queries.views_of(conn, row["id"])
        if counter.flushes == flushes:
            break
    return {
        "country": row["country"],
        "national_id": row["national_id"],
        "views": int(stored["views"] if stored else 0) + pending,
        "pending": pending,
        "last_viewed_at": stored["last_viewed_at"] if stored else None,
    }


# -- check data and badges ---------------------------------------------------------------------------------


def insolvency_state(row: Mapping[str, Any]) -> str:
    if row["in_bankruptcy"]:
        return "bankruptcy"
    if row["in_restructuring"]:
        return "restructuring"
    if row["in_liquidation"]:
        return "liquidation"
    return "none"


def nis2_label(scope: Mapping[str, Any]) -> tuple[str, str]:
    category = scope.get("category")
    if scope.get("certainty") == "certain" and category in NIS2_LABELS:
        return NIS2_LABELS[category]
    if scope.get("in_scope") is True:
        if category is None or category == "out-of-scope":
            return "IN SCOPE", "orange"
        return NIS2_LABELS.get(category, ("IN SCOPE", "orange"))
    if scope.get("in_scope") is False:
        return NIS2_LABELS["out-of-scope"]
    return "NOT DETERMINED", "grey"


def check(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    """The public compliance check of one company (spec 4.7), from the register row and the other areas."""
    grade = scores_svc.credit_grade(conn, row)
    scope = nis2_svc.scope(conn, row)
    hits = screening_svc.company_hit_summary(conn, row["id"])
    fin = queries.latest_financials_of(conn, row["id"])
    label, _ = nis2_label(scope)
    return {
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        "legal_form": row["legal_form_name"],
        "status": row["status"],
        "founded_on": row["founded_on"],
        "dissolved_on": row["dissolved_on"],
        "address": row["address_text"],
        "city": row["city"],
        "postal_code": row["postal_code"],
        "nace_primary": row["nace_primary"],
        "vat_id": row["vat_id"],
        "lei": row["lei"],
        "insolvency": {
            "state": insolvency_state(row),
            "in_bankruptcy": bool(row["in_bankruptcy"]),
            "in_restructuring": bool(row["in_restructuring"]),
            "in_liquidation": bool(row["in_liquidation"]),
        },
        "credit_grade": grade,
        "nis2": {
            "badge": label,
            "category": scope.get("category"),
            "certainty": scope.get("certainty"),
            "in_scope": scope.get("in_scope"),
        },
        "sanctions": {
            "hits": hits["hits"],
            "confirmed": hits["confirmed"],
            "sanctioned": hits["sanctioned"],
            "debarred": hits["debarred"],
        },
        "security": security_summary(conn, row),
        "financials": None
        if fin is None
        else {
            "year": fin["year"],
            "currency": fin["currency"],
            "revenue": as_number(fin["revenue"]),
            "profit": as_number(fin["profit"]),
            "employees": fin["employees"] if fin["employees"] is not None else row["employees"],
        },
        "source": row["source"],
        "updated_at": row["updated_at"],
    }


def status_badge(row: Mapping[str, Any]) -> str:
    state = insolvency_state(row)
    if state != "none":
        return svg.badge("status", state, "red")
    return svg.badge("status", row["status"], "green" if row["status"] == "active" else "grey")


def credit_badge(conn: Connection, row: Mapping[str, Any]) -> str:
    grade = scores_svc.credit_grade(conn, row)
    return (
        svg.badge("credit", grade, GRADE_COLOURS.get(grade, "grey"))
        if grade
        else svg.badge("credit", "not rated", "grey")
    )


def nis2_badge(conn: Connection, row: Mapping[str, Any]) -> str:
    return svg.badge("NIS2", *nis2_label(nis2_svc.scope(conn, row)))


def security_summary(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    """The stored passive-check posture (security area); a public page never queues a check."""
    posture = security_svc.posture_summary(conn, row["country"], row["national_id"])
    if posture is None:
        return {
            "assessed": False,
            "score": None,
            "band": None,
            "findings": None,
            "checked_at": None,
            "note": "Not assessed: none of the company's published domains has a stored check",
        }
    if posture["score"] is None:
        note = "Checked, not scored: every stored check of its domains was refused or failed"
    else:
        note = "Passive checks of the company's published domains: the weakest domain's score, 0-100"
    return {
        "assessed": True,
        "score": posture["score"],
        "band": posture["band"],
        "findings": posture["findings"],
        "checked_at": posture["checked_at"],
        "note": note,
    }


SECURITY_COLOURS = {"good": "green", "fair": "yellow", "weak": "orange", "poor": "red"}


def security_badge(conn: Connection, row: Mapping[str, Any]) -> str:
    summary = security_summary(conn, row)
    if not summary["assessed"]:
        return svg.badge("security", "not assessed", "grey")
    if summary["score"] is None:
        return svg.badge("security", "not scored", "grey")
    return svg.badge("security", f"{summary['score']}/100", SECURITY_COLOURS.get(summary["band"], "grey"))


def og_svg(conn: Connection, row: Mapping[str, Any]) -> str:
    data = check(conn, row)
    state = data["insolvency"]["state"]
    status = (
        (state, "red")
        if state != "none"
        else (row["status"], "green" if row["status"] == "active" else "grey")
    )
    grade = data["credit_grade"]
    hits = data["sanctions"]
    facts = [
        ("Status", *status),
        ("Credit grade", grade or "not rated", GRADE_COLOURS.get(grade or "", "grey")),
        ("NIS2", *nis2_label(data["nis2"] | {"category": data["nis2"]["category"]})),
        (
            "Sanctions",
            "no hits" if not hits["hits"] else f"{hits['hits']} to review",
            "green" if not hits["hits"] else "orange",
        ),
    ]
    subtitle = " · ".join(
        x for x in (row["country"], f"ID {row['national_id']}", row["city"], row["legal_form_name"]) if x
    )
    return svg.og_image(row["name"], subtitle, facts, f"Public register data · source {row['source']}")


def most_viewed_og(conn: Connection, limit: int) -> list[str]:
    """The og SVGs of the `limit` most viewed companies, as their og.png route builds them."""
    return [
        og_svg(conn, companies_svc.resolve_ico(conn, r["national_id"], r["country"]))
        for r in queries.most_viewed(conn, None, limit)
    ]


# -- rankings, most viewed, compare --------------------------------------------------------------------------


def most_viewed(conn: Connection, country: str | None, limit: int) -> list[dict[str, Any]]:
    return [
        company_entry(r) | {"rank": i, "views": int(r["views"]), "last_viewed_at": r["last_viewed_at"]}
        for i, r in enumerate(queries.most_viewed(conn, country, limit), 1)
    ]


def country_largest(conn: Connection, country: str, currency: str, limit: int = 10) -> list[dict[str, Any]]:
    """A country's largest companies for its directory landing: from the statistics snapshot
    `COUNTRY_LARGEST` of the current data version when it holds the country in `currency`, else live (at 10M
    companies SQLite reads every statement of the country through the country index and sorts them: 14 s of
    CPU for SK, measured on the 10M build)."""
    stored = stats_snapshots_db.find_snapshot(conn, COUNTRY_LARGEST, data_version(conn))
    entry = (stored or {}).get(country)
    if entry is not None and entry["currency"] == currency and limit <= 10:  # the snapshot holds ten
        return list(entry["items"])[:limit]
    return largest(conn, country, currency, limit)


def public_contracts(
    conn: Connection, country: str | None, currency: str, limit: int
) -> list[dict[str, Any]]:
    return [
        company_entry(r)
        | {
            "rank": i,
            "currency": r["currency"],
            "total": as_number(r["total"]),
            "contracts": int(r["contracts"]),
        }
        for i, r in enumerate(queries.contract_ranking(conn, country, currency, limit), 1)
    ]


def ranking_as_of(conn: Connection, key: str) -> datetime | None:
    """When a precomputed ranking was computed (None: live, or never computed)."""
    return queries.contract_totals_as_of(conn) if key == "public-contracts" else None


def shell_addresses(
    conn: Connection, country: str | None, limit: int, cache: ResultCache | None = None
) -> list[dict[str, Any]]:
    """The shell-address ranking. With `cache` (the requests' path) it is read from the statistics snapshot
    `SHELL_SNAPSHOT` of the current data version, which the worker, `regintel stats refresh` and the end of
    imports compute: at 10M companies the GROUP BY over every address takes minutes, not milliseconds.
    Without a snapshot of the current version the first request computes and stores it (as the region
    counts do)."""
    if cache is None:
        return live_shell_addresses(conn, country, limit)
    table, _ = stats_snapshots.answer(conn, cache, SHELL_SNAPSHOT, lambda: shell_snapshot(conn))
    return list(table.get(country or "*", []))[:limit]


def ranking(
    conn: Connection,
    key: str,
    country: str | None,
    currency: str,
    limit: int,
    cache: ResultCache | None = None,
) -> list[dict[str, Any]]:
    """One ranking; `cache` (the app's result cache) lets `shell-addresses` read its snapshot."""
    if key == "largest":
        return largest(conn, country, currency, limit)
    if key == "shell-addresses":
        return shell_addresses(conn, country, limit, cache)
    if key == "most-viewed":
        return most_viewed(conn, country, limit)
    if key == "public-contracts":
        return public_contracts(conn, country, currency, limit)
    raise NotFound(f"Unknown ranking {key!r}", details={"rankings": sorted(RANKINGS)})


def compare(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if not 2 <= len(rows) <= 5:
        raise ValidationFailed("Compare two to five companies", details={"companies": len(rows)})
    if len({r["id"] for r in rows}) != len(rows):
        raise ValidationFailed("A company is listed twice")
    return [check(conn, r) for r in rows]


# -- coverage, sitemaps --------------------------------------------------------------------------------------


def coverage(conn: Connection, cache: dict[str, Any], ttl: float = 60.0) -> dict[str, Any]:
    """Countries and sources with counts (the statistics service), kept in `cache` (the app's) for a
    minute."""
    hit = cache.get("coverage")
    if hit is not None and time.monotonic() - hit[0] < ttl:
        cached: dict[str, Any] = hit[1]  # the cache is the app's untyped dict; this entry holds a dict
        return cached
    # The statistics snapshot of the current data version when there is one: at 10M companies the per-country
    # counts take about 0.9 s of CPU, which the first landing, topic or coverage page of a process paid.
    stats = stats_snapshots_db.find_snapshot(conn, "public-stats", data_version(conn))
    if stats is None:
        stats = stats_svc.public_stats(conn)
    out = {
        "entities": stats["entities"],
        "active": stats["active"],
        "countries": stats["countries"],
        "sources": stats["sources"],
        "last_update": stats["lastUpdate"],
    }
    cache["coverage"] = (time.monotonic(), out)
    return out


def sitemap_pages(conn: Connection) -> list[int]:
    """The numbers of the sitemap pages that hold a URL: page `n` is the companies with ids in the `n`th range
    of 50,000 (fewer where ids have gaps), and a range with no company left is no page. The sitemaps.org
    schema refuses a `<urlset>` without a `<url>`, so an empty page is never listed and answers 404."""
    return queries.filled_ranges(conn, SITEMAP_URLS)


def _lastmod(value: Any) -> str:
    if isinstance(value, datetime):
        return value.date().isoformat()
    return str(value)[:10]


def sitemap_index(base: str, pages: Sequence[int]) -> Iterator[str]:
    """The index of the hot sitemap and `pages` (at least one: with no company there is no index)."""
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    yield f"<sitemap><loc>{svg.esc(base)}/sitemap-firma-hot.xml</loc></sitemap>\n"
    for n in pages:
        yield f"<sitemap><loc>{svg.esc(base)}/sitemap-firma-{n}.xml</loc></sitemap>\n"
    yield "</sitemapindex>\n"


def sitemap_urls(base: str, rows: Sequence[tuple[int, str, str, Any]]) -> Iterator[str]:
    """The `<urlset>` of (id, lower-case country, national id, updated_at) rows, in chunks of 1,000 URLs."""
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    loc = f"{svg.esc(base)}/firma/"
    for start in range(0, len(rows), 1000):
        yield "".join(
            f"<url><loc>{loc}{cc}/{svg.esc(nid)}</loc><lastmod>{_lastmod(updated)}</lastmod></url>\n"
            for _, cc, nid, updated in rows[start : start + 1000]
        )
    yield "</urlset>\n"


def warm_queries(engine: Engine) -> bool:
    """Build one company's check data and social image at start-up, so that the first real request finds
    their SQL compiled (SQLAlchemy's compiled cache, lambda statements analysed): 60-100 ms of CPU that the
    first company page, check, badge or image of each process paid otherwise (docs/pages.md, "First
    renders"). Reads only; nothing to do while no company is loaded."""
    with engine.connect() as conn:
        first = queries.first_company(conn)
        if first is None:
            return False
        row = companies_svc.resolve_ico(conn, first[1], first[0])
        check(conn, row)
        og_svg(conn, row)
        status_badge(row)
    return True
