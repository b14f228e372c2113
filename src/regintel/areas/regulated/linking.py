"""Linking a register row to a company: by the IČO the publisher gives, else by name and town through the
resolver (`areas.search.resolve.candidates`), accepted only at or above `NAME_THRESHOLD` and in the register's
own country. The score is stored beside the link.

- The registers' IČO is the national register number by definition: a row whose IČO no company holds is
  left unlinked, never matched by name to someone else.
- A professional is linked through the firm they practise through (its IČO, else its name); a person's
  own name is never matched to a company (a namesake would put a lawyer on a stranger's company).
- A trust service provider of a trusted list gives a registration identifier (`VATSK-...`, `LEIXG-...`):
  a VAT number or LEI is looked up among the companies' VAT numbers and LEIs; as the registers we hold do
  not publish every VAT number, one found on no company falls back to the name. (An `NTR` identifier is
  the register number: it arrives as `national_id` and does not fall back.)
One `Linker` per import: it remembers its answers."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Connection

from regintel.areas.search.resolve import Evidence, candidates
from regintel.search.base import SearchBackend

from . import queries

NAME_THRESHOLD = 0.9  # above the resolver's own 0.8: a licence shown on the wrong company is worse than none
BY_ID, BY_NAME = "identifier", "name"


@dataclass(frozen=True)
class Link:
    company_id: int | None
    method: str | None
    score: float | None

    def columns(self) -> dict[str, object]:
        return {"company_id": self.company_id, "match_method": self.method, "match_score": self.score}


NO_LINK = Link(None, None, None)


class Linker:
    def __init__(self, conn: Connection, backend: SearchBackend | None):
        self.conn = conn
        self.backend = backend
        self._indexed = False
        self._seen: dict[tuple[str, str | None, str | None, str | None, str | None], Link] = {}

    def link(
        self,
        country: str,
        national_id: str | None,
        name: str | None,
        city: str | None,
        registration: str | None = None,
    ) -> Link:
        """`registration`: a trusted list's `VAT..-`/`LEI..-` identifier of the provider, if any."""
        key = (country, national_id, name, city, registration)
        if key not in self._seen:
            if national_id:
                self._seen[key] = self._by_id(country, national_id)
            else:
                found = self._by_registration(registration) if registration else NO_LINK
                if found is NO_LINK and name:
                    found = self._by_name(country, name, city)
                self._seen[key] = found
        return self._seen[key]

    def _by_registration(self, registration: str) -> Link:
        scheme, _, value = registration.partition("-")
        kind, country = scheme[:3], scheme[3:]
        if kind == "VAT":
            ids = queries.vat_holders(self.conn, country, [f"{country}{value}", value])
        elif kind == "LEI":
            ids = queries.lei_holders(self.conn, value)
        else:
            return NO_LINK
        return Link(ids[0], BY_ID, 1.0) if len(ids) == 1 else NO_LINK  # two holders: not one company

    def _by_id(self, country: str, national_id: str) -> Link:
        found = queries.company_by_national_id(self.conn, country, national_id)
        return Link(found, BY_ID, 1.0) if found is not None else NO_LINK

    def _by_name(self, country: str, name: str, city: str | None) -> Link:
        if self.backend is None:
            return NO_LINK
        if not self._indexed:  # the index must know the companies imported so far
            self.backend.ensure_current(self.conn)
            self._indexed = True
        found = candidates(
            self.conn, self.backend, Evidence(name=name, country=country, location=city), limit=1
        )
        if found and found[0].row["country"] == country and found[0].score >= NAME_THRESHOLD:
            return Link(int(found[0].row["id"]), BY_NAME, round(found[0].score, 4))
        return NO_LINK
