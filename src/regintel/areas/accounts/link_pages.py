"""The pages the e-mailed links open (docs/accounts.md, "Links in e-mails"): the sign-in link, the lead and
newsletter confirmations and the privacy-request verification. Each route that takes `{"token"}` in a POST
also answers a GET with this page, and the mails link to that GET with the token in the query.

Opening the link changes nothing: the page asks the person to press a button, which posts the token to the
same path (mail scanners and link previews open links, and some run their scripts, so acting on the GET
itself would spend a single-use sign-in link or confirm an address nobody confirmed). The script is the
page's only one and is allowed by its hash; the page is never cached or framed and sends no referrer to
other origins (the query holds the token)."""

from __future__ import annotations

import base64
import hashlib

from fastapi.responses import HTMLResponse
from jinja2 import Environment, select_autoescape

from regintel.areas.accounts.consent import PAGE_HEAD, STYLE

_ENV = Environment(autoescape=select_autoescape(default=True, default_for_string=True))

# Posts {"token"} from the query to this page's own path and shows the answer (an access request's export
# as JSON). Inline and fixed, so its hash is the whole script policy.
_SCRIPT = """
const token = new URLSearchParams(location.search).get("token");
const button = document.getElementById("go"), out = document.getElementById("out");
const data = document.getElementById("data");
if (!token) {
  button.hidden = true;
  out.textContent = "Open the link from your e-mail: this page needs the token it carries.";
}
button.addEventListener("click", async () => {
  button.disabled = true;
  out.textContent = "Working…";
  try {
    const r = await fetch(location.pathname, {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify({token})});
    const j = await r.json();
    if (!r.ok || !j.data) {
      out.textContent = j.error ? j.error.message : "It did not work (HTTP " + r.status + ").";
      button.disabled = false;
      return;
    }
    out.textContent = j.data.message || ("Done: " + j.data.status);
    if (j.data.export) { data.hidden = false; data.textContent = JSON.stringify(j.data.export, null, 2); }
    button.hidden = true;
  } catch (e) {
    out.textContent = "The service did not answer; try again.";
    button.disabled = false;
  }
});
"""
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()

_PAGE = _ENV.from_string(
    PAGE_HEAD
    + """<h1>{{ title }}</h1>
<p>{{ text }}</p>
{% if detail %}<p><strong>{{ detail }}</strong></p>{% endif %}
<div class="buttons"><button type="button" id="go">{{ button }}</button></div>
<p id="out" role="status"></p>
<pre id="data" hidden></pre>
<p>If you did not ask for this, close this page: nothing happens unless you press the button.</p>
</main><script>{{ script | safe }}</script></body></html>
"""
)

# What each link is for: (title, explanation, button).
PAGES = {
    "welcome": (
        "Sign in to regintel",
        "Press the button to sign in in this browser. The link works once, within 15 minutes.",
        "Sign in",
    ),
    "lead": (
        "Confirm your e-mail address",
        "Press the button to confirm that you want to hear from us about regintel.",
        "Confirm",
    ),
    "newsletter": (
        "Confirm your newsletter subscription",
        "Press the button to confirm that you want to receive the regintel newsletter.",
        "Confirm",
    ),
    "privacy": (
        "Confirm your data-protection request",
        "Press the button to confirm that this request is yours. We act on it only once it is confirmed.",
        "Confirm the request",
    ),
}


def page(what: str, detail: str | None = None) -> HTMLResponse:
    """The page of one kind of link (`PAGES`), with a line about this link (`detail`); the token stays in
    the query, read by the script."""
    title, text, button = PAGES[what]
    body = _PAGE.render(title=title, text=text, detail=detail, button=button, style=STYLE, script=_SCRIPT)
    return HTMLResponse(
        body,
        headers={
            "Cache-Control": "no-store",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "same-origin",
            "Content-Security-Policy": f"default-src 'none'; script-src 'sha256-{_SCRIPT_HASH}'; "
            "connect-src 'self'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; "
            "base-uri 'none'",
        },
    )
