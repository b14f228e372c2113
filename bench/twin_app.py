"""A hand-written twin of regintel's hottest request paths, for bench_serving.py (issue 13): what a
minimal FastAPI service costs for the same work, so regintel's own cost can be judged against it.

It does not import regintel. Per request, like regintel: the key is checked by its SHA-256 hash (with
the same 2-second cache), the three counters of a keyed call (per-IP, per-key window, monthly quota)
are incremented in one transaction of a SQLite counter file (its own file, so the two never share
counters), the same reads are made on the same database (company row, latest statement, sources,
identifiers; or the LEI record and the nine compliance reads of regintel's by-lei answer; or, for
autocomplete, one question to regintel's own tantivy index and the page's rows), and the answer is the
same JSON envelope made with orjson. Each handler is a plain `def`, as most hand-written
FastAPI services are: FastAPI runs it in its thread pool, one hop per request. With TWIN_ASYNC=1 the
same handlers run on the event loop instead (no hop: what regintel does on SQLite).

    REGINTEL_DATABASE_URL=sqlite:///data/regintel.db TWIN_COUNTERS=/tmp/twin-counters.db \
        uvicorn --app-dir bench twin_app:app --port 8001
"""

from __future__ import annotations

import functools
import hashlib
import html
import os
import re
import sqlite3
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import tantivy
from fastapi import FastAPI, Header, HTTPException, Query
from fastapi.responses import Response

URL = os.environ.get("REGINTEL_DATABASE_URL", "sqlite:///data/regintel.db")
COUNTERS = os.environ.get("TWIN_COUNTERS", "/tmp/twin-counters.db")
PG = URL.startswith("postgres")

COMPANY = (
    "SELECT id, country, national_id, name, name_norm, legal_form, legal_form_name, status, founded_on, "
    "dissolved_on, street, city, postal_code, address_text, region_code, district_code, municipality_code, "
    "nuts3, nace_primary, nace_codes, size_class, employees, vat_id, tax_id, lei, in_bankruptcy, "
    "in_restructuring, in_liquidation, source, updated_at FROM companies WHERE country = ? AND "
    "national_id = ?"
)
LATEST = (
    "SELECT year, currency, revenue, profit, total_assets, equity, liabilities, employees, source "
    "FROM financial_statements WHERE company_id = ? ORDER BY year DESC LIMIT 1"
)
SOURCES = (
    "SELECT company_sources.source, company_sources.source_record_id, company_sources.published_on, "
    "company_sources.last_seen, data_sources.name, data_sources.licence, data_sources.attribution, "
    "data_sources.url FROM company_sources LEFT OUTER JOIN data_sources ON data_sources.id = "
    "company_sources.source WHERE company_sources.company_id = ? ORDER BY company_sources.source"
)
IDENTIFIERS = "SELECT type, value, source FROM identifiers WHERE company_id = ? ORDER BY type, value"
# The reads of regintel's `/companies/by-lei` (its answer carries the compliance fields of spec 2.4: the
# debtor lists' freshness, the sanctions lists and hits, the screening state, the statements and
# insolvency events behind the credit grade, the stored NIS2 assessment), written out as it runs them.
_COMPANY_COLUMNS = (
    "id country national_id name name_norm legal_form legal_form_name status founded_on dissolved_on street "
    "city postal_code address_text address_norm region_code district_code municipality_code nuts3 "
    "nace_primary nace_codes size_class employees vat_id tax_id lei in_bankruptcy in_restructuring "
    "in_liquidation source created_at updated_at"
).split()
_LEI_COLUMNS = (
    "lei legal_name registration_status entity_status legal_form country next_renewal last_update source"
)
LEI = (
    "SELECT "
    + ", ".join(f"companies.{c}" for c in _COMPANY_COLUMNS)
    + ", "
    + ", ".join(f"lei_records.{c} AS lr_{c}" for c in _LEI_COLUMNS.split())
    + ", elf.name_en AS lr_legal_form_name FROM lei_records LEFT OUTER JOIN companies ON companies.id = "
    "lei_records.company_id LEFT OUTER JOIN code_list_items AS elf ON elf.list_name = 'legal-forms' AND "
    "elf.code = lei_records.legal_form WHERE lei_records.lei = ?"
)
DEBTOR_LISTS = "SELECT " + ", ".join(
    f"(SELECT max(last_listed_on) FROM debtor_entries WHERE source = '{source}') AS s{n}"
    for n, source in enumerate(
        (
            "sk_socpoist_debtors",
            "sk_vszp_debtors",
            "sk_dovera_debtors",
            "sk_union_debtors",
            "sk_fs_tax_debtors",
        )
    )
)
LEI_COMPANY_READS = (
    "SELECT id, name, mode, entry_count, version, location, imported_at, changed_at FROM sanction_lists "
    "ORDER BY id",
    "SELECT h.subject, h.natural_person, h.score, h.features, e.topics FROM company_sanction_hits AS h "
    "JOIN sanction_entries AS e ON e.id = h.entry_id WHERE h.company_id = ?",
    "SELECT company_id, screened_at, list_versions, algorithm, threshold FROM company_screenings "
    "WHERE company_id = ?",
    "SELECT h.company_id, h.subject, h.score, h.features, e.list_id, e.entry_key, e.topics FROM "
    "company_sanction_hits AS h JOIN sanction_entries AS e ON e.id = h.entry_id WHERE h.company_id = ? "
    "ORDER BY h.company_id, h.score DESC, h.id",
    "SELECT id, company_id, year, period_from, period_to, currency, revenue, profit, total_assets, equity, "
    "liabilities, employees, current_assets, current_liabilities, retained_earnings, ebit, statement_type, "
    "source_record_id, source FROM financial_statements WHERE company_id = ? ORDER BY year, id",
    "SELECT event_type, phase, event_date, source FROM insolvency_events WHERE company_id = ? "
    "ORDER BY event_date, id",
    "SELECT category, certainty, ruleset_version, computed_at FROM nis2_assessments WHERE company_id = ?",
)
KEY = "SELECT id, name, plan, expires_at, revoked_at FROM api_keys WHERE key_hash = ?"
INCR = (
    "INSERT INTO counters (key, value, expires_at) VALUES (?, 1, ? + ?) ON CONFLICT (key) DO UPDATE SET "
    "value = CASE WHEN counters.expires_at <= ? THEN 1 ELSE counters.value + 1 END, "
    "expires_at = CASE WHEN counters.expires_at <= ? THEN ? + ? ELSE counters.expires_at END RETURNING value"
)

_local = threading.local()
_turn = threading.Lock()
_keys: dict[str, tuple[float, tuple[Any, ...] | None]] = {}


def _db() -> Any:
    conn = getattr(_local, "db", None)
    if conn is None:
        if PG:
            import psycopg

            conn = psycopg.connect(URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True)
        else:
            conn = sqlite3.connect(URL.split("///", 1)[1], check_same_thread=False)
            conn.execute("PRAGMA query_only=1")
        _local.db = conn
    return conn


def _rows(sql: str, *args: Any) -> list[dict[str, Any]]:
    cur = _db().cursor()
    cur.execute(sql.replace("?", "%s") if PG else sql, args)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _counters() -> sqlite3.Connection:
    conn = getattr(_local, "counters", None)
    if conn is None:
        conn = sqlite3.connect(COUNTERS, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, "
            "expires_at REAL NOT NULL)"
        )
        _local.counters = conn
    return conn


def _check(authorization: str | None, ip: str = "127.0.0.1") -> tuple[Any, ...]:
    raw = (authorization or "").removeprefix("Bearer ").strip()
    if not raw:
        raise HTTPException(401, "key required")
    digest = hashlib.sha256(raw.encode()).hexdigest()
    now = time.monotonic()
    hit = _keys.get(digest)
    if hit is None or hit[0] <= now:
        rows = _rows(KEY, digest)
        hit = (now + 2.0, tuple(rows[0].values()) if rows else None)
        _keys[digest] = hit
    key = hit[1]
    if key is None or key[4] is not None:
        raise HTTPException(401, "unknown key")
    wall = time.time()
    with _turn:
        conn = _counters()
        conn.execute("BEGIN IMMEDIATE")
        try:
            used = []
            for name, window in ((f"ip/{ip}", 60), (f"key/{key[0]}", 60), (f"quota/{key[0]}", 2_678_400)):
                used.append(conn.execute(INCR, (name, wall, window, wall, wall, wall, window)).fetchone()[0])
        finally:
            conn.execute("COMMIT")
    if used[1] > 100_000_000:
        raise HTTPException(429, "plan limit")
    return key


def _ok(data: Any, started: float) -> Response:
    body = {
        "data": data,
        "meta": {
            "duration_ms": int((time.perf_counter() - started) * 1000),
            "cached": False,
            "request_id": uuid.uuid4().hex,
        },
    }
    return Response(orjson.dumps(body, default=str), media_type="application/json")


app = FastAPI()
ASYNC = os.environ.get("TWIN_ASYNC") == "1"


def _route(path: str) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """`app.get(path)` on the handler itself, or (TWIN_ASYNC=1) on a coroutine calling it inline."""

    def register(handler: Callable[..., Response]) -> Callable[..., Response]:
        if not ASYNC:
            return app.get(path)(handler)

        @functools.wraps(handler)
        async def inline(*args: Any, **kwargs: Any) -> Response:
            return handler(*args, **kwargs)

        app.get(path)(inline)
        return handler

    return register


@_route("/api/v1/me")
def me(authorization: str | None = Header(default=None)) -> Response:
    started = time.perf_counter()
    key = _check(authorization)
    return _ok({"id": key[0], "name": key[1], "plan": key[2]}, started)


@_route("/api/v1/companies/{country}/{national_id}")
def company(country: str, national_id: str, authorization: str | None = Header(default=None)) -> Response:
    started = time.perf_counter()
    _check(authorization)
    if len(country) != 2 or not national_id.replace(" ", "").isalnum():
        raise HTTPException(422, "bad identifier")
    rows = _rows(COMPANY, country.upper(), national_id.replace(" ", ""))
    if not rows:
        raise HTTPException(404, "no such company")
    row = rows[0]
    latest = _rows(LATEST, row["id"])
    record = {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "legalForm": {"code": row["legal_form"], "name": row["legal_form_name"]},
        "status": row["status"],
        "foundedOn": row["founded_on"],
        "address": {"street": row["street"], "city": row["city"], "postalCode": row["postal_code"]},
        "inBankruptcy": bool(row["in_bankruptcy"]),
        "inRestructuring": bool(row["in_restructuring"]),
        "inLiquidation": bool(row["in_liquidation"]),
        "financials": latest[0] if latest else None,
        "sources": _rows(SOURCES, row["id"]),
        "identifiers": _rows(IDENTIFIERS, row["id"]),
    }
    return _ok(record, started)


@_route("/api/v1/companies/by-lei")
def by_lei(
    lei: str = Query(min_length=20, max_length=20), authorization: str | None = Header(default=None)
) -> Response:
    started = time.perf_counter()
    _check(authorization)
    rows = _rows(LEI, lei.upper())
    if not rows:
        raise HTTPException(404, "no such LEI")
    row = rows[0]
    debtors = _rows(DEBTOR_LISTS)[0]
    lists, hits, screening, _listed, statements, events, nis2 = (
        _rows(sql) if n == 0 else _rows(sql, row["id"]) for n, sql in enumerate(LEI_COMPANY_READS)
    )
    confirmed = sum(1 for h in hits if "identifier_match" in str(h["features"]))
    rows[0] = {
        "lei": row["lr_lei"],
        "ico": row["national_id"],
        "country": row["country"],
        "name": row["name"],
        "legalName": row["lr_legal_name"],
        "legalForm": row["lr_legal_form_name"],
        "registrationStatus": row["lr_registration_status"],
        "entityStatus": row["lr_entity_status"],
        "inBankruptcy": bool(row["in_bankruptcy"]),
        "flags": {"isSanctioned": confirmed > 0 if lists else None, "hasTaxDebt": None},
        "latestYear": statements[-1]["year"] if statements else None,
        "insolvencyEvents": len(events),
        "nis2": nis2[0]["category"] if nis2 else None,
        "screenedAt": screening[0]["screened_at"] if screening else None,
        "debtorListsAsOf": debtors,
    }
    return _ok(rows[0], started)


# Autocomplete, as a hand-written service would write it over the same index: the folded words, each
# matched as written or within the edits its length allows (the last one as the start of a word), one
# question for the 10 best, then their rows by id and a `<mark>` around the words that matched.
SUGGEST = (
    "SELECT id, country, national_id, name, legal_form, status, city, postal_code, address_text, "
    "in_bankruptcy FROM companies WHERE id IN ({})"
)
_index: dict[str, Any] = {}


def _index_folder() -> Path:
    """TWIN_INDEX, or the newest tantivy index under REGINTEL_DATA_DIR (what regintel serves)."""
    if os.environ.get("TWIN_INDEX"):
        return Path(os.environ["TWIN_INDEX"])
    found = sorted(
        Path(os.environ.get("REGINTEL_DATA_DIR", "data")).glob("search/*/tantivy/CURRENT"),
        key=lambda p: p.stat().st_mtime,
    )
    if not found:
        raise HTTPException(503, "no search index")
    return found[-1].parent


def _searcher() -> Any:
    folder = _index_folder()
    current = folder / (folder / "CURRENT").read_text().strip() / "index"
    if _index.get("path") != current:
        _index.update(path=current, index=tantivy.Index.open(str(current)))
    return _index["index"].searcher(), _index["index"].schema


def _fold(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text.lower())
    return re.findall(r"\w+", "".join(c for c in plain if not unicodedata.combining(c)))[:8]


def _question(schema: Any, words: list[str]) -> Any:
    Q = tantivy.Query
    clauses = []
    for n, word in enumerate(words):
        edits = 0 if len(word) <= 3 else 1 if len(word) <= 6 else 2
        exact = Q.const_score_query(Q.term_query(schema, "name", word), 2.0)
        last = n == len(words) - 1
        if edits or last:
            near = Q.fuzzy_term_query(schema, "name", word, distance=edits, prefix=last)
            exact = Q.disjunction_max_query([exact, Q.const_score_query(near, 1.0)])
        clauses.append((tantivy.Occur.Should, exact))
    return Q.boolean_query(clauses)


def _mark(name: str, words: list[str]) -> str:
    out = []
    for part in re.split(r"(\w+)", name):
        folded = _fold(part)
        hit = folded and any(folded[0].startswith(w[:-1] or w) for w in words)
        out.append(f"<mark>{html.escape(part)}</mark>" if hit else html.escape(part))
    return "".join(out)


@_route("/api/v1/companies/autocomplete")
def autocomplete(
    q: str = Query(min_length=1, max_length=200),
    limit: int = Query(default=10, ge=1, le=20),
    authorization: str | None = Header(default=None),
) -> Response:
    started = time.perf_counter()
    _check(authorization)
    words = _fold(q)
    if not words:
        raise HTTPException(422, "blank query")
    searcher, schema = _searcher()
    hits = searcher.search(_question(schema, words), limit).hits
    ids = [int(v) for v in searcher.fast_field_values("cid", [addr for _, addr in hits])]
    rows = {r["id"]: r for r in _rows(SUGGEST.format(", ".join("?" * len(ids))), *ids)} if ids else {}
    items = [
        {
            "country": r["country"],
            "nationalId": r["national_id"],
            "name": r["name"],
            "legalForm": r["legal_form"],
            "status": r["status"],
            "city": r["city"],
            "postalCode": r["postal_code"],
            "address": r["address_text"],
            "inBankruptcy": bool(r["in_bankruptcy"]),
            "score": round(score / (2.0 * len(words)), 4),
            "highlight": _mark(r["name"], words),
        }
        for (score, _), i in zip(hits, ids, strict=True)
        if (r := rows.get(i)) is not None
    ]
    return _ok(items, started)
