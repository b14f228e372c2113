"""Documentation: the OpenAPI document, its catalogues, a Postman collection and the HTML docs
(spec 4.5, 4.7).

Everything here is derived from `app.openapi()`, so a new operation shows up in every description at
once. Derived documents are built once per app and kept on `app.state`: the routes cannot change
while the app runs.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from jinja2 import Environment, PackageLoader
from pydantic import BaseModel, Field

from regintel.api.deps import PublicLimit, ReadConn, public_base
from regintel.api.envelope import Envelope, dumps, ok
from regintel.api.openapi import list_operations
from regintel.api.postman_samples import sample_values, unavailable_paths
from regintel.api.quickstart import build_examples
from regintel.api.routing import StrictRoute
from regintel.errors import NotFound
from regintel.render.postman import to_postman

router = APIRouter(prefix="/api/v1", tags=["Documentation"], route_class=StrictRoute)

# Spec 8 gives landing pages and data-sources 30 minutes; the descriptions change only on deploy.
DOC_CACHE = {"Cache-Control": "public, max-age=1800"}
ASSET_CACHE = {"Cache-Control": "public, max-age=86400"}
# Swagger UI 5 (OpenAPI 3.1 capable), shipped inside the fastapi-offline wheel: no CDN at run time.
SWAGGER_STATIC = Path(str(files("fastapi_offline") / "static"))
SWAGGER_ASSETS = {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}
OWN_ASSETS = {"swagger-init.js"}

templates = Environment(
    loader=PackageLoader("regintel.api", "templates"), autoescape=True, trim_blocks=True, lstrip_blocks=True
)
_JSON_DOC: dict[int | str, dict[str, Any]] = {
    200: {"description": "The document", "content": {"application/json": {"schema": {"type": "object"}}}}
}
_HTML: dict[int | str, dict[str, Any]] = {
    200: {"description": "An HTML page", "content": {"text/html": {"schema": {"type": "string"}}}}
}


class EndpointOut(BaseModel):
    method: str = Field(description="HTTP method, upper case")
    path: str = Field(description="Path template, placeholders in braces")
    tag: str = Field(description="Endpoint group")
    auth: Literal["key", "public"] = Field(description="`key` needs an API key; `public` needs none")
    summary: str


def _memo(app: FastAPI, name: str, build: Callable[[], Any]) -> tuple[Any, bool]:
    """`build()` once per app; returns (value, came_from_cache)."""
    cache: dict[str, Any] | None = getattr(app.state, "docs_cache", None)
    if cache is None:
        cache = app.state.docs_cache = {}
    if name in cache:
        return cache[name], True
    if len(cache) >= 32:  # names carry the Host a request named: keep a stream of odd hosts bounded
        cache.clear()
    cache[name] = value = build()
    return value, False


def _root(request: Request) -> str:
    return str(request.scope.get("root_path", "")).rstrip("/")


@router.get(
    "/public/openapi.json",
    dependencies=[PublicLimit],
    response_class=Response,
    responses=_JSON_DOC,
    summary="OpenAPI 3.1 description",
    description="This document: OpenAPI 3.1.0, API version 1.0.0, with the `bearerAuth` and "
    "`apiKeyQuery` schemes on the operations that need a key. Served as the document itself, "
    "not in the envelope, so that tools can read it directly.",
)
def openapi_json(request: Request) -> Response:
    base = public_base(request)
    body, _ = _memo(request.app, f"openapi {base}", lambda: dumps(_served(request.app.openapi(), base)))
    return Response(body, media_type="application/json", headers=DOC_CACHE)


def _served(doc: dict[str, Any], base: str) -> dict[str, Any]:
    """The document with the address it is served from as its server (`REGINTEL_BASE_URL` when
    configured), so that "try it out" and generated clients reach this service on any host or port."""
    return {**doc, "servers": [{"url": base}]}


@router.get(
    "/public/postman.json",
    dependencies=[PublicLimit],
    response_class=Response,
    responses=_JSON_DOC,
    summary="Postman collection 2.1",
    description="A Postman Collection v2.1 generated from the OpenAPI document: one folder per "
    "tag, `{{baseUrl}}` and `{{apiKey}}` collection variables, bearer auth inherited by keyed "
    "requests and `noauth` on public ones. Import it in Postman or run it with Newman.",
)
def postman_json(request: Request, conn: ReadConn) -> Response:
    base = public_base(request)
    samples = sample_values(conn)  # identifiers of this server's data fill the variables (issue 16)
    missing = unavailable_paths(conn, samples)
    body, _ = _memo(
        request.app,
        f"postman {base} {sorted(samples.items())} {sorted(missing.items())}",
        lambda: dumps(to_postman(_served(request.app.openapi(), base), samples, missing)),
    )
    return Response(body, media_type="application/json", headers=DOC_CACHE)


@router.get(
    "/public/endpoints",
    dependencies=[PublicLimit],
    response_model=Envelope[list[EndpointOut]],
    summary="Catalogue of endpoints",
    description="Every operation of this server: method, path, group (`tag`), `auth` (`key` or "
    "`public`) and summary, ordered by group. Optional filters `tag` and `auth`. "
    "`meta.total` counts the operations returned.",
)
def endpoints(
    request: Request,
    tag: Annotated[str | None, Query(description="Only this group (exact name)")] = None,
    auth: Annotated[Literal["key", "public"] | None, Query(description="Only this kind")] = None,
) -> Response:
    ops, cached = _memo(request.app, "operations", lambda: list_operations(request.app.openapi()))
    rows = [
        {"method": o.method, "path": o.path, "tag": o.tag, "auth": o.auth, "summary": o.summary}
        for o in ops
        if (tag is None or o.tag == tag) and (auth is None or o.auth == auth)
    ]
    return ok(request, rows, cached=cached, headers=DOC_CACHE, total=len(rows))


@router.get(
    "/public/swagger",
    dependencies=[PublicLimit],
    response_class=HTMLResponse,
    responses=_HTML,
    summary="Interactive documentation",
    description="Swagger UI over `/api/v1/public/openapi.json`, served entirely from this server "
    "(no outside scripts, styles or fonts). Use *Authorize* to try keyed operations.",
)
def swagger(request: Request) -> HTMLResponse:
    root = _root(request)
    base_url = request.app.state.settings.base_url
    html = templates.get_template("swagger.html").render(
        root=root,
        openapi_url=f"{root}/api/v1/public/openapi.json",
        assets=f"{root}/api/v1/public/swagger-assets",
    )
    return HTMLResponse(html, headers=DOC_CACHE | {"Content-Security-Policy": _swagger_csp(base_url)})


def _swagger_csp(base_url: str) -> str:
    """Only our own origin (and the configured API origin, for *Try it out*) may be contacted."""
    origin = "/".join(base_url.split("/")[:3]) if "://" in base_url else ""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"img-src 'self' data:; font-src 'self' data:; connect-src 'self' {origin}".strip()
        + "; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
    )


@router.get("/public/swagger-assets/{name}", dependencies=[PublicLimit], include_in_schema=False)
def swagger_asset(name: str) -> Response:
    """Static files of the interactive documentation (a fixed list; nothing else is readable)."""
    if name in SWAGGER_ASSETS:
        return FileResponse(SWAGGER_STATIC / name, headers=ASSET_CACHE)
    if name in OWN_ASSETS:
        body = templates.get_template(name).render()
        return Response(body, media_type="text/javascript; charset=utf-8", headers=ASSET_CACHE)
    raise NotFound(f"No documentation asset named {name!r}")


@router.get(
    "/docs",
    response_class=HTMLResponse,
    responses=_HTML,
    summary="HTML API catalogue",
    dependencies=[PublicLimit],
    description="Every operation of this server grouped by endpoint group, with its method, "
    "path, whether it needs a key, summary and description, and links to the machine-readable "
    "descriptions. Public: the catalogue of an API is how a newcomer learns what it offers.",
)
def docs_catalogue(request: Request) -> HTMLResponse:
    doc = request.app.openapi()
    ops = list_operations(doc)
    tags = [
        {
            "name": t["name"],
            "description": t.get("description", ""),
            "operations": [o for o in ops if o.tag == t["name"]],
        }
        for t in doc.get("tags", [])
    ]
    tags += [{"name": "Other", "description": "", "operations": [o for o in ops if o.tag == "Other"]}]
    html = templates.get_template("catalogue.html").render(
        root=_root(request),
        title=doc["info"]["title"],
        version=doc["info"]["version"],
        tags=[t for t in tags if t["operations"]],
        total=len(ops),
    )
    return HTMLResponse(html, headers={"Cache-Control": "public, max-age=300"})


@router.get(
    "/docs/quickstart",
    response_class=HTMLResponse,
    responses=_HTML,
    summary="Quickstart with examples in 4 languages",
    dependencies=[PublicLimit],
    description="How to get a key and make the first calls (`/me`, a company lookup, code "
    "lists) in curl, Python (httpx), JavaScript (fetch) and PHP (curl), with this server's "
    "base address filled in. Public.",
)
def docs_quickstart(request: Request) -> HTMLResponse:
    ops = list_operations(request.app.openapi())
    html = templates.get_template("quickstart.html").render(
        root=_root(request),
        base_url=public_base(request),
        examples=build_examples({(o.method, o.path) for o in ops}),
    )
    return HTMLResponse(html, headers={"Cache-Control": "public, max-age=300"})
