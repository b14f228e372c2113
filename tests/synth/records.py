"""Generated rows turned back into the loader's records, to load the same entities through the
per-record Loader and compare what both paths leave in the tables."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

from regintel.domain.types import (
    CompanyKey,
    CompanyRecord,
    FinancialRecord,
    OwnershipRecord,
    PersonRecord,
    RoleRecord,
)
from regintel.synth.generator import (
    COMPANY_COLUMNS,
    OWNERSHIP_COLUMNS,
    PEOPLE_COLUMNS,
    ROLE_COLUMNS,
    SOURCE_COLUMNS,
    STATEMENT_COLUMNS,
    Chunk,
)


def _day(value: Any) -> date | None:
    return date.fromisoformat(value) if value else None


def to_records(chunk: Chunk) -> list[Any]:
    companies = {row[0]: dict(zip(COMPANY_COLUMNS, row, strict=True)) for row in chunk.companies}
    keys = {cid: CompanyKey(c["country"], c["national_id"]) for cid, c in companies.items()}
    people = {row[0]: dict(zip(PEOPLE_COLUMNS, row, strict=True)) for row in chunk.people}
    sources = {row[0]: dict(zip(SOURCE_COLUMNS, row, strict=True)) for row in chunk.sources}
    # A record is frozen: its identifiers, roles and statements are gathered first, then it is built.
    identifiers: dict[int, list[tuple[str, str]]] = {cid: [] for cid in companies}
    roles: dict[int, list[RoleRecord]] = {cid: [] for cid in companies}
    financials: dict[int, list[FinancialRecord]] = {cid: [] for cid in companies}
    for type_, value, cid in chunk.identifiers:
        if type_ == "iban":  # the loader derives the other identifier rows itself
            identifiers[cid].append((type_, value))
    for row in chunk.roles:
        r = dict(zip(ROLE_COLUMNS, row, strict=True))
        person = people.get(r["person_id"])
        roles[r["company_id"]].append(
            RoleRecord(
                r["role"],
                r["holder_name"],
                title=r["title"],
                share_pct=r["share_pct"],
                voting_pct=r["voting_pct"],
                natures_of_control=json.loads(r["natures_of_control"]),
                since=_day(r["since"]),
                until=_day(r["until"]),
                person=PersonRecord(
                    person["name"],
                    person["birth_date"],
                    person["nationality"],
                    person["country_of_residence"],
                )
                if person
                else None,
                holder_company=keys[r["holder_company_id"]] if r["holder_company_id"] else None,
            )
        )
    for row in chunk.statements:
        s = dict(zip(STATEMENT_COLUMNS, row, strict=True))
        money = {k: Decimal(s[k]) for k in ("revenue", "profit", "total_assets", "equity", "liabilities")}
        financials[s["company_id"]].append(
            FinancialRecord(
                s["year"],
                s["currency"],
                s["period_from"],
                s["period_to"],
                employees=s["employees"],
                statement_type=s["statement_type"],
                source_record_id=s["source_record_id"],
                **money,
            )
        )
    records: dict[int, CompanyRecord] = {}
    for cid, c in companies.items():
        fields = {k: v for k, v in c.items() if k not in ("id", "name_norm", "address_norm")}
        nace_codes = json.loads(c["nace_codes"])
        fields.update(
            founded_on=_day(c["founded_on"]),
            dissolved_on=_day(c["dissolved_on"]),
            nace_codes=tuple(nace_codes) if nace_codes is not None else None,
            identifiers=tuple(identifiers[cid]),
            roles=tuple(roles[cid]),
            financials=tuple(financials[cid]),
            source_record_id=sources[cid]["source_record_id"],
            published_on=_day(sources[cid]["published_on"]),
        )
        records[cid] = CompanyRecord(**fields)
    edges = [dict(zip(OWNERSHIP_COLUMNS, row, strict=True)) for row in chunk.ownerships]
    owners = [
        OwnershipRecord(
            keys[e["parent_id"]],
            keys[e["child_id"]],
            kind=e["kind"],
            share_pct=e["share_pct"],
            since=_day(e["since"]),
            until=_day(e["until"]),
        )
        for e in edges
    ]
    return [*records.values(), *owners]
