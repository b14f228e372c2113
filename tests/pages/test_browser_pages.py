"""Every page type in a real browser: Playwright driving Debian's Chromium (`executable_path`, never a browser
download) against uvicorn on 127.0.0.1. Each page renders, logs no console error (a CSP violation is one),
requests nothing from another host, and axe-core (from the npm registry, `tests/pages/axe/`) finds no
violation of serious or critical impact. Screenshots go to `tmp_path` and to $REGINTEL_SCREENSHOT_DIR."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from regintel.areas.pages.queries import refresh_contract_totals
from tests.pages.conftest import store_check
from tests.pages.test_public_contracts import _load_contracts

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
AXE_DIR = Path(__file__).with_name("axe")
AXE = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is a test dependency (pip install -e '.[test]')"
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")

PAGES = {
    "landing": "/",
    "company-slovnaft": "/firma/sk/31322832",
    "largest": "/najvacsie-firmy",
    "public-contracts": "/rebricky/public-contracts",
    "shell-addresses": "/rebricky/shell-addresses?lang=en",
    "most-viewed": "/rebricky/most-viewed?lang=en",
    "directory": "/firmy/sk",
    "coverage": "/coverage",
    "heatmap": "/heatmap",
    "regions": "/firmy-kraj",
    "technologies": "/technologies",
    "topic": "/api/v1/public/nis2-checker?lang=en",
    "topic-sk": "/api/v1/public/sanctions-screening",
    "country-landing": "/api/v1/public/firmy-sk",
    "policy": "/api/v1/public/privacy?lang=en",
    "privacy-request": "/api/v1/public/privacy-request",
    "badge-generator": "/badge-generator?cc=sk&ico=31322832",
    "compare": "/api/v1/public/compare?companies=sk:31322832,cz:00177041",
    # Slovak by `?lang=`; without it the browser's Accept-Language (Chromium's en-US here) picks English
    "company-sk": "/firma/sk/31322832?lang=sk",
    "largest-sk": "/najvacsie-firmy?lang=sk",
    "directory-sk": "/firmy/sk?lang=sk",
    "coverage-sk": "/coverage?lang=sk",
    "badge-generator-sk": "/badge-generator?cc=sk&ico=31322832&lang=sk",
}
BOTH = ("company", "largest", "directory", "coverage", "badge-generator")
LANG = {("company-slovnaft" if n == "company" else n): "en" for n in BOTH} | {f"{n}-sk": "sk" for n in BOTH}


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core as npm installs it: `npm ci` here when node_modules is missing (skips only without npm)."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: axe-core cannot be installed (apt-get install npm)")
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=AXE_DIR, check=True, timeout=300, capture_output=True
        )
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def browser(tmp_path):
    with sync_api.sync_playwright() as p:
        # A fresh profile per test: launch_persistent_context is how Playwright takes a --user-data-dir.
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            viewport={"width": 1200, "height": 900},
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield context
        context.close()


def _keep(path: Path) -> None:
    target = os.environ.get("REGINTEL_SCREENSHOT_DIR")
    if target:
        shutil.copy(path, Path(target) / path.name)


def _visit(browser, base: str, path: str, width: int = 1200):
    """Open a page; returns (page, console errors, requests to other hosts). Foreign requests are aborted."""
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    errors: list[str] = []
    foreign: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def route(r):
        if urlsplit(r.request.url).hostname in ("127.0.0.1", None) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            foreign.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    response = page.goto(base + path, wait_until="networkidle")
    assert response is not None and response.status == 200, (path, response and response.status)
    return page, errors, foreign


def _serious(page, axe_source: str) -> list[dict]:
    page.evaluate(axe_source)  # evaluated over the DevTools protocol: the pages' CSP allows no script
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture
def data(engine):
    _load_contracts(engine)
    with engine.begin() as conn:
        refresh_contract_totals(conn, datetime.now(UTC))
    store_check(
        engine,
        "SK",
        "31322832",
        "www.slovnaft.sk",
        80,
        signals=[("technology", "WordPress", "CMS"), ("technology", "Nginx", "Web server")],
    )


def test_every_page_type_in_the_browser(server, browser, axe_source, data, tmp_path):
    """One server and one browser for all page types (each start costs seconds on a shared machine); every
    page's problems are collected, so one failure names them all."""
    problems: dict[str, object] = {}
    for name, path in PAGES.items():
        page, errors, foreign = _visit(browser, server, path)
        found = {
            "h1": page.locator("h1").first.inner_text().strip() != "",
            "console": errors,
            "foreign requests": foreign,
            "axe serious/critical": _serious(page, axe_source),
            "lang": page.evaluate("document.documentElement.lang"),
        }
        if name in LANG and found["lang"] != LANG[name]:
            problems[name] = found
        if not found["h1"] or errors or foreign or found["axe serious/critical"]:
            problems[name] = found
        shot = tmp_path / f"pages-{name}.png"
        page.screenshot(path=str(shot), full_page=False)
        _keep(shot)
        page.close()
    assert problems == {}


def test_narrow_screen_has_no_horizontal_scroll(server, browser, data):
    for path in ("/", "/heatmap", "/api/v1/public/nis2-checker", "/firma/sk/31322832"):
        page, errors, _ = _visit(browser, server, path, width=380)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (path, overflow)
        page.close()


@pytest.mark.parametrize(
    "locale, path, lang, heading",
    [
        ("en-GB", "/firma/sk/31322832", "en", "Register record"),
        ("sk-SK", "/coverage", "sk", "Pokrytie"),
        ("sk-SK", "/badge-generator", "sk", "Generátor odznakov"),
    ],
)
def test_the_browser_language_picks_the_page_language(server, tmp_path, locale, path, lang, heading):
    """Chromium started with a locale sends it as Accept-Language; pages without `?lang=` follow it."""
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            locale=locale,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        try:
            page = context.new_page()
            response = page.goto(server + path, wait_until="networkidle")
            assert response is not None and response.status == 200
            assert page.evaluate("document.documentElement.lang") == lang
            assert heading in page.locator("main").inner_text()
            shot = tmp_path / f"pages-{locale}-{path.strip('/').replace('/', '-')}.png"
            page.screenshot(path=str(shot))
            _keep(shot)
        finally:
            context.close()
