"""A real browser: Debian's Chromium (headless) against a real uvicorn server on 127.0.0.1, started here.

Screenshots of a company page and of a page of another origin that embeds the widget are written to
`tmp_path` (and to $REGINTEL_SCREENSHOT_DIR when set, which is how docs/screenshots/ was filled). Skips
cleanly when no `chromium` binary is installed (`apt-get install chromium`)."""

from __future__ import annotations

import http.server
import os
import shutil
import struct
import subprocess
import threading
from pathlib import Path

import httpx
import pytest

from tests.pages.conftest import HOSTILE_ID

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")


@pytest.fixture
def other_origin(tmp_path):
    """A static server on another port: another origin, as the site that embeds the widget."""
    root = tmp_path / "site"
    root.mkdir()
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(root), **k)  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        CHROMIUM or "chromium",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--virtual-time-budget=5000",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _keep(path: Path) -> None:
    target = os.environ.get("REGINTEL_SCREENSHOT_DIR")
    if target:
        shutil.copy(path, Path(target) / path.name)


def test_company_page_renders(server, tmp_path):
    url = f"{server}/firma/sk/{HOSTILE_ID}"
    nice = tmp_path / "pages-company-slovnaft.png"
    _chromium(f"--screenshot={nice}", "--window-size=1200,1000", f"{server}/firma/sk/31322832")
    _keep(nice)
    og = tmp_path / "pages-og.png"
    og.write_bytes(httpx.get(f"{server}/api/v1/public/check/31322832/og.png?country=sk").content)
    assert _png_size(og) == (1200, 630)
    _keep(og)
    shot = tmp_path / "pages-company.png"
    _chromium(f"--screenshot={shot}", "--window-size=1200,1500", url)
    assert shot.exists() and _png_size(shot) == (1200, 1500)
    _keep(shot)
    dom = _chromium("--dump-dom", url).stdout
    assert "<h1>&lt;script&gt;alert" in dom  # the hostile name is text in the rendered DOM, never markup
    assert dom.count('<img src="/api/v1/public/check/') == 4
    for name, size in (("pages-landing.png", "1200,1300"), ("pages-largest.png", "1200,900")):
        path = f"/{'' if name == 'pages-landing.png' else 'najvacsie-firmy'}"
        shot = tmp_path / name
        _chromium(f"--screenshot={shot}", f"--window-size={size}", server + path)
        assert shot.exists()
        _keep(shot)


def test_widget_mounts_on_its_origin_only(server, other_origin, make_key, tmp_path):
    root, origin = other_origin
    key = make_key("business")
    token = httpx.post(
        f"{server}/api/v1/widget-token",
        json={"origins": [origin]},
        headers={"Authorization": f"Bearer {key}"},
    ).json()["data"]["token"]
    foreign = httpx.post(
        f"{server}/api/v1/widget-token",
        json={"origins": ["https://elsewhere.example"]},
        headers={"Authorization": f"Bearer {key}"},
    ).json()["data"]["token"]
    (root / "index.html").write_text(
        f"""<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head>
<body style="font-family:sans-serif;padding:24px;background:#fafafa">
<h2>Our suppliers</h2>
<div id="ok" data-regintel-widget data-country="sk" data-ico="31322832" data-token="{token}"></div>
<p>A token issued for another site:</p>
<div id="refused" data-regintel-widget data-country="sk" data-ico="31322832" data-token="{foreign}"></div>
<script src="{server}/api/v1/widget.js?api_key={token}" async></script>
</body></html>""",
        encoding="utf-8",
    )
    dom = _chromium("--dump-dom", f"{origin}/index.html").stdout
    assert 'id="ok" data-regintel-widget="" data-country="sk" data-ico="31322832"' in dom
    assert 'data-regintel-state="ready"' in dom and 'data-regintel-state="error"' in dom
    shot = tmp_path / "pages-widget.png"
    _chromium(f"--screenshot={shot}", "--window-size=900,700", f"{origin}/index.html")
    assert _png_size(shot) == (900, 700)
    _keep(shot)
