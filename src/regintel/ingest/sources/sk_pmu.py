"""Decisions of the Antimonopoly Office of the Slovak Republic (Protimonopolný úrad SR, PMÚ), as its
decision register publishes them (antimon.gov.sk, "Rozhodnutia"): one JSON object per decision.

Fields: the decision number (`cisloRozhodnutia`, the key), the file reference (`spisovaZnacka`), the area
(`oblast`: kartel, koncentrácia, zneužívanie dominantného postavenia, štátna pomoc, …), the subject
(`nazov`), the date (`datumRozhodnutia`) and the date it became final (`datumPravoplatnosti`), the verdict
(`vyrok`), the fine (`pokuta`: `suma`, `mena`), the parties (`ucastnici`: `nazov`, `ico`, `adresa`,
`postavenie`), the later rulings on it (`konania`: `instancia` such as the Office's Council or a court,
`datum`, `vysledok`, `spisovaZnacka`) and the page (`url`). A party is linked by IČO, else by name and
address (docs/legal-records.md, "Linking"). The fixture was written from this description.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.areas.legal_records import parsing as p
from regintel.areas.legal_records.records import AntitrustCase, Party, Ruling
from regintel.domain.names import fold
from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="sk_pmu",
    name="Rozhodnutia Protimonopolného úradu SR (Slovak antitrust decisions)",
    publisher="Protimonopolný úrad Slovenskej republiky",
    country="SK",
    category="legal",
    formats="JSON (array or JSON lines) of decisions",
    licence="Official decisions, not subject to copyright (Act 185/2015 Coll. § 5); re-use with attribution",
    licence_url="https://www.antimon.gov.sk/",
    attribution="Zdroj: Protimonopolný úrad SR, antimon.gov.sk",
    url="https://www.antimon.gov.sk/",
    cadence="weekly",
    snapshots=False,
)
LIST_PATHS = ("rozhodnutia.item",)
# The register's areas, folded (no diacritics, lower case), to the spec's kinds.
KINDS = {
    "kartel": "cartel",
    "dohody obmedzujuce sutaz": "cartel",
    "koncentracia": "merger",
    "koncentracie": "merger",
    "zneuzivanie dominantneho postavenia": "abuse",
    "statna pomoc": "state_aid",
}


class PmuSource:
    info = INFO
    suffixes: tuple[str, ...] = (".json", ".jsonl", ".json.gz", ".jsonl.gz")

    def parse(self, stream: IO[bytes], name: str) -> Iterator[AntitrustCase | RecordError]:
        for item in p.records(stream, name, LIST_PATHS):
            yield item if isinstance(item, RecordError) else case(item)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.legal_records.importing import run_legal_import

        return run_legal_import(engine, self, location, data_dir)


def kind(area: str | None) -> str:
    return KINDS.get(fold(area or "").strip(), "other")


def case(raw: dict[str, Any]) -> AntitrustCase | RecordError:
    ref = p.text(raw.get("cisloRozhodnutia"), 64) if isinstance(raw.get("cisloRozhodnutia"), str) else None
    if not ref:
        return RecordError("decision without cisloRozhodnutia", raw)
    try:
        fine = p.obj(raw.get("pokuta"), "pokuta")
        value = p.amount(fine.get("suma"))
        currency = p.text(fine.get("mena"), 3)
        if value is not None and (not currency or not currency.isalpha()):
            raise ValueError("a fine without its currency")
        parties = [
            p.party(x, "SK", role_key="postavenie", address_key="adresa")
            for x in p.items(raw.get("ucastnici"), "ucastnici")
        ]
        rulings = tuple(_ruling(x) for x in p.items(raw.get("konania"), "konania"))
        return AntitrustCase(
            case_ref=ref,
            kind=kind(p.text(raw.get("oblast"))),
            title=p.text(raw.get("nazov")),
            decided_on=p.day(raw.get("datumRozhodnutia")),
            final_on=p.day(raw.get("datumPravoplatnosti")),
            verdict=p.text(raw.get("vyrok"), 20_000),
            fine=value,
            currency=currency.upper() if value is not None and currency else None,
            link=p.text(raw.get("url"), 1000),
            parties=tuple(x for x in parties if isinstance(x, Party)),
            rulings=rulings,
        )
    except ValueError as exc:
        return RecordError(f"unreadable decision {ref}: {exc}", raw)


def _ruling(value: Any) -> Ruling:
    node = p.obj(value, "konanie")
    instance, outcome = p.text(node.get("instancia"), 200), p.text(node.get("vysledok"), 2000)
    if not instance or not outcome:
        raise ValueError("a ruling without instancia or vysledok")
    return Ruling(
        instance=instance,
        decided_on=p.day(node.get("datum")),
        outcome=outcome,
        reference=p.text(node.get("spisovaZnacka"), 64),
    )


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, PmuSource()))
