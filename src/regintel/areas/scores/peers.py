"""`/companies/{ico}/peers` and `/similar`: benchmarks against the NACE group, and competitors.

Peers are the active companies of the same country, NACE class (four digits; the division, two digits,
when the class has fewer than `MIN_PEERS`), EU size class and statement currency. Their quartiles come
from `peer_benchmarks` once the job `scores.refresh_peers` has filled it (basis `precomputed`, with its
time), and are computed from the group's rows at request time before that (basis `live`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.scores import queries
from regintel.areas.scores.fx import rate_table
from regintel.domain import nace
from regintel.domain.scores import peers as domain
from regintel.domain.scores import similar as ranking
from regintel.domain.scores.figures import year_end

Row = Mapping[str, Any]
CANDIDATES = 5_000  # rows read per NACE range for /similar
SCOPES = ("region", "country", "world")


def peer_metrics(r: Row) -> dict[str, float | None]:
    """The benchmark metrics of a row carrying the latest statement's figures."""
    return domain.metrics(
        r["revenue"], r["profit"], r["total_assets"], r["equity"], r["liabilities"], r["statement_employees"]
    )


def peer_size(r: Row) -> str | None:
    """The EU size class a company is grouped by (statement headcount, register count, band)."""
    return domain.size_of(r["size_class"], r["employees"], r["statement_employees"])


def _live(
    conn: Connection, company: Row, level: str, code: str, size: str, currency: str
) -> tuple[int, dict[str, domain.Quartiles | None]]:
    rows = [
        r
        for r in queries.peer_rows(conn, company["country"], nace.prefix_range(code), currency)
        if peer_size(r) == size
    ]
    values = [peer_metrics(r) for r in rows]
    return len(rows), {m: domain.quartiles(v[m] for v in values) for m in domain.METRICS}


def _stored(
    conn: Connection, company: Row, level: str, code: str, size: str, currency: str
) -> tuple[int, dict[str, domain.Quartiles | None]]:
    rows = queries.find_benchmarks(conn, level, code, company["country"], size, currency)
    found = {r["metric"]: domain.Quartiles(r["peer_count"], r["p25"], r["p50"], r["p75"]) for r in rows}
    return max((q.count for q in found.values()), default=0), {m: found.get(m) for m in domain.METRICS}


def peers(conn: Connection, company: Row) -> dict[str, Any]:
    latest = queries.latest_statement(conn, company["id"])
    digits = nace.digits(company["nace_primary"])
    size = peer_size({**company, "statement_employees": latest["statement_employees"] if latest else None})
    if latest is None or digits is None or size is None:
        reason = (
            "no financial statement on record"
            if latest is None
            else "no NACE code on record"
            if digits is None
            else "no headcount or size class on record"
        )
        return {
            "group": None,
            "statement_year": latest["year"] if latest else None,
            "metrics": [],
            "reason": reason,
        }
    computed_at = queries.benchmarks_computed_at(conn)
    lookup = _live if computed_at is None else _stored
    levels = [("class", digits[:4])] if len(digits) >= 4 else []
    for level, code in [*levels, ("division", digits[:2])]:
        count, quartiles = lookup(conn, company, level, code, size, latest["currency"])
        if count >= domain.MIN_PEERS:
            break
    group = {
        "level": level,
        "nace": code,
        "country": company["country"],
        "size_class": size,
        "currency": latest["currency"],
        "peer_count": count,
        "basis": "live" if computed_at is None else "precomputed",
        "computed_at": computed_at,
    }
    if count < domain.MIN_PEERS:
        return {
            "group": group,
            "statement_year": latest["year"],
            "metrics": [],
            "reason": f"fewer than {domain.MIN_PEERS} peers in the NACE division, country, size class "
            "and currency",
        }
    own = peer_metrics(latest)
    out = []
    for metric, q in quartiles.items():
        quartile = domain.quartile_of(own[metric], q)
        out.append(
            {
                "metric": metric,
                "value": own[metric],
                "p25": q and q.p25,
                "p50": q and q.p50,
                "p75": q and q.p75,
                "peer_count": q.count if q else 0,
                "quartile": quartile,
                "assessment": domain.assessment(metric, quartile),
            }
        )
    return {"group": group, "statement_year": latest["year"], "metrics": out, "reason": None}


def _revenue_eur(r: Row) -> float | None:
    if r.get("revenue") is None or r.get("year") is None:
        return None
    rate = rate_table().find(r["currency"], year_end(r["year"]))
    return None if rate is None else float(r["revenue"]) / float(rate.rate)


def _profile(r: Row) -> ranking.Profile:
    return ranking.Profile(
        r["id"],
        nace.digits(r["nace_primary"]),
        r["country"],
        r["nuts3"],
        r["employees"] if r.get("statement_employees") is None else r["statement_employees"],
        _revenue_eur(r),
    )


def _size_test(target: ranking.Profile) -> tuple[str, Any] | None:
    span = ranking.SIZE_SPAN
    if target.revenue_eur:
        table = rate_table()
        # A little wider than the span: the SQL test uses today's rates, the ranking each statement's.
        bounds = {"EUR": (target.revenue_eur / span * 0.8, target.revenue_eur * span * 1.25)}
        for cur, rates in table.rates.items():
            if rates:
                bounds[cur] = (bounds["EUR"][0] * float(rates[-1]), bounds["EUR"][1] * float(rates[-1]))
        return "revenue_eur", queries.revenue_between(bounds)
    if target.employees is not None:
        lo = max(0, int((target.employees + 1) / span - 1))
        return "employees", queries.employees_between(lo, int((target.employees + 1) * span))
    return None


def similar(conn: Connection, company: Row, scope: str, limit: int) -> dict[str, Any]:
    latest = queries.latest_statement(conn, company["id"]) or {}
    target = _profile({**company, **latest})
    base = {
        "scope": scope,
        "nace": target.nace_digits,
        "region": company["nuts3"],
        "size_basis": None,
        "items": [],
    }
    test = _size_test(target)
    reason = (
        "no NACE code on record"
        if target.nace_digits is None
        else "no NUTS 3 region on record"
        if scope == "region" and not company["nuts3"]
        else "no revenue or headcount on record to compare size"
        if test is None
        else None
    )
    if reason is not None:
        return base | {"reason": reason}
    assert test is not None and target.nace_digits is not None
    basis, size = test
    digits = target.nace_digits
    country = None if scope == "world" else company["country"]
    region = company["nuts3"] if scope == "region" else None
    rows = queries.similar_candidates(conn, nace.prefix_range(digits[:4]), country, region, size, CANDIDATES)
    if len(rows) <= limit:
        rows += [
            r
            for r in queries.similar_candidates(
                conn, nace.prefix_range(digits[:2]), country, region, size, CANDIDATES
            )
            if not (nace.digits(r["nace_primary"]) or "").startswith(digits[:4])
        ]
    by_id = {r["id"]: r for r in rows}
    items = [
        _item(by_id[m.profile.company_id], m)
        for m in ranking.rank(target, [_profile(r) for r in rows], limit)
    ]
    return base | {
        "size_basis": basis,
        "items": items,
        "reason": None if items else "no comparable company found",
    }


def _item(r: Row, m: ranking.Match) -> dict[str, Any]:
    p = m.profile
    return {
        "country": r["country"],
        "national_id": r["national_id"],
        "name": r["name"],
        "nace": r["nace_primary"],
        "region": p.region,
        "city": r["city"],
        "employees": p.employees,
        "revenue_eur": None if p.revenue_eur is None else round(p.revenue_eur, 2),
        "statement_year": r["year"],
        "distance": m.distance,
        "reasons": list(m.reasons),
    }
