"""The reports area's request bodies and read models."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

PDF_SECTIONS = ("identity", "financials", "credit", "risk", "ownership", "sanctions", "nis2", "timeline")
PdfSection = Literal["identity", "financials", "credit", "risk", "ownership", "sanctions", "nis2", "timeline"]


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["pdf"] = Field(default="pdf", description="The document's format (PDF)")
    sections: list[PdfSection] | None = Field(
        default=None,
        min_length=1,
        max_length=len(PDF_SECTIONS),
        description="Sections to include, in the report's order "
        "(default: all). Sources and licences are always on the last page.",
    )


class DueDiligenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["json", "pdf"] = Field(
        default="json", description="`json` (the findings, default) or `pdf` (a rendered document)"
    )


class CompanyRef(BaseModel):
    country: str
    nationalId: str
    name: str


class Finding(BaseModel):
    ref: int = Field(description="Number of the finding, cited as [n] in a model's prose")
    section: str
    severity: Literal["info", "low", "medium", "high"]
    statement: str
    evidence: dict[str, Any] = Field(description="The figures the statement rests on")
    source: str | None = Field(
        description="Source id (see `sources`) or the regintel model that concluded it"
    )


class Section(BaseModel):
    id: str
    title: str
    findings: list[Finding]


class Conclusion(BaseModel):
    verdict: Literal["standard", "review", "escalate"]
    text: str
    counts: dict[str, int]


class Writer(BaseModel):
    kind: str = Field(description="`rule-based`, `rule-based (model failed)` or `language-model`")
    model: str | None
    note: str


class DueDiligence(BaseModel):
    company: CompanyRef
    generatedAt: str
    writer: Writer
    prose: str | None = Field(description="The model's summary citing findings as [n]; null when rule-based")
    sections: list[Section]
    conclusion: Conclusion
    ruleset_version: str
    complete: bool = Field(description="False for a preview (its first sections only)")
    sources: list[dict[str, Any]]
    fullReport: dict[str, Any] | None = None


class ReportOut(BaseModel):
    id: int
    kind: Literal["company", "ai-dd"]
    status: Literal["queued", "running", "done", "failed"]
    format: str
    company: CompanyRef
    createdAt: datetime
    finishedAt: datetime | None
    attempts: int
    error: str | None
    statusUrl: str
    documentUrl: str | None = Field(
        description="Where the document is, once done (or send `Accept: application/pdf` to the status URL)"
    )
    mediaType: str | None
    sizeBytes: int | None
    narrative: dict[str, Any] | None = Field(
        description="The due-diligence findings of a finished `ai-dd` report"
    )
