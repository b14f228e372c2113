"""One passive check of one host: DNS, then (when its addresses pass the SSRF rules of
`domain.webhook_urls`) TLS and HTTP, then findings, score and brand signals. Runs in the worker
(`security.check`), never in a request; every network step has its own time limit."""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass, field
from typing import Any

from regintel.areas.security import dnschecks, httpchecks, signals, tlschecks
from regintel.areas.security.findings import Finding, finding, score
from regintel.areas.security.names import normalise_host
from regintel.config import Settings
from regintel.domain.webhook_urls import address_refusal


@dataclass(frozen=True)
class ProbeSettings:
    nameservers: tuple[str, ...] = ()
    allow_private: bool = False
    https_port: int = 443
    http_port: int = 80
    ca_file: str | None = None
    timeout: float = 5.0

    @classmethod
    def from_settings(cls, s: Settings) -> ProbeSettings:
        return cls(
            tuple(s.security_nameservers),
            s.security_allow_private,
            s.security_https_port,
            s.security_http_port,
            s.security_ca_file,
            s.security_timeout_seconds,
        )


@dataclass
class Outcome:
    host: str
    status: str  # done | refused | failed
    score: int | None
    findings: list[Finding] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    signals: list[signals.Signal] = field(default_factory=list)
    error: str | None = None
    duration_ms: int = 0


def check_host(raw_host: str, cfg: ProbeSettings) -> Outcome:
    started = time.perf_counter()
    outcome = _check(raw_host, cfg)
    outcome.duration_ms = int((time.perf_counter() - started) * 1000)
    return outcome


def _check(raw_host: str, cfg: ProbeSettings) -> Outcome:
    name = normalise_host(raw_host)
    resolver = dnschecks.make_resolver(list(cfg.nameservers), cfg.timeout)
    dns_facts = dnschecks.lookup(resolver, name.host, name.registered_domain)
    out = Outcome(
        name.host,
        "done",
        None,
        facts={"registered_domain": name.registered_domain, "dns": dns_facts.as_dict()},
    )
    if len(dns_facts.errors) == dns_facts.asked:  # no query answered: we know nothing
        out.status, out.error = "failed", "no DNS answer: " + "; ".join(list(dns_facts.errors.values())[:2])
        return out
    out.findings = dnschecks.judge(dns_facts, name.host, name.registered_domain)
    out.signals = signals.mail_provider(dns_facts.mx)
    if not dns_facts.addresses:
        out.findings.append(finding("host_unresolvable", f"{name.host} has no A or AAAA record"))
        out.score = score(f.as_dict() for f in out.findings)
        return out
    refusals = [(a, address_refusal(ipaddress.ip_address(a))) for a in dns_facts.addresses]
    refused = [(a, why) for a, why in refusals if why is not None]
    if refused and not cfg.allow_private:
        address, why = refused[0]
        out.status = "refused"
        out.error = (
            f"{name.host} resolves to a {str(why).replace('_', '-')} address ({address}); only public "
            "addresses are checked"
        )
        return out
    _web(out, name.host, dns_facts.addresses[0], cfg)
    out.score = score(f.as_dict() for f in out.findings)
    return out


def _web(out: Outcome, host: str, ip: str, cfg: ProbeSettings) -> None:
    tls = tlschecks.probe(ip, cfg.https_port, host, cfg.timeout, cfg.ca_file)
    out.findings.extend(tlschecks.judge(tls, host))
    out.facts["tls"] = tls.as_dict()
    http = httpchecks.probe(ip, host, cfg.https_port, cfg.http_port, cfg.timeout, https=tls.reachable)
    out.findings.extend(httpchecks.judge(http))
    out.facts["http"] = http.as_dict()
    markers = signals.page_markers(http.body)
    out.facts["page"] = {
        "meta": {k: v for k, v in markers["meta"].items() if k == "generator"},
        "scripts": len(markers["scripts"]),
    }
    out.signals.extend(signals.technologies(http.headers, http.cookies, markers))
    out.signals.extend(signals.cert_issuer(tls.issuer))
