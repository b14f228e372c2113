"""The DNS half of a passive check (dnspython): MX, SPF, DMARC, DNSSEC (DNSKEY and DS present), CAA of
the registrable domain, and the host's addresses. Every query has the configured time limit; a query that
gets no answer is recorded as an error, never as a finding (we do not know)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any

import dns.exception
import dns.name
import dns.resolver

from regintel.areas.security.findings import Finding, finding


@dataclass
class DnsFacts:
    mx: list[str] = field(default_factory=list)
    spf: list[str] = field(default_factory=list)
    dmarc: list[str] = field(default_factory=list)
    dnskey: bool = False
    ds: bool = False
    caa: list[str] = field(default_factory=list)
    addresses: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    asked: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "mx": self.mx,
            "spf": self.spf,
            "dmarc": self.dmarc,
            "dnssec": {"dnskey": self.dnskey, "ds": self.ds},
            "caa": self.caa,
            "addresses": self.addresses,
            "errors": self.errors,
        }


def make_resolver(nameservers: list[str], timeout: float) -> dns.resolver.Resolver:
    """The system's resolvers, or `ip` / `ip:port` entries (tests: a server on 127.0.0.1)."""
    resolver = dns.resolver.Resolver(configure=not nameservers)
    if nameservers:
        resolver.nameservers = []
        for entry in nameservers:
            ip, _, port = entry.rpartition(":") if entry.count(":") == 1 else (entry, "", "")
            resolver.nameservers.append(ip)
            if port:
                resolver.nameserver_ports[ip] = int(port)
    resolver.timeout = timeout
    resolver.lifetime = timeout
    resolver.use_edns(0, 0, 1232)
    return resolver


def _query(resolver: dns.resolver.Resolver, name: str, rdtype: str, facts: DnsFacts) -> list[Any]:
    facts.asked += 1
    try:
        return list(resolver.resolve(dns.name.from_text(name), rdtype, search=False))
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except (dns.exception.DNSException, OSError) as exc:
        facts.errors[f"{rdtype} {name}"] = f"{type(exc).__name__}: {exc}"[:300]
        return []


def _txt(rdata: Any) -> str:
    return b"".join(rdata.strings).decode("utf-8", "replace")


def lookup(resolver: dns.resolver.Resolver, host: str, domain: str) -> DnsFacts:
    facts = DnsFacts()
    facts.mx = sorted(str(r.exchange).rstrip(".").lower() for r in _query(resolver, domain, "MX", facts))
    facts.spf = [
        t for t in (_txt(r) for r in _query(resolver, domain, "TXT", facts)) if t.lower().startswith("v=spf1")
    ]
    facts.dmarc = [
        t
        for t in (_txt(r) for r in _query(resolver, f"_dmarc.{domain}", "TXT", facts))
        if t.lower().startswith("v=dmarc1")
    ]
    facts.dnskey = bool(_query(resolver, domain, "DNSKEY", facts))
    facts.ds = bool(_query(resolver, domain, "DS", facts))
    facts.caa = [r.to_text() for r in _query(resolver, domain, "CAA", facts)]
    if not facts.caa and host != domain:
        facts.caa = [r.to_text() for r in _query(resolver, host, "CAA", facts)]
    found = [r.to_text() for rdtype in ("A", "AAAA") for r in _query(resolver, host, rdtype, facts)]
    facts.addresses = [str(ipaddress.ip_address(a)) for a in dict.fromkeys(found)]
    return facts


def judge(facts: DnsFacts, host: str, domain: str) -> list[Finding]:
    """Findings of the mail and DNS records (only from answers received)."""
    out: list[Finding] = []

    def answered(rdtype: str, name: str) -> bool:
        return f"{rdtype} {name}" not in facts.errors

    if answered("MX", domain) and not facts.mx:
        out.append(finding("mx_missing", "no MX record: the domain receives no mail"))
    if answered("TXT", domain):
        out.extend(_spf(facts.spf))
    if answered("TXT", f"_dmarc.{domain}"):
        out.extend(_dmarc(facts.dmarc))
    if answered("DNSKEY", domain) and not facts.dnskey:
        out.append(finding("dnssec_missing", "no DNSKEY record: the zone is not signed"))
    elif facts.dnskey and not facts.ds and answered("DS", domain):
        out.append(finding("dnssec_no_ds", "DNSKEY published but no DS record in the parent zone"))
    if answered("CAA", domain) and answered("CAA", host) and not facts.caa:
        out.append(
            finding("caa_missing", "no CAA record: any certificate authority may issue for the domain")
        )
    return out


def _spf(records: list[str]) -> list[Finding]:
    if not records:
        return [finding("spf_missing", "no SPF record (TXT v=spf1)")]
    if len(records) > 1:
        return [
            finding("spf_multiple", f"{len(records)} SPF records: receivers treat this as a permanent error")
        ]
    terms = records[0].lower().split()[1:]
    last_all = next((t for t in reversed(terms) if t.lstrip("+-~?") == "all"), None)
    if last_all in ("all", "+all"):
        return [
            finding(
                "spf_allows_all", f"SPF ends with {last_all}: every server may send as the domain", records[0]
            )
        ]
    if last_all == "?all":
        return [finding("spf_neutral", "SPF ends with ?all: no policy for other senders", records[0])]
    if last_all is None and not any(t.startswith("redirect=") for t in terms):
        return [finding("spf_no_all", "SPF has no `all` mechanism nor `redirect=`", records[0])]
    return []


def _dmarc(records: list[str]) -> list[Finding]:
    if not records:
        return [finding("dmarc_missing", "no DMARC record at _dmarc (TXT v=DMARC1)")]
    tags = dict(part.strip().split("=", 1) for part in records[0].split(";") if "=" in part)
    policy = tags.get("p", "").strip().lower()
    if policy not in ("quarantine", "reject"):
        return [
            finding(
                "dmarc_policy_none",
                f"DMARC policy p={policy or '(missing)'}: spoofed mail is delivered",
                records[0],
            )
        ]
    return []
