"""OpenSanctions FollowTheMoney entities (JSON lines), full exports and delta files.

A line is an entity (`{"id", "schema", "properties": {prop: [values]}, ...}`) or, in a delta file, an
operation (`{"op": "ADD" | "MOD" | "DEL", "entity": {...}}`). Person, Organization, Company, LegalEntity,
PublicBody, Vessel and Airplane entities are imported; addresses, sanctions and relations are skipped.
`name` values are names, `alias`/`previousName` aliases, `weakAlias` weak aliases; `topics` say whether the
entity is sanctioned (`sanction`) or debarred (`debarment`).

Licence: OpenSanctions data is CC BY-NC 4.0 (commercial use needs their data licence): regintel imports
it on the operator's own terms and never ships it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from regintel.ingest.base import SourceAbort, SourceInfo
from regintel.ingest.sources.sanctions_common import (
    ListedEntry,
    ListedIdentifier,
    ListedName,
    SanctionSource,
    country_code,
    register_list,
)

INFO = SourceInfo(
    id="opensanctions_ftm",
    name="OpenSanctions (FollowTheMoney entities)",
    publisher="OpenSanctions Datenbanken GmbH",
    country=None,
    category="sanctions",
    formats="FollowTheMoney JSON lines (entities, deltas)",
    licence="CC BY-NC 4.0 (non-commercial; commercial use needs an OpenSanctions data licence)",
    attribution="Data from OpenSanctions (opensanctions.org), CC BY-NC 4.0",
    url="https://www.opensanctions.org/datasets/",
    cadence="daily",
    licence_url="https://creativecommons.org/licenses/by-nc/4.0/",
)
_SCHEMAS = {
    "Person": "person",
    "Organization": "organization",
    "Company": "organization",
    "LegalEntity": "organization",
    "PublicBody": "organization",
    "Vessel": "vessel",
    "Airplane": "aircraft",
}
_IDS = (
    "registrationNumber",
    "taxNumber",
    "idNumber",
    "passportNumber",
    "imoNumber",
    "innCode",
    "ogrnCode",
    "leiCode",
    "swiftBic",
    "vatCode",
    "okpoCode",
    "icijId",
    "wikidataId",
)
_COUNTRIES = ("country", "nationality", "citizenship", "jurisdiction", "birthCountry")
_DEBARMENT = {"debarment", "crime.fin", "reg.action"}


def _entry(entity: dict[str, Any]) -> ListedEntry | None:
    schema = _SCHEMAS.get(str(entity.get("schema")))
    props = entity.get("properties") or {}
    if schema is None or not isinstance(props, dict):
        return None
    names = [
        ListedName(v, "primary" if v == entity.get("caption") else "alias") for v in props.get("name", [])
    ]
    if names and not any(n.kind == "primary" for n in names):
        names[0] = ListedName(names[0].name, "primary")
    names += [ListedName(v, "alias") for p in ("alias", "previousName") for v in props.get(p, [])]
    names += [ListedName(v, "weak") for v in props.get("weakAlias", [])]
    topics = props.get("topics") or []
    sanctioned = "sanction" in topics or "sanction.linked" in topics
    kinds = tuple(
        t for t, on in (("sanction", sanctioned), ("debarment", bool(_DEBARMENT & set(topics)))) if on
    )
    return ListedEntry(
        key=str(entity["id"]),
        schema=schema,
        names=names,
        topics=kinds or ("other",),
        programmes=list(props.get("programId", [])) + list(entity.get("datasets") or []),
        birth_dates=[d[:10] for d in props.get("birthDate", [])],
        countries=[(c, p) for p in _COUNTRIES for v in props.get(p, []) if (c := country_code(v.upper()))],
        identifiers=[ListedIdentifier(p, v) for p in _IDS for v in props.get(p, [])],
        listed_on=(props.get("createdAt") or [None])[0],
        remarks="; ".join(props.get("notes", [])) or None,
    )


def parse(path: Path) -> Iterator[ListedEntry]:
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                entity = obj["entity"] if "op" in obj else obj
                key = entity["id"]
            except (ValueError, KeyError, TypeError) as exc:
                raise SourceAbort(f"{path.name} line {n}: not a FollowTheMoney entity ({exc})") from exc
            if obj.get("op") == "DEL":
                yield ListedEntry(key=str(key), schema="", names=[], op="delete")
                continue
            entry = _entry(entity)
            if entry is not None and entry.names:
                entry.op = "upsert" if "op" in obj else None
                yield entry


SOURCE = register_list(SanctionSource(INFO, parse))
