"""INSEE Sirene: the monthly stock files StockUniteLegale (legal units) and StockEtablissement
(establishments), told apart by their header, and the INSEE API Sirene v3 JSON (`uniteLegale` with
`periodesUniteLegale`, `etablissement` with `adresseEtablissement`; one object, a list, or a response
wrapping either).

Establishments only give the company its head-office address (`etablissementSiege` = true); the other
establishments are skipped and counted. Import StockUniteLegale first: an establishment of a unit not
in the database has no name and is rejected as unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import IO, Any

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.fr_sirene_map import (
    Row,
    head_office_address,
    is_head_office,
    siren_of,
    unit_record,
    value,
)
from regintel.ingest.streams import peek

INFO = SourceInfo(
    id="fr_sirene",
    name="Sirene – base des entreprises et de leurs établissements",
    publisher="INSEE",
    country="FR",
    category="register",
    formats="StockUniteLegale and StockEtablissement CSV (plain, .gz or .zip); INSEE API Sirene v3 JSON",
    licence="Licence Ouverte / Open Licence 2.0 (Etalab)",
    licence_url="https://www.etalab.gouv.fr/licence-ouverte-open-licence/",
    attribution=(
        "Source : INSEE, base Sirene des entreprises et de leurs établissements (Licence Ouverte 2.0)"
    ),
    url="https://www.data.gouv.fr/fr/datasets/base-sirene-des-entreprises-et-de-leurs-etablissements-siren-siret/",
    cadence="monthly",
)
UNIT_COLUMNS = ("siren", "categorieJuridiqueUniteLegale", "etatAdministratifUniteLegale")
ESTABLISHMENT_COLUMNS = ("siren", "siret", "etablissementSiege")
NOT_HEAD_OFFICE = "establishment that is not the head office"
Item = CompanyRecord | RecordError | Skipped


class SireneSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Item]:
        head, stream = peek(stream)
        if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
            yield from _json(stream)
        else:
            yield from _csv(stream)


def _csv(stream: IO[bytes]) -> Iterator[Item]:
    csv_file = open_csv(stream)
    header = set(csv_file.header)
    convert: Callable[[Row], Iterator[Item]]
    if set(UNIT_COLUMNS) <= header:
        columns, convert = csv_file.index(UNIT_COLUMNS, "StockUniteLegale"), _unit
    elif set(ESTABLISHMENT_COLUMNS) <= header:
        columns, convert = csv_file.index(ESTABLISHMENT_COLUMNS, "StockEtablissement"), _establishment
    else:
        raise SourceAbort(
            "not a Sirene stock file: the header has neither the StockUniteLegale columns "
            f"({', '.join(UNIT_COLUMNS)}) nor the StockEtablissement ones"
        )
    for item in csv_file.rows:
        if isinstance(item, RecordError):
            yield item
            continue
        yield from _guarded(convert, {n: item[1][i] for n, i in columns.items()})


def _guarded(convert: Callable[[Row], Iterator[Item]], row: Row) -> Iterator[Item]:
    try:
        yield from list(convert(row))
    except RecordError as exc:
        exc.raw = dict(row)
        yield exc


def _unit(row: Row) -> Iterator[Item]:
    yield unit_record(row)


def _establishment(row: Row) -> Iterator[Item]:
    if not is_head_office(row):
        yield Skipped(NOT_HEAD_OFFICE)
        return
    if (value(row, "statutDiffusionEtablissement") or "O") != "O":
        yield Skipped("head-office address not diffusible")
        return
    siren = siren_of(row)
    yield CompanyRecord(country="FR", national_id=siren, source_record_id=siren, **head_office_address(row))


def _json(stream: IO[bytes]) -> Iterator[Item]:
    first = True
    for obj in json_objects(stream, ("unitesLegales.item", "etablissements.item")):
        if isinstance(obj, RecordError):
            yield obj
            continue
        obj = _unwrapped(obj)
        if first:
            if not isinstance(obj, dict) or "siren" not in obj:
                raise SourceAbort("not an INSEE API Sirene JSON file (no siren in the first object)")
            first = False
        if not isinstance(obj, dict):
            yield RecordError("a Sirene JSON item is not an object", obj)
            continue
        yield from _guarded(_api_establishment if "siret" in obj else _api_unit, obj)


def _unwrapped(obj: Any) -> Any:
    """A single-object response (`{"header": …, "uniteLegale": {…}}`) gives its object."""
    if isinstance(obj, dict) and "siren" not in obj:
        return obj.get("uniteLegale") or obj.get("etablissement") or obj
    return obj


def _api_unit(obj: Row) -> Iterator[Item]:
    periods = obj.get("periodesUniteLegale") or [{}]
    if not isinstance(periods, list) or not all(isinstance(p, dict) for p in periods):
        raise RecordError("periodesUniteLegale is not a list of periods")
    current = next((p for p in periods if p.get("dateFin") is None), periods[0])
    yield unit_record({**obj, **current})


def _api_establishment(obj: Row) -> Iterator[Item]:
    """The head office gives its unit (embedded `uniteLegale`) and address; the other establishments
    are skipped, as several records of one unit in a batch would overwrite each other."""
    if not is_head_office(obj):
        yield Skipped(NOT_HEAD_OFFICE)
        return
    siren = siren_of(obj)
    unit = obj.get("uniteLegale")
    record = (
        unit_record({"siren": siren, **unit})
        if isinstance(unit, dict)
        else CompanyRecord(country="FR", national_id=siren, source_record_id=siren)
    )
    address = obj.get("adresseEtablissement")
    if isinstance(address, dict) and (value(obj, "statutDiffusionEtablissement") or "O") == "O":
        # The unit and its head office's address are two parts of one object: the address completes
        # the unit's record.
        record = replace(record, **head_office_address(address))
    yield record


SOURCE = register(SireneSource())
