"""Writing a batch of parsed funds records inside the import's transaction: one read of the stored hashes
of the batch's keys, then one upsert of the new and changed rows (their beneficiaries linked as they are
written). A key repeated in a file keeps its last row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Connection

from regintel.db.engine import upsert
from regintel.ingest.loader import LoadStats
from regintel.ingest.sources.funds_records import Award, Beneficiary, CordisParticipation, CordisProject

from . import queries
from .linking import Linker
from .tables import cordis_participants, cordis_projects, fund_awards

CORDIS_SOURCE = "eu_cordis"
# Sources whose published id is the national register number by definition (never matched by name
# when no company holds it).
AUTHORITATIVE_IDS = frozenset({"cz_dotinfo"})


@dataclass
class Run:
    run_id: int
    source: str
    started: datetime
    stats: LoadStats

    def provenance(self, digest: str) -> dict[str, Any]:
        return {"record_hash": digest, "import_run_id": self.run_id, "imported_at": self.started}


def write_batch(conn: Connection, records: list[Any], linker: Linker, run: Run) -> None:
    awards = [r for r in records if isinstance(r, Award)]
    projects = [r for r in records if isinstance(r, CordisProject)]
    participations = [r for r in records if isinstance(r, CordisParticipation)]
    if awards:
        _awards(conn, awards, linker, run)
    if projects:
        _projects(conn, projects, linker, run)
    if participations:
        _participations(conn, participations, linker, run)
    if any(not isinstance(r, Award | CordisProject | CordisParticipation) for r in records):
        raise TypeError("a funds source yielded a record this area does not store")


def _beneficiary(who: Beneficiary, linker: Linker, run: Run) -> dict[str, Any]:
    found = linker.link(who, id_is_authoritative=run.source in AUTHORITATIVE_IDS)
    return {
        "beneficiary_name": who.name,
        "beneficiary_national_id": who.national_id,
        "beneficiary_vat": who.vat,
        "beneficiary_country": who.country,
        "beneficiary_city": who.city,
        "company_id": found.company_id,
        "match_method": found.method,
        "match_score": found.score,
    }


Changed = list[tuple[tuple[str, ...], Any, str]]
Unlinked = list[tuple[tuple[str, ...], Any]]


def _changed(
    conn: Connection, table: Table, key_cols: Sequence[str], records: dict[tuple[str, ...], Any], run: Run
) -> tuple[Changed, Unlinked]:
    """The records whose content differs from what is stored (new ones included), counted in `run.stats`,
    and the unchanged ones stored without a company whose beneficiary has a register or VAT number (a
    company imported since may hold it). Stored rows are read with one IN list per key column (a superset
    of the keys, filtered here)."""
    linkable = "company_id" in table.c
    stored = queries.stored_hashes(conn, table, key_cols, list(records))
    changed: Changed = []
    unlinked: Unlinked = []
    for key, record in records.items():
        digest = record.content_hash()
        if key not in stored:
            run.stats.inserted += 1
        elif stored[key][0] == digest:
            run.stats.unchanged += 1
            who = getattr(record, "beneficiary", None)
            if linkable and stored[key][1] is None and who is not None and (who.national_id or who.vat):
                unlinked.append((key, record))
            continue
        else:
            run.stats.updated += 1
        changed.append((key, record, digest))
    return changed, unlinked


def _relink(
    conn: Connection, table: Table, key_cols: Sequence[str], unlinked: Unlinked, linker: Linker, run: Run
) -> None:
    """Link unchanged records a company now holds the register or VAT number of (never by name: that would
    ask the resolver for every unlinked row on every import). A relinked record counts as `updated`."""
    linker.prefetch([record.beneficiary for _, record in unlinked])
    for key, record in unlinked:
        found = linker.by_identifiers(record.beneficiary)
        if found is None:
            continue
        queries.set_company(conn, table, key_cols, key, found.company_id, found.method, found.score)
        run.stats.unchanged -= 1
        run.stats.updated += 1


def _dedupe(
    records: list[Any], key: Callable[[Any], tuple[str, ...]], run: Run
) -> dict[tuple[str, ...], Any]:
    out: dict[tuple[str, ...], Any] = {}
    for record in records:
        if key(record) in out:
            run.stats.skip("repeated in the file (the last row is kept)")
        out[key(record)] = record
    return out


def _awards(conn: Connection, records: list[Award], linker: Linker, run: Run) -> None:
    by_key = _dedupe(records, lambda r: (run.source, r.record_key), run)
    changed, unlinked = _changed(conn, fund_awards, ("source", "record_key"), by_key, run)
    _relink(conn, fund_awards, ("source", "record_key"), unlinked, linker, run)
    linker.prefetch([a.beneficiary for _, a, _ in changed])
    rows = []
    for (_, key), a, digest in changed:
        rows.append(
            {
                "source": run.source,
                "record_key": key,
                "kind": a.kind,
                **_beneficiary(a.beneficiary, linker, run),
                "title": a.title,
                "programme": a.programme,
                "fund": a.fund,
                "granting_body": a.granting_body,
                "measure": a.measure,
                "measure_type": a.measure_type,
                "objective": a.objective,
                "region": a.region,
                "nace": a.nace,
                "amount": a.amount,
                "eu_amount": a.eu_amount,
                "aid_element": a.aid_element,
                "currency": a.currency,
                "year": a.year,
                "granted_on": a.granted_on,
                "start_on": a.start_on,
                "end_on": a.end_on,
                "link": a.link,
                **run.provenance(digest),
            }
        )
    if rows:
        upsert(conn, fund_awards, rows, keys=["source", "record_key"])


def _projects(conn: Connection, records: list[CordisProject], linker: Linker, run: Run) -> None:
    by_key = _dedupe(records, lambda r: (r.project_id,), run)
    rows = [
        {
            "project_id": p.project_id,
            "acronym": p.acronym,
            "title": p.title,
            "status": p.status,
            "framework": p.framework,
            "funding_scheme": p.funding_scheme,
            "legal_basis": p.legal_basis,
            "start_on": p.start_on,
            "end_on": p.end_on,
            "signed_on": p.signed_on,
            "total_cost": p.total_cost,
            "ec_max_contribution": p.ec_max_contribution,
            **run.provenance(digest),
        }
        for _, p, digest in _changed(conn, cordis_projects, ("project_id",), by_key, run)[0]
    ]
    if rows:
        upsert(conn, cordis_projects, rows, keys=["project_id"])


def _participations(conn: Connection, records: list[CordisParticipation], linker: Linker, run: Run) -> None:
    by_key = _dedupe(records, lambda r: (r.project_id, r.organisation_id), run)
    changed, unlinked = _changed(conn, cordis_participants, ("project_id", "organisation_id"), by_key, run)
    _relink(conn, cordis_participants, ("project_id", "organisation_id"), unlinked, linker, run)
    linker.prefetch([p.beneficiary for _, p, _ in changed])
    rows = [
        {
            "project_id": p.project_id,
            "organisation_id": p.organisation_id,
            **_beneficiary(p.beneficiary, linker, run),
            "role": p.role,
            "sme": p.sme,
            "activity_type": p.activity_type,
            "ec_contribution": p.ec_contribution,
            "net_ec_contribution": p.net_ec_contribution,
            "total_cost": p.total_cost,
            "ended": p.ended,
            **run.provenance(digest),
        }
        for _, p, digest in changed
    ]
    if rows:
        upsert(conn, cordis_participants, rows, keys=["project_id", "organisation_id"])
