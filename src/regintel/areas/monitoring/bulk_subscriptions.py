"""`POST /monitoring/subscriptions/bulk`: up to 100 creates and deletes, each in its own transaction,
each answered with the status and body it would have had alone (never all-or-nothing)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from sqlalchemy.engine import Connection

from regintel.areas.monitoring import subscriptions as svc
from regintel.config import Settings
from regintel.errors import RegintelError

MAX_ITEMS = 100


class BulkCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["create"]
    ico: str = Field(min_length=1, max_length=40)
    country: str | None = Field(default=None, min_length=2, max_length=2)
    webhook_url: str = Field(min_length=1, max_length=2048)


class BulkDelete(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["delete"]
    id: int = Field(ge=1, le=2**63 - 1)


_ITEM: TypeAdapter[BulkCreate | BulkDelete] = TypeAdapter(
    Annotated[BulkCreate | BulkDelete, Field(discriminator="action")]
)


def _invalid(index: int, raw: Any, exc: ValidationError) -> dict[str, Any]:
    details = [
        {"field": ".".join(str(p) for p in e["loc"]) or "item", "message": e["msg"], "type": e["type"]}
        for e in exc.errors()
    ]
    action = raw.get("action") if isinstance(raw, dict) and isinstance(raw.get("action"), str) else None
    return {
        "index": index,
        "action": action,
        "status": 422,
        "error": {"code": "VALIDATION_ERROR", "message": f"Item {index} is invalid", "details": details},
    }


def _run(
    conn: Connection, api_key_id: int, item: BulkCreate | BulkDelete, settings: Settings
) -> tuple[int, Any]:
    if isinstance(item, BulkCreate):
        return 201, svc.create_monitoring(
            conn, api_key_id, item.ico, item.country, item.webhook_url, settings
        )
    return 200, svc.delete(conn, api_key_id, item.id, "monitoring")


def run_bulk(conn: Connection, api_key_id: int, items: list[Any], settings: Settings) -> dict[str, Any]:
    """Apply each item on its own and commit it; a failed item rolls back only itself."""
    results: list[dict[str, Any]] = []
    for index, raw in enumerate(items[:MAX_ITEMS]):
        try:
            item = _ITEM.validate_python(raw)
        except ValidationError as exc:
            results.append(_invalid(index, raw, exc))
            continue
        try:
            status, data = _run(conn, api_key_id, item, settings)
            conn.commit()
        except RegintelError as exc:
            conn.rollback()
            error = {"code": exc.code, "message": exc.message}
            if exc.details is not None:
                error["details"] = exc.details
            results.append({"index": index, "action": item.action, "status": exc.status, "error": error})
            continue
        results.append({"index": index, "action": item.action, "status": status, "data": data})
    failed = sum(1 for r in results if r["status"] >= 400)
    return {"results": results, "succeeded": len(results) - failed, "failed": failed}
