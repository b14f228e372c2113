"""What a new process does once is done at start-up, not in its first request: FastAPI's route contexts
(about 1 s of CPU for the whole app when a request first walks the routers) and the pages' templates."""

from __future__ import annotations

import fastapi.routing
from fastapi.testclient import TestClient

from regintel.api.app import create_app
from regintel.areas.pages import html


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
