"""Prometheus metrics of an API process, served at `GET /metrics` (docs/deployment.md).

Per-request figures (counts and latency by route template and status, requests shed) are recorded by
`RequestContext`; gauges of the process (connections lent, requests waiting for one, requests in
flight) are read when scraped. With several `serve` workers, prometheus_client's multiprocess mode
adds them up across processes (`PROMETHEUS_MULTIPROC_DIR`, set by `regintel serve`). Figures of the
whole service that live in the database (jobs waiting, the oldest due job, due webhook deliveries)
and the search index's size are read by the scrape itself.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import Engine, func, select

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
# The gauges are summed over the live workers; a single process ignores the mode ("all" is the default).
_GAUGE_MODE: Literal["livesum", "all"] = "livesum" if MULTIPROCESS else "all"

REQUESTS = Counter("regintel_requests", "HTTP requests answered", ["route", "method", "status"])
LATENCY = Histogram(
    "regintel_request_duration_seconds",
    "Time from request to response end",
    ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SHED = Counter("regintel_requests_shed", "Requests answered 503 OVERLOADED", ["reason"])
INFLIGHT = Gauge("regintel_requests_in_flight", "Requests being served", multiprocess_mode=_GAUGE_MODE)
DB_IN_USE = Gauge(
    "regintel_db_connections_in_use", "Pool connections lent to requests", multiprocess_mode=_GAUGE_MODE
)
DB_WAITING = Gauge(
    "regintel_db_connections_waiting", "Requests waiting for a connection", multiprocess_mode=_GAUGE_MODE
)


# The labelled children by (route template, method, status): `labels()` builds and looks up its key
# under a lock on every call. Templates, methods and statuses are few, so this stays small.
_CHILDREN: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe(route: str, method: str, status: int, seconds: float) -> None:
    children = _CHILDREN.get((route, method, status))
    if children is None:
        children = _CHILDREN[(route, method, status)] = (
            REQUESTS.labels(route, method, str(status)),
            LATENCY.labels(route),
        )
    children[0].inc()
    children[1].observe(seconds)


class _DatabaseFigures(Collector):
    """Service-wide figures read from the database at scrape time."""

    def __init__(self, engine: Engine, search: Any):
        self.engine = engine
        self.search = search

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from regintel.db.schema import deliveries, jobs

        queued = GaugeMetricFamily("regintel_jobs", "Jobs in the jobs table by status", labels=["status"])
        lag = GaugeMetricFamily(
            "regintel_jobs_oldest_due_seconds", "Age of the oldest due queued job (worker lag)"
        )
        due = GaugeMetricFamily("regintel_webhook_deliveries_due", "Webhook deliveries waiting to be sent")
        now = datetime.now(UTC)
        with self.engine.connect() as conn:
            for status, n in conn.execute(select(jobs.c.status, func.count()).group_by(jobs.c.status)):
                queued.add_metric([status], n)
            oldest = conn.execute(
                select(func.min(jobs.c.run_after)).where(jobs.c.status == "queued", jobs.c.run_after <= now)
            ).scalar()
            waiting = conn.execute(
                select(func.count()).select_from(deliveries).where(deliveries.c.status == "pending")
            ).scalar()
            index = self.search.status(conn) if self.search is not None else None
        if oldest is not None:
            oldest = oldest if oldest.tzinfo else oldest.replace(tzinfo=UTC)
        lag.add_metric([], (now - oldest).total_seconds() if oldest is not None else 0.0)
        due.add_metric([], waiting or 0)
        yield from (queued, lag, due)
        if index is not None:
            docs = GaugeMetricFamily(
                "regintel_search_index_documents",
                "Documents in this process's search index",
                labels=["backend", "watermark"],
            )
            docs.add_metric([index.backend, index.watermark or ""], index.documents)
            yield docs


def render(engine: Engine, search: Any) -> bytes:
    """The exposition text of this scrape."""
    registry = CollectorRegistry()
    if MULTIPROCESS:
        MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY

        registry = REGISTRY
    started = time.perf_counter()
    extra = CollectorRegistry()
    extra.register(_DatabaseFigures(engine, search))
    body = generate_latest(registry) + generate_latest(extra)
    scrape = f"regintel_metrics_scrape_seconds {time.perf_counter() - started:.6f}\n"
    return body + scrape.encode()
