"""Read models of the agent brief (spec 4.1)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Flag(BaseModel):
    code: str = Field(
        description="`IN_BANKRUPTCY`, `IN_RESTRUCTURING`, `IN_LIQUIDATION`, `DISSOLVED`, `INACTIVE`, "
        "`NEGATIVE_EQUITY`, `LOSS`, `REVENUE_DROP`"
    )
    severity: Literal["info", "warning", "critical"]
    text: str
    source: str | None = Field(description="Data source of the figure behind a financial flag")


class Figures(BaseModel):
    model_config = ConfigDict(extra="allow")
    year: int
    currency: str
    revenue: float | None
    profit: float | None
    totalAssets: float | None
    equity: float | None
    liabilities: float | None
    employees: int | None
    source: str


class KeyFigures(BaseModel):
    latest: Figures | None
    revenueChangePct: float | None = Field(
        description="Revenue change between the two latest consecutive years in one currency, in percent"
    )
    history: list[Figures] = Field(description="Up to 5 years, newest first (major units, with `currency`)")


class People(BaseModel):
    total: int = Field(
        description="Roles held now; at most 20 are listed, owners with the largest share first"
    )
    items: list[dict[str, Any]]
    personalFields: bool = Field(
        description="True when birth date, nationality and residence of natural persons "
        "are included (a declared `purpose` was given)"
    )


class CompanyBrief(BaseModel):
    headline: str = Field(
        description="One sentence: name, identifier, legal form, town, state, latest figures"
    )
    identity: dict[str, Any]
    status: dict[str, Any]
    keyFigures: KeyFigures
    flags: list[Flag]
    people: People
    insolvencyEvents: list[dict[str, Any]] = Field(
        description="Latest bankruptcy, restructuring and liquidation "
        "events (gazette notices and register flags), newest first"
    )
    recentChanges: list[dict[str, Any]] = Field(description="The 5 latest change-log entries")
    sources: list[dict[str, Any]] = Field(description="Where the record comes from, with licences")
    dataAsOf: Any
    creditScore: dict[str, Any] = Field(
        description="The credit grade (compliance summary item: `status` `graded` "
        "with the grade as `value`, or `unknown` with the `reason`)"
    )
    sanctions: dict[str, Any] = Field(
        description="Sanctions and debarment hits (compliance summary item: "
        "`confirmed_hit`, `name_match`, `clear`, or `unknown` when no list is imported)"
    )
    nis2: dict[str, Any] = Field(
        description="NIS2 scope (compliance summary item: `in_scope`, `out_of_scope` or "
        "`unknown` with what is missing)"
    )
    ultimateOwners: dict[str, Any] = Field(
        description="`known` with the natural persons holding 25% or more "
        "(`value.beneficialOwners25`) and those in control (`value.control50`), "
        "or `unknown` with the `reason`"
    )
    notCovered: list[str] = Field(description="The sections above whose answer is `unknown` (each says why)")
