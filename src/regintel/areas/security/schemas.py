"""Response models of the security area (the OpenAPI document is the body)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Severity = Literal["critical", "high", "medium", "low", "info"]
CheckStatus = Literal["pending", "done", "refused", "failed"]
PostureStatus = Literal["no_domains", "pending", "partial", "done"]
Band = Literal["good", "fair", "weak", "poor"]


class DomainSource(BaseModel):
    kind: Literal["website", "email"]
    value: str = Field(description="As published; an e-mail address is reduced to `@domain`")
    source: str
    source_name: str | None
    licence: str | None
    record: str | None = Field(description="The source's record (e.g. the KBO entity number)")
    published_on: str | None
    retrieved_at: str | None
    import_run: int | None


class CompanyDomain(BaseModel):
    domain: str = Field(description="ASCII (IDNA) host name")
    registered_domain: str = Field(description="Registrable domain (Public Suffix List)")
    kinds: list[Literal["website", "email"]]
    shared_domain: bool = Field(
        description="A mailbox provider's or platform's public domain (gmail.com, "
        "facebook.com, …): not the company's, never checked"
    )
    sources: list[DomainSource]


class Finding(BaseModel):
    id: str = Field(
        description="e.g. `dmarc_missing`, `tls_cert_expired`, `hsts_missing` (docs/security-posture.md)"
    )
    severity: Severity
    category: Literal["mail", "dns", "tls", "http"]
    title: str
    detail: str
    evidence: str | None = None
    domain: str | None = None


class DomainPosture(BaseModel):
    domain: str
    status: CheckStatus
    score: int | None = Field(ge=0, le=100)
    checked_at: str | None
    recheck_queued: bool = Field(description="A check of this domain was queued by this request")
    findings: list[Finding]
    error: str | None


class SecurityPosture(BaseModel):
    country: str
    national_id: str
    name: str
    status: PostureStatus = Field(
        description="`pending`: checks queued, none stored yet; `partial`: some domains "
        "checked; `done`: every domain has a stored check; `no_domains`: no register "
        "publishes a domain of this company"
    )
    score: int | None = Field(ge=0, le=100, description="The weakest checked domain's score (0-100)")
    band: Band | None
    checked_at: str | None = Field(description="Oldest stored check among the domains")
    domains: list[DomainPosture]
    findings: list[Finding]
    skipped_domains: list[str] = Field(description="Shared mailbox domains, not checked")
    queued: list[str] = Field(description="Domains whose check this request queued (job `security.check`)")


class DomainScore(BaseModel):
    domain: str
    score: int | None
    status: CheckStatus


class CyberScore(BaseModel):
    country: str
    national_id: str
    status: PostureStatus
    score: int | None = Field(ge=0, le=100)
    band: Band | None
    checked_at: str | None
    weakest_domain: str | None
    points_lost: dict[str, int] | None = Field(
        description="Points the weakest domain lost per category: mail, dns, tls, http"
    )
    domains: list[DomainScore]
    method: str


class NamedSignal(BaseModel):
    name: str
    evidence: str | None


class Technology(BaseModel):
    name: str
    category: str | None
    evidence: str | None


class Holder(BaseModel):
    country: str
    national_id: str
    name: str | None


class BrandSignals(BaseModel):
    domain: str
    technologies: list[Technology]
    mail_provider: NamedSignal | None
    cert_issuer: NamedSignal | None
    score: int | None
    checked_at: str | None
    companies: list[Holder]


class BrandSignalsDetail(BrandSignals):
    status: CheckStatus
    recheck_queued: bool
    error: str | None
