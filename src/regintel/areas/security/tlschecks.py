"""The TLS half of a passive check (standard `ssl` module, certificate fields read with `cryptography`):
which protocol versions the server accepts, the certificate's validity, expiry, names, issuer and trust.

The connection goes to an address that passed the SSRF rules, with the host name as SNI; nothing else is
resolved here. TLS 1.0 and 1.1 are probed with OpenSSL security level 0 (otherwise OpenSSL 3 refuses them
on our side and the check would prove nothing about the server).
"""

from __future__ import annotations

import socket
import ssl
import warnings
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography import x509
from cryptography.x509.oid import NameOID

from regintel.areas.security.findings import Finding, finding

VERSIONS = (("TLSv1.0", "TLSv1"), ("TLSv1.1", "TLSv1_1"), ("TLSv1.2", "TLSv1_2"), ("TLSv1.3", "TLSv1_3"))
EXPIRING = timedelta(days=14)
_NAMES = {NameOID.COMMON_NAME: "CN", NameOID.ORGANIZATION_NAME: "O", NameOID.COUNTRY_NAME: "C"}


@dataclass
class TlsFacts:
    reachable: bool = False
    protocols: dict[str, bool] = field(default_factory=dict)
    not_before: datetime | None = None
    not_after: datetime | None = None
    issuer: dict[str, str] = field(default_factory=dict)
    subject: dict[str, str] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    trusted: bool | None = None
    trust_error: str | None = None
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "reachable": self.reachable,
            "protocols": self.protocols,
            "notBefore": _iso(self.not_before),
            "notAfter": _iso(self.not_after),
            "issuer": self.issuer,
            "subject": self.subject,
            "names": self.names,
            "trusted": self.trusted,
            "trustError": self.trust_error,
            "error": self.error,
        }


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def permissive_context(version: str | None = None) -> ssl.SSLContext:
    """A client context that verifies nothing and accepts every protocol version from TLS 1.0 (or exactly
    `version`), at OpenSSL security level 0: it observes what the server offers, the judging comes after."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    ctx.set_ciphers("ALL:@SECLEVEL=0")
    with warnings.catch_warnings():  # TLS 1.0/1.1 are deprecated: probing them is the point
        warnings.simplefilter("ignore", DeprecationWarning)
        ctx.minimum_version = getattr(ssl.TLSVersion, version or "TLSv1")
        ctx.maximum_version = getattr(ssl.TLSVersion, version or "TLSv1_3")
    return ctx


def _handshake(ip: str, port: int, host: str, ctx: ssl.SSLContext, timeout: float) -> bytes | None:
    with (
        socket.create_connection((ip, port), timeout=timeout) as raw,
        ctx.wrap_socket(raw, server_hostname=host) as tls,
    ):
        return tls.getpeercert(binary_form=True)


def probe(ip: str, port: int, host: str, timeout: float, ca_file: str | None) -> TlsFacts:
    facts = TlsFacts()
    try:
        der = _handshake(ip, port, host, permissive_context(), timeout)
    except (OSError, ssl.SSLError) as exc:
        facts.error = f"{type(exc).__name__}: {exc}"[:300]
        return facts
    facts.reachable = True
    if der:
        _read_certificate(facts, der)
    for label, version in VERSIONS:
        try:
            _handshake(ip, port, host, permissive_context(version), timeout)
            facts.protocols[label] = True
        except (OSError, ssl.SSLError):
            facts.protocols[label] = False
    verify = ssl.create_default_context(cafile=ca_file)
    try:
        _handshake(ip, port, host, verify, timeout)
        facts.trusted = True
    except ssl.SSLCertVerificationError as exc:
        facts.trusted, facts.trust_error = False, str(exc.verify_message or exc)[:300]
    except (OSError, ssl.SSLError) as exc:
        facts.trust_error = f"{type(exc).__name__}: {exc}"[:300]
    return facts


def _read_certificate(facts: TlsFacts, der: bytes) -> None:
    cert = x509.load_der_x509_certificate(der)
    facts.not_before, facts.not_after = cert.not_valid_before_utc, cert.not_valid_after_utc
    facts.issuer = _name(cert.issuer)
    facts.subject = _name(cert.subject)
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        facts.names = [str(n) for n in san.get_values_for_type(x509.DNSName)][:100]
    except x509.ExtensionNotFound:
        facts.names = [facts.subject["CN"]] if "CN" in facts.subject else []


def _name(name: x509.Name) -> dict[str, str]:
    out: dict[str, str] = {}
    for attr in name:
        key = _NAMES.get(attr.oid)
        if key and key not in out:
            out[key] = str(attr.value)[:200]
    return out


def _covers(pattern: str, host: str) -> bool:
    pattern = pattern.lower().rstrip(".")
    if pattern.startswith("*."):
        head, _, rest = host.partition(".")
        return bool(head) and rest == pattern[2:]
    return pattern == host


def judge(facts: TlsFacts, host: str, now: datetime | None = None) -> list[Finding]:
    now = now or datetime.now(UTC)
    if not facts.reachable:
        return [finding("https_unavailable", f"no TLS handshake on the HTTPS port: {facts.error}")]
    out: list[Finding] = []
    if facts.not_after is not None and facts.not_after < now:
        out.append(finding("tls_cert_expired", f"the certificate expired on {_iso(facts.not_after)}"))
    elif facts.not_after is not None and facts.not_after - now < EXPIRING:
        out.append(finding("tls_cert_expiring", f"the certificate expires on {_iso(facts.not_after)}"))
    if facts.not_before is not None and facts.not_before > now:
        out.append(
            finding("tls_cert_not_yet_valid", f"the certificate is valid from {_iso(facts.not_before)}")
        )
    if not any(_covers(n, host) for n in facts.names):
        out.append(
            finding(
                "tls_cert_name_mismatch", f"the certificate names {', '.join(facts.names[:5]) or 'nothing'}"
            )
        )
    elif facts.trusted is False and not any(f.id.startswith("tls_cert_") for f in out):
        out.append(finding("tls_cert_untrusted", f"verification failed: {facts.trust_error}"))
    legacy = [v for v in ("TLSv1.0", "TLSv1.1") if facts.protocols.get(v)]
    if legacy:
        out.append(finding("tls_legacy_protocol", f"the server accepts {' and '.join(legacy)}"))
    if not facts.protocols.get("TLSv1.2") and not facts.protocols.get("TLSv1.3"):
        out.append(finding("tls_modern_missing", "the server accepts neither TLS 1.2 nor TLS 1.3"))
    return out
