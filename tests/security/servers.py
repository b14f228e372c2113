"""Loopback test hosts for the passive security checks: a DNS server (dnspython answering from a zone
dict over UDP on 127.0.0.1), a certificate authority and certificates made with `cryptography`, and
HTTPS / plain-HTTP servers whose TLS versions, certificate and headers each test chooses."""

from __future__ import annotations

import http.server
import socket
import ssl
import threading
import warnings
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dns.flags
import dns.message
import dns.name
import dns.rcode
import dns.rdatatype
import dns.rrset
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

KEY = "AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29euxhJhVVLOyQbSEW0O8gcCjFFVQUTf6v58fLjwBd0YI0EzrAcQqBGCzh/RStIoO8g0NfnfL2MTJRkxoXbfDaUeVPQuYEhg37NZWAJQ9VnMVDxP/VHL496M/QZxkjf5/Efucp2gaDX6RS6CXpoY68LsvPVjR0ZSwzz1apAzvN9dlzEheX7ICJBBtuA6G3LQpzW5hOA2hzCTMjJPJ8LbqF6dsV6DoBQzgul0sGIcGOYl7OyQdXfZ57relSQageu+ipAdTTJ25AsRTAoub8ONGcLmqrAmRLKBP1dfwhYB4N7knNnulqQxA+Uk1ihz0="  # noqa: E501 (a DNSKEY from RFC 4034's example)


class DnsServer:
    """Answers from `records`: {(name, type): [rdata text]}; a name absent from every key is NXDOMAIN."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, str], list[str]] = {}
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.queries: list[tuple[str, str]] = []
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def add(self, name: str, rdtype: str, *values: str) -> None:
        self.records.setdefault((name.lower().rstrip("."), rdtype), []).extend(values)

    def _serve(self) -> None:
        while True:
            try:
                wire, peer = self.sock.recvfrom(4096)
            except OSError:
                return
            query = dns.message.from_wire(wire)
            response = dns.message.make_response(query)
            question = query.question[0]
            name = question.name.to_text().lower().rstrip(".")
            rdtype = dns.rdatatype.to_text(question.rdtype)
            self.queries.append((name, rdtype))
            values = self.records.get((name, rdtype), [])
            if values:
                response.answer.append(dns.rrset.from_text_list(question.name, 300, "IN", rdtype, values))
            elif not any(key[0] == name for key in self.records):
                response.set_rcode(dns.rcode.NXDOMAIN)
            response.flags |= dns.flags.AA
            self.sock.sendto(response.to_wire(), peer)

    def close(self) -> None:
        self.sock.close()


def well_configured(dns_server: DnsServer, domain: str, host: str, address: str = "127.0.0.1") -> None:
    """The records of a domain with nothing to find: MX (Google), SPF -all, DMARC reject, DNSSEC, CAA."""
    dns_server.add(domain, "MX", "1 aspmx.l.google.com.")
    dns_server.add(domain, "TXT", '"v=spf1 include:_spf.google.com -all"', '"google-site-verification=x"')
    dns_server.add(f"_dmarc.{domain}", "TXT", '"v=DMARC1; p=reject; rua=mailto:d@' + domain + '"')
    dns_server.add(domain, "DNSKEY", f"257 3 8 {KEY}")
    dns_server.add(domain, "DS", "60485 8 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A")
    dns_server.add(domain, "CAA", '0 issue "letsencrypt.org"')
    dns_server.add(host, "A", address)


@dataclass
class Authority:
    """A test certificate authority writing leaf certificates to `folder`."""

    folder: Path
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))

    def __post_init__(self) -> None:
        name = x509.Name(
            [
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Regintel Test CA"),
                x509.NameAttribute(NameOID.COMMON_NAME, "Regintel Test Root"),
            ]
        )
        now = datetime.now(UTC)
        self.name = name
        self.cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(self.key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(days=30))
            .not_valid_after(now + timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    key_cert_sign=True,
                    crl_sign=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .sign(self.key, hashes.SHA256())
        )
        self.ca_file = self.folder / "ca.pem"
        self.ca_file.write_bytes(self.cert.public_bytes(serialization.Encoding.PEM))

    def leaf(self, names: list[str], *, days_left: int = 90, self_signed: bool = False) -> tuple[Path, Path]:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
        now = datetime.now(UTC)
        not_after = now + timedelta(days=days_left)
        issuer, signer = (subject, key) if self_signed else (self.name, self.key)
        cert = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(issuer)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(min(now, not_after) - timedelta(days=30))
            .not_valid_after(not_after)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), critical=False)
            .sign(signer, hashes.SHA256())
        )
        stem = self.folder / f"{names[0]}-{days_left}-{int(self_signed)}"
        cert_path, key_path = stem.with_suffix(".crt"), stem.with_suffix(".key")
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        return cert_path, key_path


def _handler(headers: dict[str, str], body: str, status: int) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
            data = body.encode()
            self.send_response(status)
            for name, value in headers.items():
                if name.lower() != "server":  # sent by send_response (version_string)
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return

        def version_string(self) -> str:
            return headers.get("Server", "test")

    return Handler


class WebServer:
    """A threaded HTTP server on 127.0.0.1; with `cert` it speaks TLS (versions `versions`, e.g.
    ("TLSv1", "TLSv1") for TLS 1.0 only)."""

    def __init__(
        self,
        headers: dict[str, str],
        body: str = "",
        status: int = 200,
        cert: tuple[Path, Path] | None = None,
        versions: tuple[str, str] | None = None,
    ):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(headers, body, status))
        self.server.daemon_threads = True
        if cert is not None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(*cert)
            if versions is not None:
                ctx.set_ciphers("ALL:@SECLEVEL=0")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    ctx.minimum_version = getattr(ssl.TLSVersion, versions[0])
                    ctx.maximum_version = getattr(ssl.TLSVersion, versions[1])
            self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
