"""Finding companies (spec 4.4, 4.5, 4.7): name and address search, autocomplete, resolve and match,
OpenRefine reconciliation and the advanced search with its filters.

- `schemas.py`: the read models the routes return (search hit, suggestion, resolve and match
  candidates, reconciliation answers, the advanced-search page);
- `service.py` (search and autocomplete), `resolve.py`, `identify.py`, `reconcile.py` with
  `reconcile_props.py`, `advanced_search.py` with `company_filters.py` (the filter model; its SQL is
  `db/company_filters.py`, shared with the statistics) and `queries.py` (this area's own SQL);
- `search_routes.py`, `reconcile_routes.py`, `advanced_routes.py`: the routers. The core mounts them
  itself (`api/routers/__init__.py`), at their place among the core's routes, so the area has no
  `router.py` for `areas.routers()` to find.

Other areas may call `resolve.candidates`/`Evidence`, `identify.find_by_identifier`,
`service.rank_companies`/`summary`, `advanced_search.search` and `company_filters.CompanyFilters`.
The index backend itself is the package `regintel.search`.
"""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("resolve", "identify", "advanced_search", "company_filters")
