"""NIS2 designations from a trusted list: after an import has written the list's services, each linked
provider gets the designation its current services make (trust_rules.designation), with the list as its
source, written through the nis2 area (`designations.replace_source`): a provider that was not
designated, or whose designation changed, is written; one the list no longer designates is removed; an
unchanged list writes nothing."""

from __future__ import annotations

from sqlalchemy.engine import Connection

from regintel.areas.nis2.designations import replace_source

from . import queries, trust_rules


def designate(conn: Connection, source: str) -> int:
    """Write the designations the source's stored services make; returns the rows written or removed."""
    services: dict[int, list[tuple[str, bool]]] = {}
    names: dict[int, str] = {}
    for r in queries.trust_services(conn, source):
        services.setdefault(r.company_id, []).append((r.category, r.status == "active"))
        names.setdefault(r.company_id, f"{r.name} ({r.licence_number})" if r.licence_number else r.name)
    wanted: dict[int, tuple[str, str | None]] = {}
    for company_id, found in services.items():
        kind = trust_rules.designation(found)
        if kind is not None:
            wanted[company_id] = (kind, f"{source.split('_')[0].upper()} trusted list: {names[company_id]}")
    return replace_source(conn, source, wanted)
