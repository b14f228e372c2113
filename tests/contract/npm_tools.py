"""Node tools the contract tests run (Spectral, newman), installed with npm into a cache folder of this
directory that git ignores; a test skips, saying why, when npm is missing or cannot install."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CACHE = Path(__file__).parent / ".npm"
# Pinned majors: the rulesets and report formats the tests read are those of these versions.
PACKAGES = {"spectral": "@stoplight/spectral-cli@6", "newman": "newman@6"}


def npm_tool(name: str) -> Path:
    """The path of the tool's executable, installing it first when the cache lacks it."""
    binary = CACHE / "node_modules" / ".bin" / name
    if binary.exists():
        return binary
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not installed, so {PACKAGES[name]} cannot be installed to run this check")
    CACHE.mkdir(exist_ok=True)
    try:
        done = subprocess.run(
            [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", PACKAGES[name]],
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"npm install {PACKAGES[name]} took more than 10 minutes (no registry reachable?)")
    if done.returncode != 0 or not binary.exists():
        pytest.skip(f"npm install {PACKAGES[name]} failed (no registry reachable?): {done.stderr[-500:]}")
    return binary
