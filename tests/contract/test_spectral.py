"""The served OpenAPI document under Spectral's `spectral:oas` ruleset (issue 16): no error, no warning,
no hint. Runs when npm is present (Spectral is installed into tests/contract/.npm), skips otherwise."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.contract.npm_tools import npm_tool

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("REGINTEL_TEST_POSTGRES_URL")),
    reason="the document does not depend on the backend: SQLite only",
)


def test_spectral_oas_finds_nothing_in_the_served_document(served: str, tmp_path: Path) -> None:
    spectral = npm_tool("spectral")
    document = tmp_path / "openapi.json"
    document.write_bytes(httpx.get(f"{served}/api/v1/public/openapi.json", timeout=60).content)
    ruleset = tmp_path / ".spectral.yaml"
    ruleset.write_text('extends: ["spectral:oas"]\n')
    done = subprocess.run(
        [
            str(spectral),
            "lint",
            str(document),
            "--ruleset",
            str(ruleset),
            "--format",
            "json",
            "--fail-severity",
            "hint",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    findings = json.loads(done.stdout or "[]")
    assert findings == [], "\n".join(
        f"{f['severity']} {f['code']} at {'.'.join(map(str, f['path']))}: {f['message']}"
        for f in findings[:40]
    )
    assert done.returncode == 0, done.stderr[-1000:]
