"""Refresh `peer_benchmarks`: quartiles per (NACE class or division, country, size class, currency).

The population is read once per level, ordered by country, NACE prefix and currency, so only one group's
values are held at a time (a NACE class of one country, at most some hundred thousand rows at 10M).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine

from regintel.areas.scores import queries
from regintel.areas.scores.peers import peer_metrics, peer_size
from regintel.db.engine import begin_write
from regintel.domain.scores import peers as domain

LEVELS = (("class", 4), ("division", 2))


def group_rows(rows: Iterable[Mapping[str, Any]], level: str, now: datetime) -> list[dict[str, Any]]:
    """Benchmark rows of one (country, NACE prefix, currency) run of the ordered population."""
    out = []
    for (country, code, currency), run in itertools.groupby(
        rows, key=lambda r: (r["country"], r["nace"], r["currency"])
    ):
        by_size: dict[str, list[dict[str, float | None]]] = defaultdict(list)
        for r in run:
            size = peer_size(r)
            if size is not None:
                by_size[size].append(peer_metrics(r))
        for size, values in by_size.items():
            for metric in domain.METRICS:
                q = domain.quartiles(v[metric] for v in values)
                if q is not None:
                    out.append(
                        {
                            "level": level,
                            "nace": code,
                            "country": country,
                            "size_class": size,
                            "currency": currency,
                            "metric": metric,
                            "peer_count": q.count,
                            "p25": q.p25,
                            "p50": q.p50,
                            "p75": q.p75,
                            "computed_at": now,
                        }
                    )
    return out


def refresh(engine: Engine) -> dict[str, int]:
    """Recompute every benchmark and swap them in, in one transaction."""
    now = datetime.now(UTC)
    rows: list[dict[str, Any]] = []
    with engine.connect() as conn:
        for level, digits in LEVELS:
            rows += group_rows(queries.iter_peer_population(conn, digits), level, now)
    with begin_write(engine) as conn:
        queries.replace_benchmarks(conn, rows)
    return {
        "rows": len(rows),
        "groups": len({(r["level"], r["nace"], r["country"], r["size_class"], r["currency"]) for r in rows}),
    }
