"""Slovak court decisions (rozhodnutia súdov SR), the Ministry of Justice's open data behind
obcan.justice.sk (Infosud): one JSON object per published decision, as a JSON array, JSON lines or a
paged answer (`{"rozhodnutia": [...]}`).

A decision has its `guid` (stable, the detail page's key), the court (`sud`: `guid`, `nazov`), the judge
(`sudca.meno`), the file reference (`spisovaZnacka`), the file number (`identifikacneCislo`), the ECLI,
the date it was given (`datumVydania`), its form (`formaRozhodnutia`: rozsudok, uznesenie, …) and nature
(`povahaRozhodnutia`), the field of law (`oblast`, `podOblast`), the regulations it cites (`predpisy`),
the document (`dokument.url`) and the legal persons it names (`ucastnici`: `nazov`, `ico`, `typ`; natural
persons are anonymised by the publisher and carry no name, so they are left out). The fixture in
tests/fixtures/legal_records/sk_court_decisions was written from this description (see its README).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.areas.legal_records import parsing as p
from regintel.areas.legal_records.records import CourtDecision, Party, ecli_ok
from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="sk_court_decisions",
    name="Rozhodnutia súdov SR (Slovak court decisions)",
    publisher="Ministerstvo spravodlivosti Slovenskej republiky",
    country="SK",
    category="legal",
    formats="JSON (array, JSON lines or paged answer) of decision metadata",
    licence="Open data of the Ministry of Justice, free re-use with attribution (Act 211/2000 Coll.)",
    licence_url="https://obcan.justice.sk/opendata",
    attribution="Zdroj: Ministerstvo spravodlivosti SR, obcan.justice.sk",
    url="https://obcan.justice.sk/opendata",
    cadence="daily",
    snapshots=False,
)
LIST_PATHS = ("rozhodnutia.item", "rozhodnutieList.item")


class CourtDecisionsSource:
    info = INFO
    suffixes: tuple[str, ...] = (".json", ".jsonl", ".json.gz", ".jsonl.gz")

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CourtDecision | RecordError]:
        for item in p.records(stream, name, LIST_PATHS):
            yield item if isinstance(item, RecordError) else decision(item)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.legal_records.importing import run_legal_import

        return run_legal_import(engine, self, location, data_dir)


def decision(raw: dict[str, Any]) -> CourtDecision | RecordError:
    guid = raw.get("guid")
    if not isinstance(guid, str) or not guid.strip() or len(guid) > 64:
        return RecordError("decision without a guid", raw)
    try:
        court = p.obj(raw.get("sud"), "sud")
        court_name = p.text(court.get("nazov"), 200)
        if not court_name:
            return RecordError(f"decision {guid} without a court", raw)
        ecli = p.text(raw.get("ecli"), 80)
        if ecli is not None and not ecli_ok(ecli):
            raise ValueError(f"not an ECLI: {ecli!r}")
        parties = [p.party(x, "SK", role_key="typ") for x in p.items(raw.get("ucastnici"), "ucastnici")]
        regulations = [
            p.text(p.obj(x, "predpis").get("nazov") if isinstance(x, dict) else x, 300)
            for x in p.items(raw.get("predpisy"), "predpisy")
        ]
        return CourtDecision(
            guid=guid.strip(),
            court_id=p.text(court.get("guid"), 64),
            court_name=court_name,
            judge=p.text(p.obj(raw.get("sudca"), "sudca").get("meno"), 200),
            file_ref=p.text(raw.get("spisovaZnacka"), 64),
            identifier=p.text(raw.get("identifikacneCislo"), 32),
            ecli=ecli,
            decided_on=p.day(raw.get("datumVydania")),
            form=p.text(raw.get("formaRozhodnutia"), 64),
            nature=p.text(raw.get("povahaRozhodnutia"), 64),
            area=p.text(raw.get("oblast"), 128),
            subarea=p.text(raw.get("podOblast"), 128),
            regulations=tuple(r for r in regulations if r),
            document_url=p.text(p.obj(raw.get("dokument"), "dokument").get("url"), 1000),
            parties=tuple(x for x in parties if isinstance(x, Party)),
        )
    except ValueError as exc:
        return RecordError(f"unreadable decision {guid}: {exc}", raw)


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, CourtDecisionsSource()))
