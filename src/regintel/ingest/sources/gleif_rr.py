"""GLEIF RR-CDF (Level 2 "who owns whom"): relationship records, golden copy or delta, XML or JSON.

Every relationship is kept as a `LeiRelationshipRecord` (consolidation kinds renamed `direct` and
`ultimate`, the others keep GLEIF's type). Accounting-consolidation relationships also become
company-to-company `OwnershipRecord`s by LEI: the loader draws the edge when both LEIs are linked to
companies, and counts it as skipped, not rejected, when an end is not (yet) one of ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from regintel.domain.types import LeiRelationshipRecord, OwnershipRecord, Record
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.sources.gleif_common import (
    ATTRIBUTION,
    GOLDEN_COPY_URL,
    LICENCE,
    LICENCE_URL,
    PUBLISHER,
    Node,
    child,
    children,
    code,
    day,
    lei,
    text,
)
from regintel.ingest.sources.gleif_stream import LAYOUTS, GleifFile

INFO = SourceInfo(
    id="gleif_rr",
    name="GLEIF relationship records (RR-CDF, Level 2)",
    publisher=PUBLISHER,
    country=None,
    category="lei",
    formats="RR-CDF 2.1 XML or golden-copy JSON; full and delta files; .zip/.gz",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url=GOLDEN_COPY_URL,
    cadence="daily",
)

KINDS = {"IS_DIRECTLY_CONSOLIDATED_BY": "direct", "IS_ULTIMATELY_CONSOLIDATED_BY": "ultimate"}


def map_relationship(node: Node) -> list[Record]:
    """One relationship record: the LEI relationship, plus an ownership edge for consolidation."""
    rel = child(node, "Relationship") or {}
    for end in ("StartNode", "EndNode"):
        if (text(rel, end, "NodeIDType") or "LEI") != "LEI":
            raise RecordError(f"{end} is not identified by an LEI")
    child_lei = lei(text(rel, "StartNode", "NodeID"), "child LEI (StartNode)")
    parent_lei = lei(text(rel, "EndNode", "NodeID"), "parent LEI (EndNode)")
    kind = code(rel, "RelationshipType", width=48)
    if not kind:
        raise RecordError(f"no RelationshipType: {child_lei} → {parent_lei}")
    kind = KINDS.get(kind, kind)
    period = _period(rel)
    record = LeiRelationshipRecord(
        child_lei=child_lei,
        parent_lei=parent_lei,
        kind=kind,
        status=code(rel, "RelationshipStatus", width=16),
        registration_status=code(node, "Registration", "RegistrationStatus", width=24),
        share_pct=_share(rel),
        start_date=code(period, "StartDate", width=32),
        end_date=code(period, "EndDate", width=32),
    )
    if kind not in KINDS.values() or record.registration_status == "ANNULLED":
        return [record]
    until = day(period, "EndDate")
    if until is None and record.status == "INACTIVE":
        until = day(node, "Registration", "LastUpdateDate")  # ended, on the day GLEIF recorded it
    return [
        record,
        OwnershipRecord(
            parent_lei=parent_lei,
            child_lei=child_lei,
            kind=kind,
            share_pct=record.share_pct,
            since=day(period, "StartDate"),
            until=until,
        ),
    ]


def _period(rel: Node) -> Any:
    """The RELATIONSHIP_PERIOD (when the relationship held), else the first period given."""
    periods = children(rel, "RelationshipPeriods", "RelationshipPeriod")
    chosen = [p for p in periods if text(p, "PeriodType") == "RELATIONSHIP_PERIOD"] or periods
    return chosen[0] if chosen else {}


def _share(rel: Node) -> float | None:
    """The first percentage quantifier, kept as published: LOUs differ in scale (the samples give both
    1.00 and 100.00 for fully consolidated subsidiaries), so it is not rescaled."""
    for quantifier in children(rel, "RelationshipQuantifiers", "RelationshipQuantifier"):
        amount = text(quantifier, "QuantifierAmount")
        if text(quantifier, "QuantifierUnits") != "PERCENTAGE" or amount is None:
            continue
        try:
            value = float(amount)
        except ValueError:
            raise RecordError(f"QuantifierAmount is not a number: {amount[:40]!r}") from None
        if not 0 <= value <= 100:
            raise RecordError(f"QuantifierAmount is not a percentage: {amount[:40]!r}")
        return value
    return None


class GleifRelationshipSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError]:
        for node in GleifFile(stream, name, LAYOUTS[1]).records():
            if isinstance(node, RecordError):
                yield node
                continue
            try:
                yield from map_relationship(node)
            except RecordError as exc:
                yield RecordError(exc.reason, node)


register(GleifRelationshipSource())
