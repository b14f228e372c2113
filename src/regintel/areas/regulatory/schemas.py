"""Read models of the regulatory feed and of the `uk-psc` statistics feed (the OpenAPI document is the
body)."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel, Field


class RegEntry(BaseModel):
    id: int = Field(description="This service's id of the entry")
    source: str = Field(description="Source id, see `/public/regulatory-feed/sources.json`")
    publisher: str
    title: str
    summary: str = Field(description="The publisher's summary as plain text (at most 2,000 characters)")
    link: str | None = Field(description="The publication on the regulator's site")
    language: str | None
    published_at: datetime
    updated_at: datetime | None
    tags: list[str] = Field(description="Tags of the documented rule set (docs/regulatory-feed.md)")
    guid: str = Field(description="The entry's id in the regulator's feed")


class RegFeed(BaseModel):
    title: str
    attribution: str
    filters: dict[str, str | None]
    items: list[RegEntry]


class RegSource(BaseModel):
    id: str
    name: str
    publisher: str
    country: str | None
    url: str = Field(description="The feed the refresh reads")
    formats: str
    licence: str
    licence_url: str | None
    attribution: str
    entries: int
    latest_published_at: datetime | None


class RegSources(BaseModel):
    sources: list[RegSource]


class SourceCount(BaseModel):
    source: str
    publisher: str
    entries: int
    first_published_at: datetime | None
    last_published_at: datetime | None


class TagCount(BaseModel):
    tag: str
    entries: int


class DateRange(BaseModel):
    first: datetime | None
    last: datetime | None


class RegStats(BaseModel):
    total: int
    tagged: int = Field(description="Entries with at least one tag")
    per_source: list[SourceCount]
    top_tags: list[TagCount] = Field(description="The 25 most used tags, most entries first")
    date_range: DateRange
    tags_known: list[str] = Field(description="Every tag of the rule set")


class PscRow(BaseModel):
    country: str
    national_id: str
    company_name: str
    psc_kind: str = Field(
        description="`individual` (a natural person) or `entity` (a corporate or legal person)"
    )
    psc_name: str | None = Field(
        description="An entity's name; natural persons' names are not published here"
    )
    psc_country: str | None = Field(description="A corporate PSC registered with Companies House: GB")
    psc_national_id: str | None = Field(description="…and its company number")
    role: str
    natures_of_control: list[str]
    share_pct_min: float | None = Field(description="Lower bound of the published share band")
    voting_pct_min: float | None = Field(description="Lower bound of the published voting band")
    notified_on: date | None
    ceased_on: date | None
    active: bool


class PscTotals(BaseModel):
    entries: int
    active: int
    natural_persons: int
    companies: int


class UkPscFeed(BaseModel):
    feed: str
    title: str
    attribution: str
    licence: str
    columns: list[str]
    active_only: bool
    count: int
    total: int = Field(description="Entries matching `activeOnly`")
    totals: PscTotals
    rows: list[PscRow]
