"""Slovak integrated pollution prevention and control (IPKZ) register: installations holding an
integrated permit under Act 39/2013 Coll., as the Ministry of Environment's register on enviroportal.sk
publishes them: one JSON object per installation.

Fields: the installation id (`idPrevadzky`, the key) and name (`nazovPrevadzky`), its operator
(`prevadzkovatel`: `nazov`, `ico`, `adresa`), its address and municipality (`adresaPrevadzky`, `obec`),
the category of activity of annex 1 (`kategoriaCinnosti`: `kod`, `nazov`), coordinates in WGS 84
(`gps`: `lat`, `lon`; only when the register gives them: nothing is geocoded), the Slovak Environmental
Inspectorate's controls (`kontroly`: `pocet`, `sNedostatkami`, `poslednaKontrola`), the permits and their
changes (`povolenia`: `cislo`, `druh`, `datumVydania`, `datumPravoplatnosti`, `url`) and the register
page (`url`). The fixture was written from this description.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.areas.legal_records import parsing as p
from regintel.areas.legal_records.records import IpkzInstallation, Permit
from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="sk_ipkz",
    name="Register IPKZ (Slovak integrated environmental permits)",
    publisher="Ministerstvo životného prostredia SR / Slovenská agentúra životného prostredia",
    country="SK",
    category="legal",
    formats="JSON (array or JSON lines) of installations",
    licence="Public register under Act 39/2013 Coll. (IPKZ); open data, re-use with attribution",
    licence_url="https://www.enviroportal.sk/",
    attribution="Zdroj: Register IPKZ, MŽP SR / SAŽP, enviroportal.sk",
    url="https://www.enviroportal.sk/",
    cadence="monthly",
    snapshots=False,
)
LIST_PATHS = ("prevadzky.item",)


class IpkzSource:
    info = INFO
    suffixes: tuple[str, ...] = (".json", ".jsonl", ".json.gz", ".jsonl.gz")

    def parse(self, stream: IO[bytes], name: str) -> Iterator[IpkzInstallation | RecordError]:
        for item in p.records(stream, name, LIST_PATHS):
            yield item if isinstance(item, RecordError) else installation(item)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.legal_records.importing import run_legal_import

        return run_legal_import(engine, self, location, data_dir)


def coordinates(value: Any) -> tuple[float | None, float | None]:
    node = p.obj(value, "gps")
    raw: list[Any] = [node.get("lat"), node.get("lon")]
    if raw == [None, None]:
        return None, None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw):
        raise ValueError("gps needs both lat and lon as numbers")
    lat, lon = float(raw[0]), float(raw[1])
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError(f"gps out of range: {lat}, {lon}")
    return lat, lon


def installation(raw: dict[str, Any]) -> IpkzInstallation | RecordError:
    key = raw.get("idPrevadzky")
    if not isinstance(key, str) or not key.strip() or len(key) > 64:
        return RecordError("installation without idPrevadzky", raw)
    try:
        operator = p.party(raw.get("prevadzkovatel"), "SK", address_key="adresa")
        name = p.text(raw.get("nazovPrevadzky"), 500)
        if operator is None or not name:
            return RecordError(f"installation {key} without a name or an operator", raw)
        activity = p.obj(raw.get("kategoriaCinnosti"), "kategoriaCinnosti")
        controls = p.obj(raw.get("kontroly"), "kontroly")
        lat, lon = coordinates(raw.get("gps"))
        inspections, findings = p.count(controls.get("pocet")), p.count(controls.get("sNedostatkami"))
        if findings > inspections:
            raise ValueError("more controls with findings than controls")
        permits = tuple(
            Permit(
                number=_required(x, "cislo"),
                kind=p.text(x.get("druh"), 200),
                issued_on=p.day(x.get("datumVydania")),
                final_on=p.day(x.get("datumPravoplatnosti")),
                link=p.text(x.get("url"), 1000),
            )
            for x in (p.obj(v, "povolenie") for v in p.items(raw.get("povolenia"), "povolenia"))
        )
        return IpkzInstallation(
            installation_id=key.strip(),
            name=name,
            operator=operator,
            address=p.text(raw.get("adresaPrevadzky"), 500),
            municipality=p.text(raw.get("obec"), 200),
            activity_code=p.text(activity.get("kod"), 32),
            activity=p.text(activity.get("nazov"), 500),
            latitude=lat,
            longitude=lon,
            inspections=inspections,
            inspections_with_findings=findings,
            last_inspection_on=p.day(controls.get("poslednaKontrola")),
            link=p.text(raw.get("url"), 1000),
            permits=permits,
        )
    except ValueError as exc:
        return RecordError(f"unreadable installation {key}: {exc}", raw)


def _required(node: dict[str, Any], key: str) -> str:
    value = p.text(node.get(key), 64)
    if not value:
        raise ValueError(f"a permit without {key}")
    return value


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, IpkzSource()))
