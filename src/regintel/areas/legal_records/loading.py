"""Writing one parsed legal record into the area's tables, inside the import's transaction.

A record is compared with what is stored under its key by its content hash: the same record again
writes nothing (`unchanged`); a changed one replaces its row and its party rows (`updated`). Parties are
linked to companies as they are written (`linking.Linker`)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Connection

from regintel.domain.names import fold, tokens
from regintel.ingest.loader import LoadStats

from . import privacy, queries
from .linking import Linker
from .records import AntitrustCase, CourtDecision, IpkzInstallation, SbirkaAct, content_hash
from .tables import (
    antitrust_cases,
    antitrust_parties,
    court_decision_parties,
    court_decisions,
    ipkz_installations,
    sbirka_acts,
    sbirka_mentions,
)


class Writer:
    """Writes the records of one import run (`source`, `run_id`) with one linker."""

    def __init__(self, conn: Connection, linker: Linker, stats: LoadStats, source: str, run_id: int):
        self.conn, self.linker, self.stats, self.source, self.run_id = conn, linker, stats, source, run_id
        self._withheld: frozenset[str] | None = None

    def _withhold(self, kind: privacy.Kind, pk: int | None) -> None:
        """A record written with the names as published: parties withheld after a data-protection request
        are withheld in it at once (read inside the file's transaction, on its first written record)."""
        if pk is None:
            return
        if self._withheld is None:
            self._withheld = privacy.withheld_keys(self.conn)
        if self._withheld:
            privacy.withhold_on_import(self.conn, kind, pk, self._withheld)

    def write(self, record: Any) -> None:
        if isinstance(record, CourtDecision):
            self._decision(record)
        elif isinstance(record, AntitrustCase):
            self._case(record)
        elif isinstance(record, IpkzInstallation):
            self._installation(record)
        elif isinstance(record, SbirkaAct):
            self._act(record)
        else:  # a source yielding something this area does not store is a programming error
            raise TypeError(f"cannot store {type(record).__name__}")

    def _store(
        self,
        table: Table,
        match: dict[str, Any],
        values: dict[str, Any],
        digest: str,
        children: tuple[Table, str, list[dict[str, Any]]] | None,
    ) -> int | None:
        """Insert or replace one record and its child rows, unless stored with the same hash; returns the
        record's id when it was written (`match`: the columns of its key)."""
        row = queries.stored_hash(self.conn, table, match)
        if row is not None and row[1] == digest:
            self.stats.unchanged += 1
            return None
        values = values | {
            "source": self.source,
            "record_hash": digest,
            "import_run": self.run_id,
            "imported_at": datetime.now(UTC),
        }
        if row is None:
            pk = queries.insert_record(self.conn, table, values)
            self.stats.inserted += 1
        else:
            pk = row[0]
            queries.update_matching(self.conn, table, {"id": pk}, values)
            self.stats.updated += 1
        if children is not None:
            child, fk, rows = children
            if row is not None:
                queries.delete_matching(self.conn, child, {fk: pk})
            if rows:
                queries.insert_rows(self.conn, child, [r | {fk: pk} for r in rows])
        return pk

    def _decision(self, d: CourtDecision) -> None:
        parties = [
            {
                "position": i,
                "name": x.name,
                "national_id": x.national_id,
                "country": x.country,
                "role": x.role,
                **self.linker.link(x).columns(),
            }
            for i, x in enumerate(d.parties, 1)
        ]
        search = " ".join(
            tokens(
                " ".join(
                    filter(
                        None,
                        [
                            d.court_name,
                            d.file_ref,
                            d.ecli,
                            d.area,
                            d.subarea,
                            d.form,
                            *(x.name for x in d.parties),
                            *(x.national_id for x in d.parties),
                        ],
                    )
                )
            )
        )
        values = {
            "guid": d.guid,
            "court_id": d.court_id,
            "court_name": d.court_name,
            "court_norm": fold(d.court_name),
            "judge": d.judge,
            "file_ref": d.file_ref,
            "identifier": d.identifier,
            "ecli": d.ecli,
            "decided_on": d.decided_on,
            "form": d.form,
            "nature": d.nature,
            "area": d.area,
            "subarea": d.subarea,
            "regulations": list(d.regulations),
            "document_url": d.document_url,
            "search_text": search,
        }
        pk = self._store(
            court_decisions,
            {"guid": d.guid},
            values,
            content_hash(d),
            (court_decision_parties, "decision_pk", parties),
        )
        self._withhold(privacy.COURT, pk)

    def _case(self, c: AntitrustCase) -> None:
        parties = [
            {
                "position": i,
                "name": x.name,
                "national_id": x.national_id,
                "country": x.country,
                "role": x.role,
                "address": x.address,
                **self.linker.link(x).columns(),
            }
            for i, x in enumerate(c.parties, 1)
        ]
        values = {
            "case_ref": c.case_ref,
            "kind": c.kind,
            "title": c.title,
            "decided_on": c.decided_on,
            "final_on": c.final_on,
            "verdict": c.verdict,
            "fine": c.fine,
            "currency": c.currency,
            "link": c.link,
            "rulings": [_json(asdict(r)) for r in c.rulings],
        }
        pk = self._store(
            antitrust_cases,
            {"source": self.source, "case_ref": c.case_ref},
            values,
            content_hash(c),
            (antitrust_parties, "case_pk", parties),
        )
        self._withhold(privacy.ANTITRUST, pk)

    def _installation(self, n: IpkzInstallation) -> None:
        op = n.operator
        values = {
            "installation_id": n.installation_id,
            "name": n.name,
            "operator_name": op.name,
            "operator_national_id": op.national_id,
            "operator_address": op.address,
            "address": n.address,
            "municipality": n.municipality,
            "activity_code": n.activity_code,
            "activity": n.activity,
            "latitude": n.latitude,
            "longitude": n.longitude,
            "inspections": n.inspections,
            "inspections_with_findings": n.inspections_with_findings,
            "last_inspection_on": n.last_inspection_on,
            "link": n.link,
            "permits": [_json(asdict(x)) for x in n.permits],
            **self.linker.link(op).columns(),
        }
        pk = self._store(
            ipkz_installations,
            {"source": self.source, "installation_id": n.installation_id},
            values,
            content_hash(n),
            None,
        )
        self._withhold(privacy.IPKZ, pk)

    def _act(self, a: SbirkaAct) -> None:
        mentions = [
            {
                "position": i,
                "name": x.name,
                "national_id": x.national_id,
                "excerpt": excerpt,
                **self.linker.link(x, by_name=False).columns(),
            }
            for i, (x, excerpt) in enumerate(zip(a.mentions, a.excerpts, strict=True), 1)
        ]
        values = {
            "iri": a.iri,
            "number": a.number,
            "year": a.year,
            "act_type": a.act_type,
            "title": a.title,
            "promulgated_on": a.promulgated_on,
            "effective_on": a.effective_on,
            "link": a.link,
        }
        pk = self._store(
            sbirka_acts,
            {"iri": a.iri},
            values,
            content_hash(a),
            (sbirka_mentions, "act_pk", mentions),
        )
        self._withhold(privacy.ESBIRKA, pk)


def _json(value: dict[str, Any]) -> dict[str, Any]:
    """Dates as ISO strings, so the JSON columns read back the same on SQLite and PostgreSQL."""
    return {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in value.items()}
