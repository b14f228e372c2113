"""Linking a beneficiary to a company (docs/funds.md, "Linking"): by the national register number the
publisher gives (well-formed for the beneficiary's country, held by a company), else by its VAT number
(`areas.search.identify`: the VAT id column and identifiers, a Czech legal person's CZ + IČO), else by name
and country through the resolver, never below `LINK_THRESHOLD`. One `Linker` per import run: a
beneficiary named in a thousand rows is resolved once."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from regintel.areas.search.identify import find_by_identifier
from regintel.areas.search.resolve import Evidence, candidates
from regintel.db.companies import ids_by_national_id
from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.sources.funds_records import Beneficiary
from regintel.search.base import SearchBackend

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
        self._ids: dict[tuple[str, str], Link | None] = {}

    def prefetch(self, beneficiaries: list[Beneficiary]) -> None:
        """Look up the register numbers of a batch at once (one query per 500) before `link` asks one by
        one."""
        wanted: dict[str, set[str]] = {}
        for who in beneficiaries:
            national_id = _national_id(who)
            if national_id and who.country and (who.country, national_id) not in self._ids:
                wanted.setdefault(who.country, set()).add(national_id)
        for country, values in wanted.items():
            ordered = sorted(values)
            for start in range(0, len(ordered), 500):
                chunk = ordered[start : start + 500]
                found = ids_by_national_id(self.conn, country, chunk)
                for value in chunk:
                    self._ids[(country, value)] = (
                        Link(int(found[value]), BY_ID, 1.0) if value in found else None
                    )

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

    def by_identifiers(self, who: Beneficiary) -> Link | None:
        """By register number, else VAT number; None when neither links."""
        return self._by_national_id(who) or self._by_vat(who)

    def _by_national_id(self, who: Beneficiary) -> Link | None:
        national_id = _national_id(who)
        if not national_id or not who.country:
            return None
        if (who.country, national_id) not in self._ids:
            self.prefetch([who])
        return self._ids[(who.country, national_id)]

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
        found = candidates(
            self.conn, self.backend, Evidence(name=who.name, country=who.country, location=who.city), limit=1
        )
        if found and found[0].row["country"] == who.country and found[0].score >= LINK_THRESHOLD:
            return Link(int(found[0].row["id"]), BY_NAME, round(found[0].score, 4))
        return None


def _national_id(who: Beneficiary) -> str | None:
    """The published id as the country's canonical register number, or None when it is not one."""
    if not who.country or not who.national_id:
        return None
    try:
        return parse_national_id(who.country, who.national_id)
    except InvalidIdentifier:
        return None
