"""Entities (graph nodes) and relations built from role and company rows, with the purpose gate:
a natural person's personal fields are filled only when `personal` is true (a declared purpose)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.ownership import queries as q
from regintel.areas.ownership.schemas import Band, Entity, Personal, Relation, SourceRef
from regintel.domain.ownership import bands

Row = Mapping[str, Any]


@dataclass
class Ctx:
    """What every use case of the area needs: the connection, the purpose gate and today."""

    conn: Connection
    personal: bool
    today: date = field(default_factory=date.today)
    _sources: dict[str, Row] | None = None

    def source(self, source_id: str) -> SourceRef:
        if self._sources is None:
            self._sources = q.source_catalogue(self.conn)
        row = self._sources.get(source_id)
        return SourceRef(
            id=source_id, name=row["name"] if row else None, licence=row["licence"] if row else None
        )

    def active(self, until: date | None) -> bool:
        return until is None or until >= self.today


def company_id(row: Row) -> str:
    return f"c:{row['country']}:{row['national_id']}"


def company(row: Row) -> Entity:
    return Entity(
        id=company_id(row),
        type="company",
        name=row["name"],
        country=row["country"],
        nationalId=row["national_id"],
        status=row.get("status"),
        lei=row.get("lei"),
    )


def person(row: Row, personal: bool) -> Entity:
    """A person from a `people` row (columns `person_key`, `name`, `birth_date`, …)."""
    gated = (
        Personal(
            birthDate=row["birth_date"],
            nationality=row["nationality"],
            countryOfResidence=row["country_of_residence"],
        )
        if personal
        else None
    )
    return Entity(id=f"p:{row['person_key']}", type="person", name=row["name"], personal=gated)


def holder(row: Row, personal: bool) -> Entity:
    """Who holds a role: a person of ours, a company of ours, or an entity known only by name."""
    if row["person_id"] is not None:
        return person(
            {
                "person_key": row["person_key"],
                "name": row["person_name"] or row["holder_name"],
                "birth_date": row["birth_date"],
                "nationality": row["nationality"],
                "country_of_residence": row["country_of_residence"],
            },
            personal,
        )
    if row["holder_company_id"] is not None:
        return Entity(
            id=f"c:{row['holder_country']}:{row['holder_national_id']}",
            type="company",
            name=row["holder_company_name"],
            country=row["holder_country"],
            nationalId=row["holder_national_id"],
            status=row["holder_status"],
        )
    key = str(row["holder_key"])
    if key.startswith("c:"):  # a company key whose company is not (or no longer) in the database
        _, country, national_id = key.split(":", 2)
        return Entity(
            id=key, type="company", name=row["holder_name"], country=country, nationalId=national_id
        )
    if key.startswith("p:"):
        return Entity(id=key, type="person", name=row["holder_name"])
    # The country and register number the source gives (a UK PSC's identification), when it does.
    return Entity(
        id=key,
        type="entity",
        name=row["holder_name"],
        country=row.get("holder_reg_country"),
        nationalId=row.get("holder_reg_number"),
    )


def relation(ctx: Ctx, row: Row, holder_entity: Entity | None = None) -> Relation:
    natures = row["natures_of_control"]
    return Relation(
        role=row["role"],
        title=row["title"],
        holder=holder_entity or holder(row, ctx.personal),
        since=row["since"],
        until=row["until"],
        active=ctx.active(row["until"]),
        sharePct=row["share_pct"],
        votingPct=row["voting_pct"],
        bands=[Band(kind=b.kind, moreThan=b.lower, upTo=b.upper) for b in bands(natures)],
        naturesOfControl=natures,
        source=ctx.source(row["source"]),
    )


GLEIF_TITLES = {
    "direct": "direct accounting-consolidation parent (GLEIF)",
    "ultimate": "ultimate accounting-consolidation parent (GLEIF)",
}


def ownership_relation(ctx: Ctx, row: Row, other: Row, held: bool = False) -> Relation:
    """A company-to-company edge of the `ownerships` table as a shareholder relation; `other` is the
    parent (or, with `held`, the child)."""
    title = GLEIF_TITLES.get(row["kind"], row["kind"]) if row["source"].startswith("gleif") else None
    return Relation(
        role="shareholder",
        title=title,
        holder=company(other),
        since=row["since"],
        until=row["until"],
        active=ctx.active(row["until"]),
        sharePct=gleif_share(row),
        votingPct=None,
        bands=[],
        naturesOfControl=None,
        source=ctx.source(row["source"]),
    )


def gleif_share(row: Row) -> float | None:
    """A share as stated. GLEIF quantifiers come in two scales (1.00 and 100.00 both mean a fully
    consolidated subsidiary), so a GLEIF value of 1 or less cannot be read and is left out."""
    value: float | None = row["share_pct"]
    if value is not None and str(row["source"]).startswith("gleif") and value <= 1:
        return None
    return value
