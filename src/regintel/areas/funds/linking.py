"""Linking a beneficiary to a company (docs/funds.md, "Linking"): by the national register number the
publisher gives (well-formed for the beneficiary's country, held by a company), else by its VAT number
(`services.identify`: the VAT id column and identifiers, a Czech legal person's CZ + IČO), else by name
and country through the resolver, never below `LINK_THRESHOLD`. One `Linker` per import run: a
beneficiary named in a thousand rows is resolved once."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel.db.schema import companies
from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.sources.funds_records import Beneficiary
from regintel.search.base import SearchBackend
from regintel.services.identify import find_by_identifier
from regintel.services.resolve import Evidence, candidates

# Above the resolver's own 0.8: a grant shown on the wrong company is worse than one left unlinked.
LINK_THRESHOLD = 0.9
BY_ID, BY_VAT, BY_NAME = "identifier", "vat", "name"


@dataclass(frozen=True)
class Link:
    company_id: int | None
    method: str | None
    score: float | None


NO_LINK = Link(None, None, None)


class Linker:
    def __init__(self, conn: Connection, backend: SearchBackend | None):
        self.conn = conn
        self.backend = backend
        self._index_ready = False
        self._seen: dict[tuple[object, ...], Link] = {}

    def link(self, who: Beneficiary, *, id_is_authoritative: bool = False) -> Link:
        """`id_is_authoritative`: the published id is the national register number by definition (DotInfo's
        IČO), so a beneficiary whose id no company holds stays unlinked rather than matched by name."""
        key = (who.country, who.national_id, who.vat, who.name, who.city, id_is_authoritative)
        if key not in self._seen:
            found = self._by_national_id(who) or self._by_vat(who)
            if found is None and not (id_is_authoritative and who.national_id):
                found = self._by_name(who)
            self._seen[key] = found or NO_LINK
        return self._seen[key]

    def _by_national_id(self, who: Beneficiary) -> Link | None:
        if not who.country or not who.national_id:
            return None
        try:
            national_id = parse_national_id(who.country, who.national_id)
        except InvalidIdentifier:
            return None
        found = self.conn.execute(select(companies.c.id).where(companies.c.country == who.country,
                                                               companies.c.national_id == national_id)).first()
        return Link(int(found.id), BY_ID, 1.0) if found else None

    def _by_vat(self, who: Beneficiary) -> Link | None:
        for value in (who.vat, who.national_id):
            if not value or not value[:2].isalpha():
                continue
            hits = [h for h in find_by_identifier(self.conn, value) if h.kind == "vat"]
            if len(hits) == 1:
                return Link(hits[0].company_id, BY_VAT, 1.0)
        return None

    def _by_name(self, who: Beneficiary) -> Link | None:
        if self.backend is None or not who.country or not who.name.strip():
            return None
        if not self._index_ready:  # the index must know the companies imported so far
            self.backend.ensure_current(self.conn)
            self._index_ready = True
        found = candidates(self.conn, self.backend, Evidence(name=who.name, country=who.country,
                                                             location=who.city), limit=1)
        if found and found[0].row["country"] == who.country and found[0].score >= LINK_THRESHOLD:
            return Link(int(found[0].row["id"]), BY_NAME, round(found[0].score, 4))
        return None
