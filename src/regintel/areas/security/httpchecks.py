"""The HTTP half of a passive check (httpx): the security headers of the HTTPS home page, whether plain
HTTP redirects to HTTPS, and what the page shows for the brand signals (headers, cookies, `<meta>`,
`<script src>`).

Requests go to the checked address with the host name as `Host` and TLS server name; redirects are never
followed (the next hop would be an unchecked address); at most 256 KB of the page is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from regintel import __version__
from regintel.areas.security.findings import Finding, finding
from regintel.areas.security.tlschecks import permissive_context

MAX_BODY = 256 * 1024
USER_AGENT = f"regintel-posture/{__version__} (passive check; docs/security-posture.md)"
MIN_HSTS = 180 * 24 * 3600


@dataclass
class HttpFacts:
    https_status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    cookies: list[str] = field(default_factory=list)
    body: str = ""
    http_status: int | None = None
    http_location: str | None = None
    errors: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        keep = (
            "strict-transport-security",
            "content-security-policy",
            "x-content-type-options",
            "x-frame-options",
            "referrer-policy",
            "permissions-policy",
            "server",
            "x-powered-by",
        )
        return {
            "httpsStatus": self.https_status,
            "headers": {k: v for k, v in self.headers.items() if k in keep},
            "httpStatus": self.http_status,
            "httpLocation": self.http_location,
            "errors": self.errors,
        }


def _get(client: httpx.Client, url: httpx.URL, host: str, port: int, ip: str) -> tuple[httpx.Response, bytes]:
    default = 443 if url.scheme == "https" else 80
    headers = {
        "host": host if port == default else f"{host}:{port}",
        "user-agent": USER_AGENT,
        "accept": "text/html,*/*;q=0.5",
    }
    extensions = {"sni_hostname": host} if url.scheme == "https" else {}
    request = client.build_request(
        "GET", url.copy_with(host=ip, port=port), headers=headers, extensions=extensions
    )
    response = client.send(request, stream=True)
    try:
        body = b""
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) >= MAX_BODY:
                break
        return response, body[:MAX_BODY]
    finally:
        response.close()


def probe(ip: str, host: str, https_port: int, http_port: int, timeout: float, https: bool) -> HttpFacts:
    facts = HttpFacts()
    insecure = permissive_context()  # the certificate and protocols are judged by the TLS check
    with httpx.Client(
        verify=insecure, timeout=httpx.Timeout(timeout), follow_redirects=False, trust_env=False
    ) as client:
        if https:
            try:
                response, body = _get(client, httpx.URL(f"https://{host}/"), host, https_port, ip)
                facts.https_status = response.status_code
                facts.headers = {k.lower(): v for k, v in response.headers.items()}
                facts.cookies = sorted(
                    {c.split("=", 1)[0].strip() for c in response.headers.get_list("set-cookie")}
                )
                facts.body = body.decode(response.encoding or "utf-8", "replace")
            except httpx.HTTPError as exc:
                facts.errors["https"] = f"{type(exc).__name__}: {exc}"[:300]
        try:
            response, _ = _get(client, httpx.URL(f"http://{host}/"), host, http_port, ip)
            facts.http_status, facts.http_location = response.status_code, response.headers.get("location")
        except httpx.HTTPError as exc:
            facts.errors["http"] = f"{type(exc).__name__}: {exc}"[:300]
    return facts


def _hsts_max_age(value: str) -> int | None:
    for part in value.split(";"):
        name, _, number = part.strip().partition("=")
        if name.strip().lower() == "max-age":
            try:
                return int(number.strip().strip('"'))
            except ValueError:
                return None
    return None


def judge(facts: HttpFacts) -> list[Finding]:
    out: list[Finding] = []
    h = facts.headers
    if facts.https_status is not None:
        hsts = h.get("strict-transport-security")
        if hsts is None:
            out.append(finding("hsts_missing", "the HTTPS answer has no Strict-Transport-Security header"))
        elif (age := _hsts_max_age(hsts)) is None or age < MIN_HSTS:
            out.append(finding("hsts_short", f"HSTS max-age {age if age is not None else '(missing)'}", hsts))
        csp = h.get("content-security-policy", "")
        if not csp:
            out.append(finding("csp_missing", "the HTTPS answer has no Content-Security-Policy header"))
        if h.get("x-content-type-options", "").strip().lower() != "nosniff":
            out.append(finding("xcto_missing", "X-Content-Type-Options is not `nosniff`"))
        if "x-frame-options" not in h and "frame-ancestors" not in csp.lower():
            out.append(finding("frame_protection_missing", "neither X-Frame-Options nor CSP frame-ancestors"))
        server = h.get("server", "") + " " + h.get("x-powered-by", "")
        if any(ch.isdigit() for ch in server):
            out.append(
                finding("server_version_disclosed", "the answer names software versions", server.strip())
            )
    if facts.http_status is not None:
        location = facts.http_location or ""
        if not (300 <= facts.http_status < 400 and location.lower().startswith("https://")):
            out.append(
                finding(
                    "http_not_redirected",
                    f"http:// answers {facts.http_status}"
                    + (f" to {location}" if location else " without a redirect to https://"),
                )
            )
    return out
