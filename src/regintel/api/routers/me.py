"""`GET /api/v1/me`: the current key."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from regintel.api.deps import ApiKey
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.config import Settings

router = APIRouter(prefix="/api/v1", tags=["Account"], route_class=StrictRoute)


class Usage(BaseModel):
    period: str = Field(description="`month` for monthly plans, `pass` for day and week passes")
    used: int
    limit: int
    remaining: int
    resets_at: datetime = Field(description="Start of the next month, or the end of the pass (UTC)")
    scope: Literal["account", "key"] = Field(
        description="`account`: the monthly quota of the key's account, shared by all its keys and OAuth "
        "tokens (`used` counts them all); `key`: this key's own (a key of no account, or a pass's budget)"
    )


class Me(BaseModel):
    id: int
    name: str
    plan: str
    plan_title: str
    key_prefix: str = Field(description="First characters of the key, to tell keys apart")
    rate_limit: dict[str, int] = Field(description="`requests` per `window_seconds` (fixed window)")
    usage: Usage | None
    created_at: datetime
    expires_at: datetime | None


@router.get(
    "/me",
    response_model=Envelope[Me],
    summary="Current API key",
    description="Name, plan, rate limit, usage this month (or of the pass) and expiry of the key "
    "that made the call. The call itself counts towards the usage. A key of an account reports the "
    "account's monthly quota, which all its keys and OAuth tokens share.",
)
async def me(request: Request, caller: ApiKey) -> Response:
    # Read here rather than through the `AppSettings` dependency: FastAPI's resolution of even a trivial
    # dependency cost 7% of this route's instructions.
    settings: Settings = request.app.state.settings
    key, quota = caller.key, caller.quota
    plan = settings.plan(key.plan)
    usage = None
    if quota is not None:
        usage = {
            "period": "pass" if plan.budget else "month",
            "used": min(quota.used, quota.limit),
            "limit": quota.limit,
            "remaining": quota.remaining,
            "resets_at": datetime.fromtimestamp(quota.reset_at, UTC),
            "scope": quota.scope,
        }
    return ok(
        request,
        {
            "id": key.id,
            "name": key.name,
            "plan": key.plan,
            "plan_title": plan.title,
            "key_prefix": key.prefix,
            "rate_limit": {"requests": plan.rate_per_minute, "window_seconds": settings.rate_window_seconds},
            "usage": usage,
            "created_at": key.created_at,
            "expires_at": key.expires_at,
        },
    )
