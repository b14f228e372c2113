"""Linking a party a legal record names to a company (docs/legal-records.md, "Linking").

By national identifier first: an IČO well-formed for the party's country that a company holds links
with score 1.0 (`identifier`). Otherwise by name, with the address's municipality as location evidence,
through the resolver (`areas.search.resolve.candidates`), and only when its best candidate scores at least
`NAME_THRESHOLD` in the party's own country (`name`, the score kept). The threshold is above the
resolver's own: an antitrust fine shown on the wrong company is worse than one left unlinked.
A source whose number is authoritative (e-Sbírka names companies by IČO) links by number only.
One `Linker` per import run remembers its answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.search.resolve import Evidence, candidates
from regintel.search.base import SearchBackend

from . import queries
from .records import Party

NAME_THRESHOLD = 0.9


def _place(address: str | None) -> str | None:
    """The postcode and municipality of a Slovak or Czech address, its last comma-separated part
    ("Vlčie hrdlo 1, 824 12 Bratislava" -> "824 12 Bratislava"): the resolver compares a location with
    the company's city, and the street and building parts before it only dilute that comparison."""
    if not address:
        return None
    return address.rsplit(",", 1)[-1].strip() or None


BY_ID, BY_NAME = "identifier", "name"


@dataclass(frozen=True)
class Link:
    company_id: int | None
    method: str | None
    score: float | None

    def columns(self) -> dict[str, Any]:
        return {"company_id": self.company_id, "match_method": self.method, "match_score": self.score}


NO_LINK = Link(None, None, None)


class Linker:
    def __init__(self, conn: Connection, backend: SearchBackend | None):
        self.conn = conn
        self.backend = backend
        self._ready = False
        self._seen: dict[tuple[Any, ...], Link] = {}

    def link(self, party: Party, *, by_name: bool = True) -> Link:
        key = (party.country, party.national_id, party.name, party.address, by_name)
        if key not in self._seen:
            found = self._by_id(party)
            if found is None and by_name:
                found = self._by_name(party)
            self._seen[key] = found or NO_LINK
        return self._seen[key]

    def _by_id(self, party: Party) -> Link | None:
        if not party.country or not party.national_id:
            return None
        found = queries.company_id(self.conn, party.country, party.national_id)
        return Link(found, BY_ID, 1.0) if found is not None else None

    def _by_name(self, party: Party) -> Link | None:
        if self.backend is None or not party.country or not party.name.strip():
            return None
        if not self._ready:  # the index must know the companies imported so far
            self.backend.ensure_current(self.conn)
            self._ready = True
        found = candidates(
            self.conn,
            self.backend,
            Evidence(name=party.name, country=party.country, location=_place(party.address)),
            limit=1,
        )
        if found and found[0].row["country"] == party.country and found[0].score >= NAME_THRESHOLD:
            return Link(int(found[0].row["id"]), BY_NAME, round(found[0].score, 4))
        return None
