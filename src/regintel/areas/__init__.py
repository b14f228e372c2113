"""Feature areas of the specification, one package each (docs/architecture.md, "Areas").

An area package holds what one part of the API needs, side by side:

- `schemas.py`: the typed read models its routes return (pydantic; the OpenAPI document is the body);
- `tables.py`: its own tables, on `regintel.db.schema.metadata` (the migration lives in
  `db/migrations/versions/`);
- `queries.py`: its SQL, and only there;
- `service.py` (or several named modules): the use cases, called by the router, MCP and jobs;
- `router.py`: a thin `router` (`APIRouter`, `route_class=StrictRoute`);
- `jobs.py`: handlers of the jobs it queues (`regintel.jobs.registry.job_handler`).

Areas share `domain/`, `db/`, `api/` (envelope, errors, auth) and `render/`; one area calls another
only through that area's service functions. Nothing here needs registering: an area's router, tables
and job handlers are found by name.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType

from fastapi import APIRouter


def area_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def _optional(area: str, module: str) -> ModuleType | None:
    name = f"{__name__}.{area}.{module}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def routers() -> list[APIRouter]:
    """Every area's `router`, in area-name order (an area with several routers lists them in
    `ROUTERS`)."""
    out: list[APIRouter] = []
    for area in area_names():
        module = _optional(area, "router")
        if module is None:
            continue
        out.extend(getattr(module, "ROUTERS", None) or [module.router])
    return out


def load_tables() -> None:
    """Import every area's tables so that `metadata` knows them (tests empty every table)."""
    for area in area_names():
        _optional(area, "tables")


def load_jobs() -> None:
    """Import every area's job handlers so that the worker can run them."""
    for area in area_names():
        _optional(area, "jobs")
