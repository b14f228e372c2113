"""The regulatory tests' fixtures: the five labelled feeds (tests/fixtures/regulatory/README.md) and
imports through the real `run_import` dispatch."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select

from regintel.config import Settings
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source

FIXTURES = Path(__file__).parent.parent / "fixtures" / "regulatory"
FEEDS = {"sk_nbs_news": 5, "cz_cnb_news": 4, "eu_enisa_news": 3, "eu_eba_news": 4, "eu_esma_news": 4}


def run(
    engine: Engine, settings: Settings, source_id: str, path: Path | str
) -> tuple[LoadStats, list[dict[str, Any]]]:
    _, stats, reject_path = run_import(engine, get_source(source_id), str(path), settings.data_dir)
    rows = [json.loads(line) for line in reject_path.read_text().splitlines()] if reject_path else []
    return stats, rows


def import_all(engine: Engine, settings: Settings) -> None:
    for source_id in FEEDS:
        run(engine, settings, source_id, FIXTURES / f"{source_id}.xml")


def count(engine: Engine, table: Any) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def rss(path: Path, items: list[tuple[str, str, datetime]]) -> Path:
    """A small RSS 2.0 file of (guid, title, published) items, for tests that need recent dates."""
    body = "".join(
        f'<item><title>{t}</title><link>https://www.eba.europa.eu/n/{g}</link><guid isPermaLink="false">'
        f"{g}</guid><pubDate>{d.astimezone(UTC):%a, %d %b %Y %H:%M:%S} +0000</pubDate>"
        f"<description>Summary of {t}</description></item>"
        for g, t, d in items
    )
    path.write_text(
        f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>EBA</title>'
        f"<link>https://www.eba.europa.eu</link><description>News</description>{body}</channel></rss>",
        encoding="utf-8",
    )
    return path
