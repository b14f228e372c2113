"""What a passive check can find, how much each finding costs, and the scores (0-100) built from them.

Severity weights: critical 40, high 20, medium 10, low 4, info 0 points off 100 (never below 0). A
company's score is its weakest checked domain's (an attacker picks the weakest); the cyber score splits
the same points by category (mail, dns, tls, http). Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

WEIGHTS = {"critical": 40, "high": 20, "medium": 10, "low": 4, "info": 0}
CATEGORIES = ("mail", "dns", "tls", "http")

# id: (severity, category, title)
CATALOGUE: dict[str, tuple[str, str, str]] = {
    "mx_missing": ("info", "mail", "No mail exchanger"),
    "spf_missing": ("medium", "mail", "No SPF record"),
    "spf_multiple": ("medium", "mail", "Several SPF records"),
    "spf_allows_all": ("high", "mail", "SPF lets any server send"),
    "spf_neutral": ("low", "mail", "SPF neutral (?all)"),
    "spf_no_all": ("low", "mail", "SPF without a final policy"),
    "dmarc_missing": ("medium", "mail", "No DMARC record"),
    "dmarc_policy_none": ("low", "mail", "DMARC does not act (p=none)"),
    "dnssec_missing": ("low", "dns", "DNSSEC not enabled"),
    "dnssec_no_ds": ("low", "dns", "DNSSEC keys without a DS record"),
    "caa_missing": ("low", "dns", "No CAA record"),
    "host_unresolvable": ("high", "dns", "The host does not resolve"),
    "https_unavailable": ("high", "tls", "No HTTPS"),
    "tls_cert_expired": ("critical", "tls", "Certificate expired"),
    "tls_cert_not_yet_valid": ("critical", "tls", "Certificate not yet valid"),
    "tls_cert_expiring": ("medium", "tls", "Certificate expires within 14 days"),
    "tls_cert_name_mismatch": ("high", "tls", "Certificate does not name the host"),
    "tls_cert_untrusted": ("high", "tls", "Certificate not trusted"),
    "tls_legacy_protocol": ("medium", "tls", "TLS 1.0 or 1.1 accepted"),
    "tls_modern_missing": ("high", "tls", "Neither TLS 1.2 nor TLS 1.3"),
    "hsts_missing": ("medium", "http", "No HSTS header"),
    "hsts_short": ("low", "http", "HSTS max-age under 180 days"),
    "http_not_redirected": ("medium", "http", "Plain HTTP not redirected to HTTPS"),
    "csp_missing": ("low", "http", "No Content-Security-Policy"),
    "xcto_missing": ("low", "http", "No X-Content-Type-Options: nosniff"),
    "frame_protection_missing": ("low", "http", "No framing protection"),
    "server_version_disclosed": ("info", "http", "Server software version disclosed"),
}


@dataclass(frozen=True)
class Finding:
    id: str
    severity: str
    category: str
    title: str
    detail: str
    evidence: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def finding(finding_id: str, detail: str, evidence: str | None = None) -> Finding:
    severity, category, title = CATALOGUE[finding_id]
    return Finding(finding_id, severity, category, title, detail, evidence)


def score(findings: Iterable[Mapping[str, Any]]) -> int:
    """100 minus the weights of the findings, at least 0."""
    return max(0, 100 - sum(WEIGHTS[f["severity"]] for f in findings))


def category_points(findings: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Points lost per category."""
    lost = dict.fromkeys(CATEGORIES, 0)
    for f in findings:
        lost[f["category"]] += WEIGHTS[f["severity"]]
    return lost


def company_score(domain_scores: Sequence[int]) -> int | None:
    """The weakest checked domain's score, None when no domain has a score."""
    return min(domain_scores) if domain_scores else None


def band(value: int | None) -> str | None:
    """`good` (≥ 80), `fair` (≥ 60), `weak` (≥ 40) or `poor`."""
    if value is None:
        return None
    return "good" if value >= 80 else "fair" if value >= 60 else "weak" if value >= 40 else "poor"
