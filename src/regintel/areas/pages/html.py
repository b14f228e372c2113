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

from . import i18n


def _environment(lang: str) -> Environment:
    """One environment per language, with its catalog installed (newstyle gettext: autoescaped, `%(name)s`
    placeholders filled by keyword), so a render never switches a shared translation."""
    env = Environment(
        loader=PackageLoader("regintel.areas.pages", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=False,
        lstrip_blocks=False,
        extensions=["jinja2.ext.i18n"],
    )
    # mypy, ignored below: the i18n extension adds this method to the environment at run time
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


ENVS: dict[str, Environment] = {lang: _environment(lang) for lang in i18n.LANGS}
ENV = ENVS["en"]
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


for _env in ENVS.values():
    _env.globals.update(css=CSS, money=money, fmt=fmt, lang_names=i18n.NAMES)


def compile_templates() -> int:
    """Compile every page template of every language now (at start-up), not in the first request that
    renders it: a template and the base it extends cost tens of ms to compile (docs/pages.md, "First
    renders")."""
    names = [n for n in ENV.list_templates() if n.endswith(".html")]
    for env in ENVS.values():
        for name in names:
            env.get_template(name)
    return len(names) * len(ENVS)


def page(
    name: str,
    *,
    lang: str = "en",
    cache: str = PAGE_CACHE,
    status_code: int = 200,
    by_header: bool = False,
    **context: Any,
) -> HTMLResponse:
    """A page in `lang`; `by_header`: the language came from Accept-Language, so caches must key on it."""
    html = ENVS[lang].get_template(name).render(lang=lang, **context)
    headers = {
        "Cache-Control": cache,
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Content-Language": lang,
    }
    if by_header:
        headers["Vary"] = "Accept-Language"
    return HTMLResponse(html, status_code=status_code, headers=headers)


def json_ld(data: dict[str, Any]) -> str:
    """JSON for a `<script type="application/ld+json">` block: `<`, `>` and `&` escaped so that no value can
    close the element."""
    text = json.dumps(data, ensure_ascii=False, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
