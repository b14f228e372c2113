"""Where the time of a first og.png goes (docs/pages.md, "Measured"): the SVG built from a company's check
data, resvg's render of it, and the parts of that render (the font database, the canvas and its PNG
encoding, the glyphs), in CPU ms of this process (a loaded machine inflates wall time, much less CPU time).

    .venv/bin/python bench/bench_og_render.py --database-url sqlite:////tmp/copy.db [--repeat 30]

Reads only. Results go to bench/results/ (JSON)."""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH = Path(__file__).parent


def cpu_ms(fn: Callable[[], Any], repeat: int) -> dict[str, float]:
    fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    times.sort()
    return {"p50": round(statistics.median(times), 1), "min": round(times[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    import resvg_py
    from sqlalchemy import select

    from regintel.areas import load_tables
    from regintel.areas.companies import service as companies_svc
    from regintel.areas.pages import service
    from regintel.db.engine import make_engine
    from regintel.db.schema import companies
    from regintel.render import svg

    load_tables()
    engine = make_engine(args.database_url)
    with engine.connect() as conn:
        picks = conn.execute(
            select(companies.c.country, companies.c.national_id).where(companies.c.country == "SK").limit(1)
        ).first()
        assert picks is not None, "no Slovak company in the database"
        row = companies_svc.resolve_ico(conn, picks[1], picks[0])
        source = service.og_svg(conn, row)
        svg_build = cpu_ms(lambda: service.og_svg(conn, row), args.repeat)
    files = list(svg.font_files())

    def render(text: str, fonts: bool = True) -> bytes:
        return bytes(
            resvg_py.svg_to_bytes(
                svg_string=text,
                skip_system_fonts=True,
                font_family="DejaVu Sans",
                sans_serif_family="DejaVu Sans",
                font_files=files if fonts else None,
            )
        )

    no_text = re.sub(r"<text[^>]*>[^<]*</text>", "", source)
    head = '<svg xmlns="http://www.w3.org/2000/svg" '
    canvas = head + 'width="1200" height="630"><rect width="1200" height="630" fill="#10304f"/></svg>'
    tiny = head + 'width="8" height="8"><text y="8" font-size="8">a</text></svg>'  # one glyph: the fonts load
    rows = {
        "SVG built from the check data (service.og_svg)": svg_build,
        "resvg: the whole image (render + PNG encoding)": cpu_ms(lambda: render(source), args.repeat),
        "resvg: the image without its text": cpu_ms(lambda: render(no_text), args.repeat),
        "resvg: a flat 1200x630 canvas (fill + PNG encoding)": cpu_ms(lambda: render(canvas), args.repeat),
        "resvg: an 8x8 image of one glyph, the two font files loaded": cpu_ms(
            lambda: render(tiny), args.repeat
        ),
        "resvg: the same without fonts (the glyph skipped)": cpu_ms(
            lambda: render(tiny, fonts=False), args.repeat
        ),
    }
    print(f"{'step':60} {'CPU p50 ms':>10} {'min':>7}")
    for name, r in rows.items():
        print(f"{name:60} {r['p50']:>10} {r['min']:>7}")
    texts = re.findall(r">([^<]+)</text>", source)
    print(f"text runs {len(texts)}, glyphs {sum(len(t) for t in texts)}, PNG {len(render(source)):,} bytes")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    dest = BENCH / "results" / f"og-render-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    dest.parent.mkdir(exist_ok=True)
    dest.write_text(json.dumps({"database": args.database_url, "rows": rows, "loadavg": load}, indent=2))
    print(f"saved {dest}")


if __name__ == "__main__":
    main()
