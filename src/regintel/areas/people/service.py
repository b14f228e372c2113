"""People: the companies of one person, and people by name. Natural persons' personal fields (birth
date, nationality, residence) are shown only for a declared purpose (DESIGN.md section 3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.people.schemas import Person, PersonCompanies, PersonHit, PersonRole
from regintel.db import search as db
from regintel.domain.matching import highlight, name_score
from regintel.domain.names import tokens
from regintel.errors import NotFound, ValidationFailed
from regintel.search.base import Filters, QueryWords, SearchBackend

PERSONAL = (
    ("birthDate", "birth_date"),
    ("nationality", "nationality"),
    ("countryOfResidence", "country_of_residence"),
)


# The natural-persons addendum (areas/accounts): a key whose account accepted it sees personal fields
# without a declared purpose. `require_key` notes the request's (engine, key id); the accounts area sets
# the lookup.
REQUEST_KEY: ContextVar[tuple[Any, int] | None] = ContextVar("regintel_request_key", default=None)
ADDENDUM_LOOKUP: Callable[[Any, int], bool] | None = None


def check_purpose(purpose: str | None, allowed: list[str]) -> bool:
    """True when personal fields may be shown; an unknown purpose is refused, not ignored."""
    if purpose is None:
        caller = REQUEST_KEY.get()
        return caller is not None and ADDENDUM_LOOKUP is not None and ADDENDUM_LOOKUP(*caller)
    if purpose.strip().lower() not in allowed:
        raise ValidationFailed(
            f"Unknown purpose {purpose!r}",
            details=[
                {"field": "purpose", "in": "query", "message": "not a declared purpose", "allowed": allowed}
            ],
        )
    return True


def person_out(row: Mapping[str, Any], personal: bool) -> Person:
    """The person of a `people` row, with the personal fields only when the gate opened."""
    if not personal:
        return Person(key=row["person_key"], name=row["name"])
    return Person(
        key=row["person_key"],
        name=row["name"],
        birthDate=row["birth_date"],
        nationality=row["nationality"],
        countryOfResidence=row["country_of_residence"],
    )


def role_out(r: Mapping[str, Any]) -> PersonRole:
    """One role of a `roles_of_people` row, with the company it is held in."""
    return PersonRole(
        role=r["role"],
        title=r["title"],
        sharePct=r["share_pct"],
        votingPct=r["voting_pct"],
        since=r["since"],
        until=r["until"],
        source=r["source"],
        company={
            "country": r["country"],
            "nationalId": r["national_id"],
            "name": r["name"],
            "status": r["status"],
            "inBankruptcy": bool(r["in_bankruptcy"]),
        },
    )


def hit_out(
    row: Mapping[str, Any], personal: bool, score: float, words: list[str], roles: list[PersonRole]
) -> PersonHit:
    """One people-search hit: the person (as `person_out`), how well the name matched, and their roles."""
    mark = highlight(row["name"], words)
    return {**person_out(row, personal), "score": score, "highlight": mark, "roles": roles}


def companies_of_person(conn: Connection, key: str, personal: bool) -> PersonCompanies:
    """The person and every role they hold or held, with the company of each."""
    row = db.person_by_key(conn, key.removeprefix("p:"))
    if row is None:
        raise NotFound(f"No person with key {key}")
    roles = [role_out(r) for r in db.roles_of_people(conn, [int(row["id"])])]
    companies = {(r["company"]["country"], r["company"]["nationalId"]) for r in roles}
    return PersonCompanies(person=person_out(row, personal), companyCount=len(companies), roles=roles)


def search_people(
    conn: Connection, backend: SearchBackend, q: str, limit: int, page: int, personal: bool
) -> tuple[list[PersonHit], int]:
    """People whose name matches `q` (any word order, typos forgiven), each with their roles."""
    words = tokens(q)
    if not words:
        return [], 0
    ids = backend.candidates(conn, "people", QueryWords(tuple(words), prefix=True), Filters(), 200)
    rows = db.people_by_ids(conn, ids)
    scored = sorted(
        ((name_score(words, (r["name_norm"] or "").split(), True).score, r) for r in rows.values()),
        key=lambda sr: (-sr[0], sr[1]["name_norm"], sr[1]["id"]),
    )
    scored = [(s, r) for s, r in scored if s >= 0.6]
    page_rows = scored[(page - 1) * limit : page * limit]
    roles: dict[int, list[PersonRole]] = {}
    for r in db.roles_of_people(conn, [int(row["id"]) for _, row in page_rows]):
        roles.setdefault(int(r["person_id"]), []).append(role_out(r))
    items = [hit_out(row, personal, s, words, roles.get(int(row["id"]), [])) for s, row in page_rows]
    return items, len(scored)
