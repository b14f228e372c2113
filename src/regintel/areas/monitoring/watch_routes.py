"""Public e-mail watches (spec 4.7): follow one company's insolvency flags by e-mail, double opt-in."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, ValidationError

from regintel.api.deps import AppSettings, DbWriteConn, PublicLimit
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.monitoring import watches as svc
from regintel.areas.monitoring.schemas import Strict
from regintel.errors import ValidationFailed

router = APIRouter(
    prefix="/api/v1/watch", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

NO_STORE = {"Cache-Control": "no-store"}  # personal, one-off answers: never cached
Token = Annotated[str | None, Query(max_length=1000, description="Token from the e-mail link")]
# Required where nothing else can name the watch, so that the document says so (issue 16).
LinkToken = Annotated[str, Query(min_length=1, max_length=1000, description="Token from the e-mail link")]


class WatchRequest(Strict):
    email: str = Field(min_length=3, max_length=320)
    ico: str = Field(min_length=1, max_length=40, description="National identifier (IČO in SK and CZ)")
    country: str | None = Field(default=None, min_length=2, max_length=2, description="Default: SK first")


class UnsubscribeRequest(Strict):
    token: str | None = Field(default=None, max_length=1000, description="Token from an alert e-mail")
    email: str | None = Field(default=None, min_length=3, max_length=320)
    ico: str | None = Field(default=None, min_length=1, max_length=40)
    country: str | None = Field(default=None, min_length=2, max_length=2)


async def unsubscribe_body(request: Request) -> UnsubscribeRequest | None:
    """The JSON body, or None: also for the RFC 8058 one-click form post (`List-Unsubscribe=One-Click`),
    whose token is in the query."""
    raw = await request.body()
    if not raw.strip() or request.headers.get("content-type", "").startswith(
        "application/x-www-form-urlencoded"
    ):
        return None
    try:
        return UnsubscribeRequest.model_validate_json(raw)
    except ValidationError as exc:
        details = [
            {
                "field": ".".join(str(p) for p in e["loc"]) or "body",
                "in": "body",
                "message": e["msg"],
                "type": e["type"],
            }
            for e in exc.errors()
        ]
        raise ValidationFailed("Invalid input: body", details=details) from None


class WatchState(BaseModel):
    status: str = Field(
        description="`pending_confirmation`, `confirmed`, `unsubscribed` or `unsubscribe_link_sent`"
    )
    ico: str
    country: str
    company_name: str | None = None
    message: str | None = None


@router.post(
    "",
    status_code=202,
    response_model=Envelope[WatchState],
    summary="Public watch request",
    description="Ask for an e-mail whenever the company's insolvency flags flip (bankruptcy, restructuring, "
    "liquidation). No key needed. A confirmation link (valid 72 h by default) is e-mailed; nothing is "
    "sent before it is opened. The answer is the same whether or not the address already watches the "
    "company. 404 for an unknown company, 422 for a malformed identifier or address.",
)
def request_watch(request: Request, body: WatchRequest, conn: DbWriteConn) -> Response:
    data = svc.request_watch(conn, body.email, body.ico, body.country)
    conn.commit()
    return ok(request, data, status_code=202, headers=NO_STORE)


@router.get(
    "/confirm",
    response_model=Envelope[WatchState],
    summary="Confirm a watch",
    description="Open the link from the confirmation e-mail: the watch becomes active. 422 with reason "
    "`expired` or `invalid` for an old or altered link.",
)
def confirm(request: Request, conn: DbWriteConn, settings: AppSettings, token: LinkToken) -> Response:
    data = svc.confirm(conn, token, settings)
    conn.commit()
    return ok(request, data, headers=NO_STORE)


@router.post(
    "/unsubscribe",
    response_model=Envelope[WatchState],
    summary="Unsubscribe a watch",
    openapi_extra={
        "requestBody": {
            "required": False,
            "content": {"application/json": {"schema": UnsubscribeRequest.model_json_schema()}},
        }
    },
    description="With the `token` of an alert e-mail (in the body, or in the query for the one-click "
    "`List-Unsubscribe-Post` of RFC 8058): the watch ends at once. With `email` + `ico` (+ `country`): "
    "an e-mail with an unsubscribe link is sent to that address, so nobody can end someone else's "
    "watch; the answer does not say whether the address watches the company.",
)
def unsubscribe(
    request: Request,
    conn: DbWriteConn,
    settings: AppSettings,
    token: Token = None,
    body: Annotated[UnsubscribeRequest | None, Depends(unsubscribe_body)] = None,
) -> Response:
    token = token or (body.token if body else None)
    if token:
        data = svc.unsubscribe_by_token(conn, token, settings)
    elif body is not None and body.email and body.ico:
        data = svc.request_unsubscribe(conn, body.email, body.ico, body.country)
    else:
        raise ValidationFailed(
            "Give `token`, or `email` and `ico`",
            details=[{"field": "token", "in": "body", "message": "token or email + ico"}],
        )
    conn.commit()
    return ok(request, data, headers=NO_STORE)
