"""Writing one register file into the area's tables, inside the import's transaction.

A register list is the whole register as of its publication: each row is compared with what the source
stored by its content hash (the same row again writes nothing: `unchanged`), a changed row is updated, a
new one inserted, and a stored row the list no longer has is deleted (counted under `changes`)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Connection

from regintel.ingest.loader import LoadStats

from . import queries
from .linking import Link, Linker
from .records import Authorisation, Professional
from .tables import licensed_professionals, regulated_authorisations


def table_for(record: Authorisation | Professional) -> Table:
    return regulated_authorisations if isinstance(record, Authorisation) else licensed_professionals


def _link(record: Authorisation | Professional, linker: Linker) -> Link:
    if isinstance(record, Authorisation):
        registration = record.licence_number if record.sector == "trust" else None
        return linker.link(record.country, record.national_id, record.name, record.city, registration)
    return linker.link(record.country, record.firm_national_id, record.firm_name, record.city)


def _values(record: Authorisation | Professional, linker: Linker, digest: str) -> dict[str, Any]:
    return (
        asdict(record)
        | _link(record, linker).columns()
        | {"record_hash": digest, "imported_at": datetime.now(UTC)}
    )


class Writer:
    """One file of one source: what the source has stored, and what this file has said so far."""

    def __init__(self, conn: Connection, table: Table, source: str, linker: Linker, stats: LoadStats):
        self.conn, self.table, self.source, self.linker, self.stats = conn, table, source, linker, stats
        rows = queries.stored_rows(conn, table, source)
        self.stored: dict[str, tuple[int, str, bool]] = {
            r.record_key: (int(r.id), r.record_hash, r.company_id is not None) for r in rows
        }
        self.seen: set[str] = set()

    def write(self, records: list[Authorisation | Professional]) -> None:
        inserts = []
        for record in records:
            if record.record_key in self.seen:
                self.stats.skip("a row repeating an earlier row's key in the same file")
                continue
            self.seen.add(record.record_key)
            digest = record.content_hash()
            pk, stored_hash, linked = self.stored.get(record.record_key, (None, None, False))
            if stored_hash == digest:
                self._relink(pk, record, linked)
            elif pk is None:
                inserts.append(_values(record, self.linker, digest))
                self.stats.inserted += 1
            else:
                queries.update_row(self.conn, self.table, pk, _values(record, self.linker, digest))
                self.stats.updated += 1
        if inserts:
            queries.insert_rows(self.conn, self.table, inserts)

    def _relink(self, pk: int | None, record: Authorisation | Professional, linked: bool) -> None:
        """An unchanged row that was left unlinked is linked when its company has arrived since."""
        link = None if linked else _link(record, self.linker)
        if link is None or link.company_id is None:
            self.stats.unchanged += 1
            return
        queries.update_row(self.conn, self.table, pk, link.columns())
        self.stats.updated += 1

    def remove_unseen(self, apply: bool) -> None:
        """Rows of the source the list no longer has: delisted, so deleted (unless not `apply`)."""
        gone = [pk for key, (pk, _, _) in self.stored.items() if key not in self.seen]
        if gone and not apply:
            self.stats.skip("delisting not applied: the file had rejected rows")
            return
        queries.delete_rows(self.conn, self.table, gone)
        self.stats.changes += len(gone)
