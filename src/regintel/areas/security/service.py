"""Use cases of the security area. Other areas may call `posture_summary` (e.g. NIS2 priority).

Requests only read stored results: `/security` and `/brand-signals/{domain}` queue the job
`security.check` for hosts never checked or checked more than `security_max_age_hours` ago, and answer
what is stored (or `pending`). The worker runs the check (`check.check_host`) and stores it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.security import queries, signals
from regintel.areas.security.check import Outcome, ProbeSettings, check_host
from regintel.areas.security.findings import WEIGHTS, band, category_points, company_score
from regintel.areas.security.names import Host, NotAHost, normalise_host
from regintel.config import Settings
from regintel.db import jobs as jobs_db
from regintel.db.engine import begin_write
from regintel.errors import NotFound, ValidationFailed

JOB_KIND = "security.check"
RECHECK_JOB = "security.recheck"
RECHECK_BATCH = 5_000  # checks queued per recheck run; the next run (or a continuation) takes the rest


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        aware = value if value.tzinfo else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return str(value.isoformat())


def domains(conn: Connection, row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """`/companies/{ico}/domains`: each host with its kinds and the published values with their sources."""
    out: dict[str, dict[str, Any]] = {}
    for r in queries.domains_of(conn, row["country"], row["national_id"]):
        shared = signals.is_shared_domain(r["registered_domain"])
        item = out.setdefault(
            r["host"],
            {
                "domain": r["host"],
                "registered_domain": r["registered_domain"],
                "kinds": [],
                "shared_domain": shared,
                "sources": [],
            },
        )
        if r["kind"] not in item["kinds"]:
            item["kinds"].append(r["kind"])
        item["sources"].append(
            {
                "kind": r["kind"],
                "value": r["value"],
                "source": r["source"],
                "source_name": r["source_name"],
                "licence": r["licence"],
                "record": r["source_record"],
                "published_on": _iso(r["published_on"]),
                "retrieved_at": _iso(r["retrieved_at"]),
                "import_run": r["run_id"],
            }
        )
    return list(out.values())


def _checkable(items: Sequence[Mapping[str, Any]]) -> list[str]:
    return [i["domain"] for i in items if not i["shared_domain"]]


def queue_checks(conn: Connection, hosts: Sequence[str], settings: Settings, now: datetime) -> list[str]:
    """Queue `security.check` for the hosts without a fresh stored check (deduplicated while queued)."""
    stored = queries.checks_for(conn, hosts)
    due = queries.stale_or_missing(stored, hosts, now - timedelta(hours=settings.security_max_age_hours))
    for host in due:
        jobs_db.enqueue(
            conn, JOB_KIND, {"host": host}, now=now, dedupe_key=f"{JOB_KIND}:{host}", max_attempts=3
        )
    return due


def recheck_stale(
    conn: Connection, settings: Settings, now: datetime, payload: Mapping[str, Any]
) -> dict[str, Any]:
    """The periodic re-check (job `security.recheck`): queue `security.check` for the stored checks older than
    `max_age_hours` (default `security_max_age_hours`) whose host a register still publishes, oldest first,
    at most RECHECK_BATCH; a full batch queues a continuation at once, and with `every_hours` the job
    queues itself again that many hours later. On-demand checks go first (lower priority number)."""
    age = int(payload.get("max_age_hours") or settings.security_max_age_hours)
    hosts = queries.stale_hosts(conn, now - timedelta(hours=age), RECHECK_BATCH)
    queued = [
        h
        for h in hosts
        if jobs_db.enqueue(
            conn, JOB_KIND, {"host": h}, now=now, priority=300, dedupe_key=f"{JOB_KIND}:{h}", max_attempts=3
        )
        is not None
    ]
    out: dict[str, Any] = {"max_age_hours": age, "stale": len(hosts), "queued": len(queued), "next": None}
    every = payload.get("every_hours")
    if len(hosts) == RECHECK_BATCH:  # more are stale: continue once these have been queued
        out["next"] = jobs_db.enqueue(
            conn,
            RECHECK_JOB,
            {"max_age_hours": age},
            now=now,
            run_after=now + timedelta(minutes=5),
            dedupe_key=f"{RECHECK_JOB}:more",
        )
    if every:
        out["next_periodic"] = jobs_db.enqueue(
            conn,
            RECHECK_JOB,
            dict(payload),
            now=now,
            run_after=now + timedelta(hours=int(every)),
            dedupe_key=f"{RECHECK_JOB}:every",
        )
    return out


def _domain_view(host: str, check: Mapping[str, Any] | None, queued: bool) -> dict[str, Any]:
    if check is None:
        return {
            "domain": host,
            "status": "pending",
            "score": None,
            "checked_at": None,
            "recheck_queued": queued,
            "findings": [],
            "error": None,
        }
    return {
        "domain": host,
        "status": check["status"],
        "score": check["score"],
        "checked_at": _iso(check["checked_at"]),
        "recheck_queued": queued,
        "findings": list(check["findings"] or []),
        "error": check["error"],
    }


def posture(conn: Connection, row: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    """`/companies/{ico}/security`: the stored checks of the company's domains and their score; queues the
    missing or stale ones (the caller commits)."""
    items = domains(conn, row)
    hosts = _checkable(items)
    queued = set(queue_checks(conn, hosts, settings, datetime.now(UTC)))
    stored = queries.checks_for(conn, hosts)
    views = [_domain_view(h, stored.get(h), h in queued) for h in hosts]
    scored = [v["score"] for v in views if v["score"] is not None]
    value = company_score(scored)
    status = (
        "no_domains"
        if not hosts
        else "pending"
        if not stored
        else "done"
        if all(v["status"] != "pending" for v in views)
        else "partial"
    )
    findings = [dict(f, domain=v["domain"]) for v in views for f in v["findings"]]
    dates = [v["checked_at"] for v in views if v["checked_at"]]
    return {
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        "status": status,
        "score": value,
        "band": band(value),
        "checked_at": min(dates) if dates else None,
        "domains": views,
        "findings": findings,
        "skipped_domains": [i["domain"] for i in items if i["shared_domain"]],
        "queued": sorted(queued),
    }


def cyber_score(conn: Connection, row: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    """`/security/cyber-score`: the score, its band and the points lost per category on the weakest domain."""
    view = posture(conn, row, settings)
    scored = [v for v in view["domains"] if v["score"] is not None]
    weakest = min(scored, key=lambda v: v["score"]) if scored else None
    lost = category_points(weakest["findings"]) if weakest else None
    return {
        "country": view["country"],
        "national_id": view["national_id"],
        "status": view["status"],
        "score": view["score"],
        "band": view["band"],
        "checked_at": view["checked_at"],
        "weakest_domain": weakest["domain"] if weakest else None,
        "points_lost": lost,
        "domains": [
            {"domain": v["domain"], "score": v["score"], "status": v["status"]} for v in view["domains"]
        ],
        "method": "100 minus the weights of the weakest domain's findings (critical 40, high 20, medium 10, "
        "low 4, info 0), at least 0; docs/security-posture.md",
    }


def posture_summary(conn: Connection, country: str, national_id: str) -> dict[str, Any] | None:
    """The stored posture without queueing anything: the company's score (weakest scored domain, None when
    every stored check was refused or failed), its band, the findings of the scored domains counted by
    severity, and the oldest check's date. None only when no domain of the company has a stored check."""
    items = domains(conn, {"country": country, "national_id": national_id})
    stored = queries.checks_for(conn, _checkable(items))
    if not stored:
        return None
    scored = {h: c for h, c in stored.items() if c["score"] is not None}
    value = company_score([c["score"] for c in scored.values()])
    severities = dict.fromkeys(WEIGHTS, 0)
    for check in scored.values():
        for f in check["findings"] or []:
            severities[f["severity"]] += 1
    dates = [d for d in (_iso(c["checked_at"]) for c in stored.values()) if d]
    return {
        "score": value,
        "band": band(value),
        "findings": sum(severities.values()),
        "by_severity": severities,
        "checked_domains": len(stored),
        "scored_domains": len(scored),
        "statuses": sorted({str(c["status"]) for c in stored.values()}),
        "checked_at": min(dates) if dates else None,
    }


def _signal_view(host: str, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    techs = [
        {"name": r["name"], "category": r["category"], "evidence": r["evidence"]}
        for r in rows
        if r["kind"] == "technology"
    ]
    first = {
        kind: next(({"name": r["name"], "evidence": r["evidence"]} for r in rows if r["kind"] == kind), None)
        for kind in ("mail_provider", "cert_issuer")
    }
    return {
        "domain": host,
        "technologies": techs,
        "mail_provider": first["mail_provider"],
        "cert_issuer": first["cert_issuer"],
    }


def signal_list(
    conn: Connection, filters: Mapping[str, Any], page: int, per_page: int
) -> tuple[int, list[Any]]:
    """`/brand-signals`: checked hosts matching the filters (any case; `domain` takes any host under it)."""
    wanted = dict(filters)
    for kind in ("technology", "mail_provider"):
        if wanted.get(kind):
            wanted[kind] = signals.canonical_name(kind, wanted[kind])
    if wanted.get("domain"):
        name = _parse(wanted["domain"], "query")
        wanted["domain"] = (name.host, name.registered_domain)
    total, rows = queries.signal_page(conn, wanted, page, per_page)
    hosts = [r["host"] for r in rows]
    sigs, owners = queries.signals_for(conn, hosts), queries.holders(conn, hosts)
    items = [
        dict(
            _signal_view(r["host"], sigs.get(r["host"], [])),
            score=r["score"],
            checked_at=_iso(r["checked_at"]),
            companies=_owners(owners.get(r["host"], [])),
        )
        for r in rows
    ]
    return total, items


def _owners(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        seen.setdefault(
            (r["country"], r["national_id"]),
            {"country": r["country"], "national_id": r["national_id"], "name": r["name"]},
        )
    return list(seen.values())


def _parse(raw: str, where: str = "path") -> Host:
    try:
        return normalise_host(raw)
    except NotAHost as exc:
        raise ValidationFailed(
            str(exc), details=[{"field": "domain", "in": where, "message": str(exc)}]
        ) from None


def signals_for_domain(conn: Connection, raw: str, settings: Settings) -> dict[str, Any]:
    """`/brand-signals/{domain}`: a host some register published; checked or queued (the caller commits)."""
    name = _parse(raw)
    host = name.host
    if not queries.host_known(conn, host):
        raise NotFound(f"No company publishes the domain {host}; only register domains are checked")
    if signals.is_shared_domain(name.registered_domain):
        raise NotFound(f"{host} is a shared mailbox or platform domain; it is not checked for any company")
    queued = queue_checks(conn, [host], settings, datetime.now(UTC))
    check = queries.checks_for(conn, [host]).get(host)
    view = _signal_view(host, queries.signals_for(conn, [host]).get(host, []))
    return dict(
        view,
        status="pending" if check is None else check["status"],
        score=None if check is None else check["score"],
        checked_at=None if check is None else _iso(check["checked_at"]),
        recheck_queued=bool(queued),
        error=None if check is None else check["error"],
        companies=_owners(queries.holders(conn, [host]).get(host, [])),
    )


def run_check(engine: Engine, settings: Settings, host: str) -> dict[str, Any]:
    """The job: check the host (network, no connection held) and store the outcome in one transaction."""
    outcome = check_host(host, ProbeSettings.from_settings(settings))
    with begin_write(engine) as conn:
        queries.save_check(conn, _check_row(outcome), _signal_rows(outcome))
    return {
        "host": outcome.host,
        "status": outcome.status,
        "score": outcome.score,
        "findings": len(outcome.findings),
        "duration_ms": outcome.duration_ms,
    }


def _check_row(o: Outcome) -> dict[str, Any]:
    return {
        "host": o.host,
        "status": o.status,
        "score": o.score,
        "findings": [f.as_dict() for f in o.findings],
        "facts": o.facts,
        "error": o.error,
        "checked_at": datetime.now(UTC),
        "duration_ms": o.duration_ms,
    }


def _signal_rows(o: Outcome) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for sig in o.signals:
        rows.setdefault(
            (sig.kind, sig.name),
            {
                "host": o.host,
                "kind": sig.kind,
                "name": sig.name,
                "category": sig.category,
                "evidence": sig.evidence[:500],
            },
        )
    return list(rows.values())
