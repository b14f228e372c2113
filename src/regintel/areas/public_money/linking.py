"""Linking a published party (a tender winner, a contract party, a VAT payer) to a company: by national
identifier first, else by name and country through the resolver, never below `LINK_THRESHOLD`
(domain.public_money). One `Linker` per import run: it remembers its answers, so a supplier named in a
thousand records is resolved once."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.search.resolve import Evidence, candidates
from regintel.db.companies import ids_by_national_id
from regintel.domain.identifiers import parse_national_id
from regintel.domain.public_money import LINK_BY_ID, LINK_BY_NAME, LinkDecision, Org, accept_name_match
from regintel.errors import InvalidIdentifier
from regintel.search.base import SearchBackend

from .queries import payers as queries

NO_LINK = LinkDecision(None, None, None)


class Linker:
    def __init__(self, conn: Connection, backend: SearchBackend | None):
        self.conn = conn
        self.backend = backend
        self._ready = False
        self._seen: dict[tuple[Any, ...], LinkDecision] = {}
        self._ids: dict[tuple[str, str], LinkDecision | None] = {}

    def prefetch(self, country: str, values: list[str]) -> None:
        """Look up many national ids at once (one query per 500) before `link` asks for them one by one."""
        wanted = sorted({v for v in values if (country, v) not in self._ids})
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            found = ids_by_national_id(self.conn, country, chunk)
            for value in chunk:
                self._ids[(country, value)] = (
                    LinkDecision(int(found[value]), LINK_BY_ID, 1.0) if value in found else None
                )

    def link(self, org: Org, *, id_is_authoritative: bool = False) -> LinkDecision:
        """`id_is_authoritative`: the publisher's id is the national register number by definition (the
        Czech register's IČO), so a party whose id no company holds is left unlinked rather than matched
        by name to someone else. TED's CompanyID is free text of any scheme: its name is tried next."""
        key = (org.country, org.national_id, org.name, org.city, id_is_authoritative)
        if key not in self._seen:
            found = self.by_national_id(org.country, org.national_id)
            if found is None and not (id_is_authoritative and org.national_id):
                found = self._by_name(org)
            self._seen[key] = found or NO_LINK
        return self._seen[key]

    def by_national_id(self, country: str | None, value: str | None) -> LinkDecision | None:
        if not country or not value:
            return None
        try:
            national_id = parse_national_id(country, value)
        except InvalidIdentifier:
            return None
        if (country, national_id) not in self._ids:
            self.prefetch(country, [national_id])
        return self._ids[(country, national_id)]

    def by_vat_id(self, country: str | None, vat_id: str | None) -> LinkDecision | None:
        """A Slovak payer through the company's stored IČ DPH, else its DIČ (the IČ DPH's ten digits):
        the Slovak list names payers by IČ DPH alone. A number two companies hold links neither."""
        if country != "SK" or not vat_id:
            return None
        key = ("vat", vat_id)
        if key not in self._ids:
            found = None
            for kind, value in (("ic_dph", vat_id), ("dic", vat_id.removeprefix("SK"))):
                holders = queries.sk_identifier_holders(self.conn, kind, value)
                if holders:
                    found = LinkDecision(int(holders[0]), LINK_BY_ID, 1.0) if len(holders) == 1 else None
                    break
            self._ids[key] = found
        return self._ids[key]

    def _by_name(self, org: Org) -> LinkDecision:
        if self.backend is None or not org.country or not org.name.strip():
            return NO_LINK
        if not self._ready:  # the index must know the companies imported so far
            self.backend.ensure_current(self.conn)
            self._ready = True
        found = candidates(
            self.conn, self.backend, Evidence(name=org.name, country=org.country, location=org.city), limit=1
        )
        if found and accept_name_match(found[0].score, found[0].row["country"] == org.country):
            return LinkDecision(int(found[0].row["id"]), LINK_BY_NAME, round(found[0].score, 4))
        return NO_LINK
