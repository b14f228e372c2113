"""OpenRefine Reconciliation Service API 0.2 (spec 4.5 `GET`/`POST /api/v1/reconcile`).

The protocol fixes its own JSON shapes, so these routes answer them bare, not in the envelope; errors
keep the service's `Error` body. The key travels as `?api_key=` (reconciliation clients cannot add
headers), and the manifest carries it into the suggest, preview and extension URLs it names.
"""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import TypeAdapter, ValidationError

from regintel.api.deps import (
    ApiKey,
    AppSettings,
    ReadConn,
    public_base,
    public_limit,
    read_engine,
    require_key,
)
from regintel.api.envelope import dumps
from regintel.api.routers.docs import templates
from regintel.api.routing import StrictRoute
from regintel.api.search_index import SearchIndex, search_backend
from regintel.areas.search import reconcile as svc
from regintel.areas.search.reconcile_props import PROPERTIES
from regintel.areas.search.schemas import (
    EntitySuggestions,
    ExtendAnswer,
    Manifest,
    PropertyProposal,
    PropertySuggestions,
    ReconcileBatch,
    TypeSuggestions,
)
from regintel.areas.search.service import address_text
from regintel.errors import NotFound, ValidationFailed

router = APIRouter(prefix="/api/v1/reconcile", tags=["Reconcile"], route_class=StrictRoute)

# Suggest and preview are called from the browser page of the client.
CORS = {"Access-Control-Allow-Origin": "*"}
Batch = TypeAdapter(dict[str, svc.ReconQuery])
_JSON = {"description": "A Reconciliation API 0.2 document (manifest, result batch or extension rows)"}
# The three answers of `/reconcile`: without parameters, with `queries`, with `extend`.
Answer = Manifest | ReconcileBatch | ExtendAnswer
_FORM_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "queries": {"type": "string", "description": "JSON query batch"},
                        "extend": {"type": "string", "description": "JSON data extension query"},
                    },
                }
            },
            "application/json": {
                "schema": {
                    "type": "object",
                    "minProperties": 1,
                    "description": '`{"queries": …}`, `{"extend": …}` or the query batch itself',
                }
            },
        },
    }
}
# uvicorn answers a request target of 64 KiB or more with a bare 400 before the app sees it (issue 16:
# schemathesis sent `queries` at the 500,000 characters the document allowed). A character may take 12
# bytes percent-encoded (4 UTF-8 bytes, 3 each), so two values of 2,500 and the key stay within it;
# larger batches go by POST.
GET_JSON_MAX = 2_500
JsonText = Annotated[
    str | None,
    Query(
        max_length=GET_JSON_MAX,
        description=f"JSON text, at most {GET_JSON_MAX:,} characters in a URL (POST takes larger batches)",
    ),
]


def _raw(data: Any, status: int = 200) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json", headers=CORS)


def _key_suffix(request: Request) -> str:
    key = request.scope["state"].get("api_key") or request.query_params.get("api_key")
    return f"?api_key={key}" if key else ""


def _parse(model: Any, text: Any, what: str) -> Any:
    try:
        value = orjson.loads(text) if isinstance(text, (str, bytes)) else text
        if what == "queries" and isinstance(value, dict) and len(value) > svc.MAX_BATCH:
            raise ValidationFailed(f"At most {svc.MAX_BATCH} queries per batch")
        return model.validate_python(value) if isinstance(model, TypeAdapter) else model.model_validate(value)
    except orjson.JSONDecodeError as exc:
        raise ValidationFailed(f"`{what}` is not valid JSON: {exc}") from None
    except ValidationError as exc:
        raise ValidationFailed(
            f"`{what}` does not follow the Reconciliation API 0.2",
            details=[
                {"field": ".".join(map(str, e["loc"])), "in": what, "message": e["msg"]} for e in exc.errors()
            ],
        ) from None


def _answer(request: Request, conn: Any, index: Any, settings: Any, queries: Any, extend: Any) -> Response:
    if queries is not None and extend is not None:
        raise ValidationFailed("Send either `queries` or `extend`, not both")
    if queries is not None:
        return _raw(svc.reconcile_batch(conn, index, _parse(Batch, queries, "queries")))
    if extend is not None:
        return _raw(svc.extend(conn, _parse(svc.ExtendQuery, extend, "extend")))
    return _raw(svc.manifest(public_base(request), _key_suffix(request)))


_DESC = (
    "OpenRefine Reconciliation Service API 0.2. Without parameters: the service manifest. With `queries` "
    '(a JSON batch `{"q0": {"query": "Slovnaft", "type": "company", "limit": 3, "properties": '
    '[{"pid": "country", "v": "SK"}]}}`): candidates `{id, name, score (0-100), match, type, features}` '
    'per query. With `extend` (`{"ids": ["SK:31322832"], "properties": [{"id": "status"}]}`): '
    "property values. Properties: " + ", ".join(PROPERTIES) + ". Answers are the protocol's own JSON, "
    "not the envelope. Authenticate with `?api_key=`."
)


@router.get(
    "",
    summary="Reconcile",
    description=_DESC + " The manifest (no `queries` or `extend`) needs no key, so "
    "that a client can learn how to authenticate (its `authentication` field); queries do.",
    response_model=Answer,
    responses={200: _JSON},
    openapi_extra={"security": [{}, {"bearerAuth": []}, {"apiKeyQuery": []}]},
)
async def reconcile_get(
    request: Request, settings: AppSettings, queries: JsonText = None, extend: JsonText = None
) -> Response:
    if queries is None and extend is None:
        await public_limit(request)
        return _raw(svc.manifest(public_base(request), _key_suffix(request)))
    await require_key(request)

    def work() -> Response:
        index = search_backend(request)
        with read_engine(request).connect() as conn:
            return _answer(request, conn, index, settings, queries, extend)

    return await run_in_threadpool(work)


@router.post(
    "",
    summary="Reconcile",
    description=_DESC + " POST takes the same as form fields or a JSON body.",
    response_model=Answer,
    responses={200: _JSON},
    openapi_extra=_FORM_BODY,
)
async def reconcile_post(request: Request, _key: ApiKey, settings: AppSettings) -> Response:
    queries, extend = await _read_body(request)

    def work() -> Response:
        index = search_backend(request)
        with read_engine(request).connect() as conn:
            return _answer(request, conn, index, settings, queries, extend)

    return await run_in_threadpool(work)


async def _read_body(request: Request) -> tuple[Any, Any]:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form = await request.form()
        unknown = sorted(set(form.keys()) - {"queries", "extend"})
        if unknown:
            raise ValidationFailed(f"Unknown form field(s): {', '.join(unknown)}")
        return form.get("queries"), form.get("extend")
    body = await request.body()
    if not body.strip():
        raise ValidationFailed("Send `queries` or `extend` (form fields or JSON)")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise ValidationFailed(f"The body is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not data:
        raise ValidationFailed(
            'The JSON body is an object: `{"queries": …}`, `{"extend": …}` or the query '
            'batch itself (`{"q0": {"query": …}}`)'
        )
    if set(data) <= {"queries", "extend"}:
        return data.get("queries"), data.get("extend")
    return data, None


Prefix = Annotated[str, Query(max_length=200, description="What the user typed")]
Cursor = Annotated[int, Query(ge=0, le=90, description="Offset of the first result")]


@router.get(
    "/suggest/entity",
    summary="Suggest entities",
    response_model=EntitySuggestions,
    description="Reconciliation 0.2 suggest service for entities: companies whose name starts like "
    "`prefix` (typos forgiven), as `{result: [{id, name, description, notable}]}`.",
)
def suggest_entity(
    conn: ReadConn, _key: ApiKey, index: SearchIndex, prefix: Prefix, cursor: Cursor = 0
) -> Response:
    if not prefix.strip():
        return _raw(EntitySuggestions(result=[]))
    return _raw(svc.suggest_entities(conn, index, prefix, cursor))


@router.get(
    "/suggest/property",
    summary="Suggest properties",
    response_model=PropertySuggestions,
    description="Reconciliation 0.2 suggest service for properties usable as query constraints and in "
    "data extension.",
)
def suggest_property(_key: ApiKey, prefix: Prefix, cursor: Cursor = 0) -> Response:
    return _raw(PropertySuggestions(result=svc.suggest_properties(prefix).result[cursor:]))


@router.get(
    "/suggest/type",
    summary="Suggest types",
    response_model=TypeSuggestions,
    description="Reconciliation 0.2 suggest service for types (this service has one: `company`).",
)
def suggest_type(_key: ApiKey, prefix: Prefix, cursor: Cursor = 0) -> Response:
    return _raw(TypeSuggestions(result=svc.suggest_types(prefix).result[cursor:]))


@router.get(
    "/properties",
    summary="Propose properties",
    response_model=PropertyProposal,
    description="Reconciliation 0.2 data extension: the properties that can be fetched for `type`.",
)
def propose(
    _key: ApiKey,
    type: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> Response:
    return _raw(svc.propose_properties(type, limit))


@router.get(
    "/preview",
    summary="Preview",
    response_class=HTMLResponse,
    responses={200: {"description": "HTML snippet", "content": {"text/html": {}}}},
    description="Reconciliation 0.2 preview: a small HTML card of the entity `id` (`SK:31322832`).",
)
def preview(conn: ReadConn, _key: ApiKey, id: Annotated[str, Query(max_length=64)]) -> Response:
    row = svc.rows_by_entity_ids(conn, [id]).get(id)
    if row is None:
        raise NotFound(f"No entity {id!r}")
    html = templates.get_template("reconcile_preview.html").render(c=row, address=address_text(row))
    return HTMLResponse(html, headers=CORS)
