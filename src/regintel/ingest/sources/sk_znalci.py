"""Ministerstvo spravodlivosti SR: the list of experts, interpreters and translators (Zoznam znalcov,
tlmočníkov a prekladateľov, Act 382/2004 Coll.), https://www.justice.gov.sk/ (Registre): one row per entry,
a natural person or an expert / translation organisation, with field or language and contact.

Read as the list's table (columns `Evidenčné číslo`, `Druh`, `Titul`, `Meno a priezvisko / Názov`, `IČO`,
`Odbor / Jazyk`, `Adresa`, `Telefón`, `E-mail`, `Dátum zápisu`, `Stav`), `;`-separated UTF-8. `Druh` is
`znalec`, `tlmočník`, `prekladateľ` or an organisation of one of them (`znalecká organizácia`, ...): an
organisation's own IČO is its firm; a person with an IČO practises under it."""

from __future__ import annotations

from dataclasses import replace

from regintel.areas.regulated.records import Professional
from regintel.domain.names import fold
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.sources.regulated_common import (
    CONTACT,
    RegulatedCsvSource,
    need,
    professional,
    register_section,
)

INFO = SourceInfo(
    id="sk_znalci",
    name="Ministry of Justice: list of experts, interpreters and translators",
    publisher="Ministerstvo spravodlivosti Slovenskej republiky",
    country="SK",
    category="professionals",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 382/2004 Coll. on experts, interpreters and translators); no licence "
    "text found",
    licence_url="https://www.justice.gov.sk/",
    attribution="Zdroj: Ministerstvo spravodlivosti SR",
    url="https://www.justice.gov.sk/sluzby/znalci/",
    cadence="monthly",
    snapshots=False,
)
ROLES = (("znal", "expert"), ("tlmoc", "interpreter"), ("preklad", "translator"))
NAME = "Meno a priezvisko / Názov"


class ZnalciSource(RegulatedCsvSource):
    info = INFO
    required = ("Evidenčné číslo", "Druh", NAME)
    optional = (*CONTACT, "IČO", "Odbor / Jazyk", "Dátum zápisu")

    def convert(self, row: dict[str, str]) -> Professional:
        kind = fold(need(row, "Druh"))
        role = next((r for stem, r in ROLES if stem in kind), None)
        if role is None:
            raise RecordError(f"Druh {row['Druh']!r} is none of znalec, tlmočník, prekladateľ")
        out = professional(
            INFO,
            row,
            role=role,
            key="Evidenčné číslo",
            name=need(row, NAME),
            firm_id="IČO",
            specialisation="Odbor / Jazyk",
            since="Dátum zápisu",
        )
        return replace(out, firm_name=out.name) if "organizac" in kind else out


SOURCE = register_section(ZnalciSource())
