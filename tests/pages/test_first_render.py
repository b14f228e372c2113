"""What a new process does once is done at start-up, not in its first request: FastAPI's route contexts
(about 1 s of CPU for the whole app when a request first walks the routers), the pages' templates, the region
maps, and the process's first full garbage collection."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

import fastapi.routing
from fastapi.testclient import TestClient

from regintel.api.app import create_app
from regintel.areas.pages import html, regions


def test_first_request_builds_no_route(settings, monkeypatch):
    built: list[str] = []
    original = fastapi.routing._EffectiveRouteContext.from_api_route

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        context = original(*args, **kwargs)
        built.append(kwargs["original_route"].path)
        return context

    monkeypatch.setattr(fastapi.routing._EffectiveRouteContext, "from_api_route", staticmethod(counting))
    with TestClient(create_app(settings.model_copy(update={"warm_start": True}))) as client:
        at_start = len(built)
        assert at_start > 200  # every route of every router, while the app starts
        assert client.get("/coverage.json").status_code == 200
        assert client.get("/api/v1/public/nis2-checker?lang=en").status_code == 200
        assert len(built) == at_start  # the first requests found them built


def test_templates_are_compiled_at_start_up(settings):
    for env in html.ENVS.values():
        env.cache.clear()  # type: ignore[union-attr]
    with TestClient(create_app(settings.model_copy(update={"warm_start": True}))):
        names = [n for n in html.ENV.list_templates() if n.endswith(".html")]
        for env in html.ENVS.values():
            assert {key[1] for key in env.cache} >= set(names)  # type: ignore[union-attr]


def test_start_up_compiles_a_company_check(settings, companies, engine):
    """One company's check is built at start-up (service.warm_queries), so the statements of the check,
    the page, the badges and the image are compiled before the first request."""
    from regintel.areas.pages import service

    with TestClient(create_app(settings.model_copy(update={"warm_start": True}))) as client:
        cache = client.app.state.engine._compiled_cache  # type: ignore[attr-defined]
        warmed = len(cache)
        assert warmed > 5
        assert client.get("/api/v1/public/check/12345679.json?country=sk").status_code == 200
        assert len(cache) - warmed <= 1  # at most one statement of another company's check is new
    assert service.warm_queries(engine) is True


def test_start_up_without_companies(settings, engine):
    from regintel.areas.pages import service

    assert service.warm_queries(engine) is False
    with TestClient(create_app(settings.model_copy(update={"warm_start": True}))) as client:
        assert client.get("/coverage.json").status_code == 200


def test_maps_are_prepared_at_start_up_as_text(settings):
    regions.prepared.cache_clear()
    with TestClient(create_app(settings.model_copy(update={"warm_start": True}))) as client:
        assert regions.prepared.cache_info().currsize == 1
        misses = regions.prepared.cache_info().misses
        assert client.get("/heatmap").status_code == 200
        assert client.get("/maps/nuts3.geojson").status_code == 200
        assert regions.prepared.cache_info().misses == misses
    # what stays is text: the parsed geometry (about 17,000 lists the collector tracks) is gone
    assert len(regions.geometry()) == 254 and sum(1 for _ in _tracked(regions.geometry())) > 15_000
    regions.prepared.cache_clear()
    before = len(gc.get_objects())
    regions.prepared()
    assert len(gc.get_objects()) - before < 1_000


def _tracked(value):  # type: ignore[no-untyped-def]
    if gc.is_tracked(value):
        yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _tracked(item)
    elif isinstance(value, list):
        for item in value:
            yield from _tracked(item)


# A new process (the test's own has run collections of its own): start the app as `regintel serve` does,
# then count the full collections its first requests run.
FIRST_REQUESTS = """
import gc, json, sys
from fastapi.testclient import TestClient
from regintel.api.app import create_app
from regintel.config import Settings
full = []
with TestClient(create_app(Settings(warm_start=True, rate_limit_storage="memory"))) as client:
    gc.callbacks.append(lambda phase, info: phase == "start" and info["generation"] == 2 and full.append(1))
    codes = [client.get(path).status_code for path in sys.argv[1:]]
    gc.callbacks.clear()
print(json.dumps({"codes": codes, "full": len(full)}))
"""


def test_first_requests_run_no_full_collection(settings, companies, tmp_path):
    """Start-up leaves about 360,000 objects no full collection has counted; the one that counts them (150-200
    ms of CPU) runs at start-up, not in the first heat map or map, whose geometry tipped it there."""
    paths = ["/heatmap", "/maps/nuts3.geojson", "/heatmap?country=fr", "/maps/nuts3-fr.geojson", "/coverage"]
    env = os.environ | {
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(tmp_path / "d"),
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    out = subprocess.run(
        [sys.executable, "-c", FIRST_REQUESTS, *paths], env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"codes": [200] * len(paths), "full": 0}
