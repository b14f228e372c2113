"""The published Postman collection run by newman against a served demo install (issue 16): the folder
of requests that run on their own, its variables filled with the demo's identifiers, answers 2xx; the
Server-Sent Events stream and requests needing earlier answers are in the other folder.
Runs when npm is present (newman is installed into tests/contract/.npm), skips otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from regintel.render.postman import LATER, RUNNABLE, UNAVAILABLE
from tests.contract.conftest import Demo
from tests.contract.npm_tools import npm_tool

# Registers `regintel demo` does not carry: these sections answer the documented 501 NOT_IMPLEMENTED
# naming the register to import (the project's rule for a part that cannot be real on this install), and
# the collection files them apart from the runnable requests.
DEMO_LACKS = ("/executions", "/annual-reports", "/debtors")

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("REGINTEL_TEST_POSTGRES_URL")),
    reason="the collection does not depend on the backend: SQLite only",
)


def _requests(folder: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for item in folder["item"] for r in (_requests(item) if "item" in item else [item])]


def test_the_runnable_folder_answers_2xx(demo: Demo, served: str, tmp_path: Path) -> None:
    newman = npm_tool("newman")
    collection = httpx.get(f"{served}/api/v1/public/postman.json", timeout=60).json()
    folders = {f["name"]: f for f in collection["item"]}
    assert set(folders) == {RUNNABLE, LATER, UNAVAILABLE}
    runnable, later = _requests(folders[RUNNABLE]), _requests(folders[LATER])
    unavailable = _requests(folders[UNAVAILABLE])
    assert sorted(r["request"]["url"]["raw"].rsplit("/", 1)[1] for r in unavailable) == sorted(
        s.strip("/") for s in DEMO_LACKS
    )
    for request in unavailable:  # each says why, and the server answers so
        url = request["request"]["url"]["raw"].replace("{{baseUrl}}", served).replace(":ico", _ico(request))
        answer = httpx.get(url, headers={"Authorization": f"Bearer {demo.key}"}, timeout=60)
        assert answer.status_code == 501, answer.text
        assert answer.json()["error"]["code"] == "NOT_IMPLEMENTED"
        assert request["request"]["description"].startswith("501 on this server: /")
    assert len(runnable) > 150
    # The stream never ends: never in the folder a run goes through.
    assert not any("changes/stream" in r["request"]["url"]["raw"] for r in runnable)
    assert any("changes/stream" in r["request"]["url"]["raw"] for r in later)
    for request in runnable:  # every value filled: no `?type=&value=`, no empty `:ico`
        url = request["request"]["url"]
        assert all(v["value"] for v in url.get("variable", [])), url["raw"]
        assert all(q["value"] for q in url.get("query", []) if not q["disabled"]), url["raw"]
    (tmp_path / "collection.json").write_text(json.dumps(collection))
    report = tmp_path / "report.json"
    started = time.monotonic()
    done = subprocess.run(
        [
            str(newman),
            "run",
            str(tmp_path / "collection.json"),
            "--folder",
            RUNNABLE,
            "--env-var",
            f"apiKey={demo.key}",
            "--timeout-request",
            "30000",
            "--reporters",
            "json",
            "--reporter-json-export",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    elapsed = time.monotonic() - started
    run = json.loads(report.read_text())["run"]
    answers = [
        (e["item"]["name"], e["request"]["method"], _url(e["request"]["url"]), e.get("response", {}))
        for e in run["executions"]
    ]
    assert len(answers) == len(runnable), done.stdout[-2000:]
    not_2xx = [
        f"{r.get('code')} {method} {url}: {_text(r)[:160]}"
        for name, method, url, r in answers
        if not 200 <= (r.get("code") or 0) < 300
    ]
    assert not not_2xx, f"{len(not_2xx)} of {len(answers)} not 2xx:\n" + "\n".join(not_2xx)
    # The "in under a minute" is a measurement, reported in docs/api.md from runs by hand: as an
    # assertion it failed whenever the CI machine was busy (62.8 s once under a load of 13), not the service.
    print(f"newman ran {len(answers)} requests in {elapsed:.1f} s")


def _url(url: dict[str, Any]) -> str:
    query = "&".join(
        f"{q['key']}={q.get('value', '')}" for q in url.get("query", []) if not q.get("disabled")
    )
    return "/" + "/".join(url.get("path", [])) + (f"?{query}" if query else "")


def _text(response: dict[str, Any]) -> str:
    data = response.get("stream", {}).get("data", [])
    return bytes(data).decode("utf-8", "replace") if isinstance(data, list) else ""


def _ico(request: dict[str, Any]) -> str:
    return next(v["value"] for v in request["request"]["url"]["variable"] if v["key"] == "ico")
