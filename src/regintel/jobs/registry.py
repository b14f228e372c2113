"""Job handlers by kind. An area registers its handlers in its `jobs.py`:

    @job_handler("scores.recompute")
    def recompute(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any] | None: ...

A handler runs in a worker thread with its own connections from `ctx.engine`; what it returns is
stored as the job's `result`. Raising `Retry` (or any exception) queues it again with back-off until
its attempts are spent; `Permanent` fails it at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from regintel.config import Settings


@dataclass(frozen=True)
class JobContext:
    engine: Engine
    settings: Settings
    job_id: int
    attempt: int


Handler = Callable[[JobContext, Mapping[str, Any]], Mapping[str, Any] | None]
HANDLERS: dict[str, Handler] = {}


class Permanent(Exception):  # noqa: N818 - reads as `raise Permanent("bad payload")`
    """The job cannot succeed (bad payload, missing company): do not try again."""


def job_handler(kind: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        if kind in HANDLERS and HANDLERS[kind] is not fn:
            raise ValueError(f"job kind {kind!r} has two handlers")
        HANDLERS[kind] = fn
        return fn

    return register


FOLLOWERS: list[str] = []


def follows_data(kind: str) -> None:
    """Have the worker queue a `kind` job (one waiting at a time, empty payload) each time the data version
    settles at a new value (`jobs.stats_refresh`): work made once per version of the data, such as the
    pages area's stored sitemaps, that no request should wait for."""
    if kind not in FOLLOWERS:
        FOLLOWERS.append(kind)


def data_followers() -> list[str]:
    """Every kind registered with `follows_data`, the areas' included."""
    handlers()
    return list(FOLLOWERS)


def handlers() -> dict[str, Handler]:
    """Every registered handler, the areas' included."""
    from regintel.areas import load_jobs
    from regintel.jobs import search_index  # noqa: F401 - registers the core's own handler

    load_jobs()
    return HANDLERS
