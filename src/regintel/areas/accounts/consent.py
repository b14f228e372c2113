"""The OAuth consent step as a server-rendered page (docs/accounts.md, "OAuth 2.1"): what a browser gets at
`GET /oauth/authorize` (the API answers JSON to other clients). The page names the client, says whether
anyone checked that name, lists what the scope allows and where the browser goes next, and posts an
ordinary form back (no script needed) carrying the session's CSRF token as a field, because a plain form
cannot send the `X-CSRF-Token` header.

The page must not be framed (a consent button in someone else's frame is clickjacking), is never cached,
sends no referrer to other origins (the query holds the PKCE challenge and state; `same-origin` rather than
`no-referrer`, under which Chromium sends `Origin: null` with the form and the origin check refuses it), and
its CSP lets the form go to this service and to the client's redirect origin only (Chromium checks
`form-action` on the redirect that follows the form, too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from fastapi.responses import HTMLResponse
from jinja2 import Environment, select_autoescape

# What the one scope lets a client do, in words for the person deciding.
SCOPES = {
    "api": "Call the regintel API and the MCP server as you, with your account's plan: its rate limits "
    "and monthly quota count what the application uses. It cannot see or change your keys, watches, "
    "billing or sign-in methods.",
}

_ENV = Environment(autoescape=select_autoescape(default=True, default_for_string=True))

STYLE = """
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
.warn{background:#fff8c5;border:1px solid #d4a72c;padding:.75rem;border-radius:6px}
.buttons{display:flex;gap:1rem;margin-top:1.5rem;flex-wrap:wrap}
button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:1px solid #1b1f24;cursor:pointer}
button[value=approve]{background:#0a5c2e;color:#fff;border-color:#0a5c2e}
button[value=deny]{background:#fff;color:#1b1f24}
button:focus-visible{outline:3px solid #0550ae;outline-offset:2px}
code{overflow-wrap:anywhere}
"""

# The head of the account area's own pages (this consent page and link_pages.py's), which set `title`
# and `style`.
PAGE_HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>{{ title }} · regintel</title><style>{{ style }}</style></head>
<body><main>
"""

_PAGE = _ENV.from_string(
    PAGE_HEAD
    + """{% if consent %}
<h1>Allow {{ consent.client_name }} to use your regintel account?</h1>
<p>You are signed in as <strong>{{ email }}</strong>.</p>
{% if consent.registration == "dynamic" %}
<p class="warn" role="note"><strong>Unverified name.</strong> This application registered itself: nobody
has checked that it is what its name says. Allow it only if you started this from an application you
trust.</p>
{% endif %}
<h2>It will be able to</h2>
<ul>{% for scope, text in scopes %}<li><code>{{ scope }}</code>: {{ text }}</li>{% endfor %}</ul>
<h2>Then you go back to</h2>
<p><code>{{ consent.redirect_uri }}</code></p>
<form method="post" action="{{ action }}">
<input type="hidden" name="csrf_token" value="{{ csrf }}">
<div class="buttons" role="group" aria-label="Your decision">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p>You can withdraw this later: revoking the client on your account page ends every token it holds.</p>
{% else %}
<h1>{{ title }}</h1>
<p>{{ message }}</p>
{% endif %}
</main></body></html>
"""
)


def wants_html(accept: str) -> bool:
    """A browser navigating here (its Accept names HTML); API clients and `*/*` get JSON."""
    return "text/html" in accept.lower()


def _headers(form_to: str | None) -> dict[str, str]:
    targets = "'self'" + (f" {form_to}" if form_to else "")
    return {
        "Cache-Control": "no-store",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
        "Content-Security-Policy": f"default-src 'none'; style-src 'unsafe-inline'; form-action {targets}; "
        "frame-ancestors 'none'; base-uri 'none'",
    }


def _origin(uri: str | None) -> str | None:
    parts = urlsplit(uri or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


def page(consent: Mapping[str, Any], email: str, csrf: str, action: str) -> HTMLResponse:
    """The consent page for a validated request (`oauth.validate`'s details)."""
    body = _PAGE.render(
        title=f"Allow {consent['client_name']}?",
        style=STYLE,
        consent=consent,
        email=email,
        csrf=csrf,
        action=action,
        scopes=[(s, SCOPES.get(s, s)) for s in str(consent["scope"]).split()],
    )
    return HTMLResponse(body, headers=_headers(_origin(consent.get("redirect_uri"))))


def message(title: str, text: str, status: int) -> HTMLResponse:
    """A page instead of the JSON error, for a browser (not signed in, a request that does not validate)."""
    body = _PAGE.render(title=title, style=STYLE, consent=None, message=text)
    return HTMLResponse(body, status_code=status, headers=_headers(None))
