"""What the sanctions-list parsers produce: one `ListedEntry` per designation, whatever the publisher's
format. Written by `regintel.areas.screening.importer` into the screening tables (not through the
company loader: a listed person is not a company record).

The parsers do not join `ingest.sources.SOURCES` (whose `regintel import` feeds the company loader);
they are listed in `SANCTION_SOURCES` and run by `python -m regintel.areas.screening import`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

import pycountry

from regintel.ingest.base import SourceAbort, SourceInfo


@dataclass(frozen=True)
class ListedName:
    name: str
    kind: str  # primary | alias | weak
    lang: str | None = None


@dataclass(frozen=True)
class ListedIdentifier:
    type: str
    value: str
    country: str | None = None


@dataclass
class ListedEntry:
    key: str  # the publisher's id of the designation
    schema: str  # person | organization | vessel | aircraft
    names: list[ListedName]
    topics: tuple[str, ...] = ("sanction",)
    programmes: list[str] = field(default_factory=list)
    birth_dates: list[str] = field(default_factory=list)  # YYYY, YYYY-MM or YYYY-MM-DD
    countries: list[tuple[str, str]] = field(default_factory=list)  # (ISO alpha-2, role)
    identifiers: list[ListedIdentifier] = field(default_factory=list)
    listed_on: str | None = None
    remarks: str | None = None
    # None in a full list; in a delta file, `upsert` or `delete` (absent entries are then kept)
    op: str | None = None

    @property
    def caption(self) -> str:
        primary = [n.name for n in self.names if n.kind == "primary"]
        return (primary or [n.name for n in self.names] or [self.key])[0]

    def content_hash(self) -> str:
        """A digest of everything stored for the entry: equal digests mean nothing to write."""
        body = asdict(self)
        for key in ("programmes", "birth_dates"):
            body[key] = sorted(set(body[key]))
        body["countries"] = sorted({tuple(c) for c in body["countries"]})
        body["identifiers"] = sorted({tuple(i.values()) for i in body["identifiers"]}, key=str)
        body["names"] = sorted({tuple(n.values()) for n in body["names"]}, key=str)
        return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


@dataclass(frozen=True)
class SanctionSource:
    info: SourceInfo
    parse: Callable[[Path], Iterator[ListedEntry]]
    mode: str = "sanctioned"  # sanctioned | debarred (what `stats/sanctions?mode=` counts it as)


SANCTION_SOURCES: dict[str, SanctionSource] = {}


def register_list(source: SanctionSource) -> SanctionSource:
    SANCTION_SOURCES[source.info.id] = source
    return source


def sanction_sources() -> dict[str, SanctionSource]:
    """Every sanctions-list parser, by source id."""
    from regintel.ingest.sources import (  # noqa: F401 - each registers itself
        opensanctions_ftm,
        sanctions_eu_fsf,
        sanctions_ofac,
        sanctions_uk,
        sanctions_un,
    )

    return SANCTION_SOURCES


_COUNTRY_ALIASES = {
    "russia": "RU",
    "iran": "IR",
    "syria": "SY",
    "north korea": "KP",
    "south korea": "KR",
    "korea, north": "KP",
    "korea, south": "KR",
    "venezuela": "VE",
    "bolivia": "BO",
    "tanzania": "TZ",
    "moldova": "MD",
    "laos": "LA",
    "vietnam": "VN",
    "burma": "MM",
    "democratic republic of the congo": "CD",
    "congo, democratic republic of the": "CD",
    "republic of the congo": "CG",
    "palestinian": "PS",
    "west bank": "PS",
    "gaza": "PS",
    "turkey": "TR",
    "kosovo": "XK",
    "united kingdom": "GB",
    "uk": "GB",
    "united states": "US",
    "usa": "US",
    "czech republic": "CZ",
    "ivory coast": "CI",
    "cote d'ivoire": "CI",
    "macedonia": "MK",
    "taiwan": "TW",
    "brunei": "BN",
}


@lru_cache(maxsize=4096)
def country_code(text: str | None) -> str | None:
    """ISO 3166-1 alpha-2 of a country name or code as publishers write it; None when unknown."""
    if not text:
        return None
    clean = re.sub(r"\s+", " ", text).strip().rstrip(".")
    if not clean or clean in {"00", "-"}:
        return None
    alias = _COUNTRY_ALIASES.get(clean.lower())
    if alias:
        return alias
    try:
        return str(pycountry.countries.lookup(clean).alpha_2)
    except LookupError:
        pass
    for part in re.split(r"[(,]", clean):
        alias = _COUNTRY_ALIASES.get(part.strip().lower())
        if alias:
            return alias
        try:
            return str(pycountry.countries.lookup(part.strip()).alpha_2)
        except LookupError:
            continue
    return None


def iso_date(text: str | None, fmt: str = "%Y-%m-%d") -> str | None:
    """`text` in `fmt` as ISO 8601, or None when it does not parse."""
    from datetime import datetime

    if not text:
        return None
    try:
        return datetime.strptime(text.strip(), fmt).date().isoformat()
    except ValueError:
        return None


def clean(text: str | None) -> str | None:
    if text is None:
        return None
    value = re.sub(r"\s+", " ", text).strip()
    return value or None


def plausible_year(year: int) -> bool:
    return 1850 <= year <= date.today().year


def abort_on_xml_error(name: str) -> Callable[[Exception], SourceAbort]:
    def wrap(exc: Exception) -> SourceAbort:
        return SourceAbort(f"{name}: not a well-formed XML file ({exc})")

    return wrap
