"""Czech collection of laws (Sbírka zákonů, e-Sbírka): the acts of the open data of the e-Legislation
system (opendata.eselpoint.cz), one JSON object per act version, with its text fragments.

Fields: the act's ELI IRI (`iri`, the key), its number and year (`cislo`, `rok`), type (`typ`: zákon,
nařízení vlády, vyhláška, sdělení, …), title (`nazev`), promulgation and effect dates (`datumVyhlaseni`,
`datumUcinnosti`) and its text as fragments (`fragmenty`: `text`). Acts that name companies (government
decrees naming a critical-infrastructure operator, acts granting a concession, …) name them with their
identification number: every "<name>, IČO <8 digits>" or "<name>, IČ: <8 digits>" in a fragment is a
mention, kept when the number passes its check digit; it is linked by that number only
(docs/legal-records.md).
The fixture was written from this description.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.areas.legal_records import parsing as p
from regintel.areas.legal_records.records import Party, SbirkaAct
from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="cz_esbirka",
    name="e-Sbírka (Czech collection of laws)",
    publisher="Ministerstvo vnitra České republiky",
    country="CZ",
    category="legal",
    formats="JSON (array or JSON lines) of act versions with text fragments",
    licence="Legal texts are not protected by copyright (Act 121/2000 Coll. § 3); open data, free re-use",
    licence_url="https://opendata.eselpoint.cz/",
    attribution="Zdroj: e-Sbírka, Ministerstvo vnitra ČR",
    url="https://opendata.eselpoint.cz/",
    cadence="daily",
    snapshots=False,
)
LIST_PATHS = ("akty.item",)
ESBIRKA_URL = "https://www.e-sbirka.cz/sb/{year}/{number}"
# A mention: a name of capitalised words with its legal form, an optional seat clause, then the
# identification number ("ČEPS, a.s., se sídlem Elektrárenská 774/2, Praha 10, IČO: 25702556").
_UPPER = "A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ0-9"
_WORD = rf"[{_UPPER}][\w.&+'-]*"
_FORM = (
    r"(?:a\.\s?s\.|s\.\s?r\.\s?o\.|spol\.\s?s\s?r\.\s?o\.|s\.\s?p\.|státní podnik|z\.\s?s\.|"
    r"v\.\s?o\.\s?s\.|k\.\s?s\.|SE)"
)
MENTION = re.compile(
    rf"(?P<name>(?:{_WORD}\s+){{0,8}}{_WORD}(?:,?\s*{_FORM})?)\s*,\s*"
    r"(?:se sídlem [^;()]{1,200}?,\s*)?IČO?\s*:?\s*(?P<ico>\d{8})\b"
)


class EsbirkaSource:
    info = INFO
    suffixes: tuple[str, ...] = (".json", ".jsonl", ".json.gz", ".jsonl.gz")

    def parse(self, stream: IO[bytes], name: str) -> Iterator[SbirkaAct | RecordError]:
        for item in p.records(stream, name, LIST_PATHS):
            yield item if isinstance(item, RecordError) else act(item)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.legal_records.importing import run_legal_import

        return run_legal_import(engine, self, location, data_dir)


def mentions(fragments: list[str]) -> tuple[tuple[Party, ...], tuple[str, ...]]:
    """The companies a text names with a valid IČO (the first naming of each number), and the excerpt."""
    found: dict[str, tuple[Party, str]] = {}
    for fragment in fragments:
        for m in MENTION.finditer(fragment):
            ico = p.national_id("CZ", m.group("ico"))
            name = m.group("name").strip()
            if ico is None or not name or ico in found:
                continue
            found[ico] = (
                Party(name=name, national_id=ico, country="CZ"),
                _excerpt(fragment, m.start(), m.end()),
            )
    return tuple(v[0] for v in found.values()), tuple(v[1] for v in found.values())


def _excerpt(fragment: str, start: int, end: int, margin: int = 80) -> str:
    """The mention with up to `margin` characters either side, cut at word boundaries."""
    lo, hi = max(0, start - margin), min(len(fragment), end + margin)
    out = fragment[lo:hi]
    if lo > 0:
        out = "… " + out.split(" ", 1)[-1]
    if hi < len(fragment):
        out = out.rsplit(" ", 1)[0] + " …"
    return out.strip()


def act(raw: dict[str, Any]) -> SbirkaAct | RecordError:
    iri = raw.get("iri")
    if not isinstance(iri, str) or not iri.startswith("http") or len(iri) > 255:
        return RecordError("act without an iri", raw)
    try:
        number, year, title = raw.get("cislo"), raw.get("rok"), p.text(raw.get("nazev"), 2_000)
        if not isinstance(number, int) or not isinstance(year, int) or not 1918 <= year <= 2100 or number < 1:
            raise ValueError("cislo and rok must be a positive number and a year")
        if not title:
            raise ValueError("an act without nazev")
        fragments = [
            p.text(p.obj(x, "fragment").get("text"), 100_000) or ""
            for x in p.items(raw.get("fragmenty"), "fragmenty")
        ]
        parties, excerpts = mentions(fragments)
        return SbirkaAct(
            iri=iri,
            number=number,
            year=year,
            act_type=p.text(raw.get("typ"), 64),
            title=title,
            promulgated_on=p.day(raw.get("datumVyhlaseni")),
            effective_on=p.day(raw.get("datumUcinnosti")),
            link=ESBIRKA_URL.format(year=year, number=number),
            mentions=parties,
            excerpts=excerpts,
        )
    except ValueError as exc:
        return RecordError(f"unreadable act {iri}: {exc}", raw)


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, EsbirkaSource()))
