"""People (spec 4.4): the companies of one person and people by name, with the natural-persons gate
(`service.check_purpose`: birth date, nationality and residence only for a declared purpose or a key
whose account accepted the addendum, DESIGN.md section 3).

- `schemas.py`: the read models the routes return (a person, a role with its company, a person's
  companies, a people-search hit);
- `service.py`: the use cases and the purpose gate (`check_purpose`, `PERSONAL`, `REQUEST_KEY`,
  `ADDENDUM_LOOKUP`), which other areas call for their own natural-person fields;
- `people_routes.py`: the router. The core mounts it itself (`api/routers/__init__.py`), right after
  the search routes, so the area has no `router.py` for `areas.routers()` to find.

Its SQL is the index's own read side (`db/search.py`: `person_by_key`, `people_by_ids`,
`roles_of_people`), shared with the search area.
"""
