"""Jinja2 rendering of the area's pages: one base template, autoescaped, one inline stylesheet allowed by
its hash in a strict Content-Security-Policy (no script runs on these pages)."""

from __future__ import annotations

import base64
import hashlib
import json
from decimal import Decimal
from importlib.resources import files
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

ENV = Environment(
    loader=PackageLoader("regintel.areas.pages", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=False,
    lstrip_blocks=False,
)
CSS = (files("regintel.areas.pages") / "templates" / "pages.css").read_text("utf-8")
CSS_HASH = base64.b64encode(hashlib.sha256(CSS.encode()).digest()).decode()
CSP = (
    "default-src 'none'; img-src 'self' data:; style-src 'sha256-" + CSS_HASH + "'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'; report-uri /csp-report"
)
PAGE_CACHE = "public, max-age=1800"  # spec 8: landing pages, 30 min


def money(value: Any) -> str:
    if value is None:
        return "—"
    return f"{float(value):,.0f}".replace(",", "\u202f")


def fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | Decimal):
        return (
            money(value)
            if abs(float(value)) >= 10_000
            else (f"{value}" if isinstance(value, int) else f"{float(value):,.2f}")
        )
    return str(value)


ENV.globals.update(css=CSS, money=money, fmt=fmt)


def page(name: str, *, cache: str = PAGE_CACHE, status_code: int = 200, **context: Any) -> HTMLResponse:
    html = ENV.get_template(name).render(**context)
    return HTMLResponse(
        html,
        status_code=status_code,
        headers={
            "Cache-Control": cache,
            "Content-Security-Policy": CSP,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "strict-origin-when-cross-origin",
        },
    )


def json_ld(data: dict[str, Any]) -> str:
    """JSON for a `<script type="application/ld+json">` block: `<`, `>` and `&` escaped so that no value can
    close the element."""
    text = json.dumps(data, ensure_ascii=False, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
