"""One PSC line to a role: who holds it (a person, or a company we can key), what control it is
(natures_of_control, as published) and the lower bound of the published share band."""

from __future__ import annotations

import re
from typing import Any

from regintel.domain.identifiers import parse_national_id
from regintel.domain.names import fold
from regintel.domain.types import CompanyKey, PersonRecord, RoleRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError
from regintel.ingest.fields import iso_date, join, text

PERSON_KINDS = {"individual-person-with-significant-control", "individual-beneficial-owner"}
ENTITY_KINDS = {
    "corporate-entity-person-with-significant-control",
    "corporate-entity-beneficial-owner",
    "legal-person-person-with-significant-control",
    "legal-person-beneficial-owner",
}
ROLE_KINDS = PERSON_KINDS | ENTITY_KINDS

# "ownership-of-shares-25-to-50-percent", "…-more-than-25-percent-registered-overseas-entity",
# "…-75-to-100-percent-as-trust": the band's lower bound is the share we can state.
_SHARES = re.compile(
    r"(?:ownership-of-shares|right-to-share-surplus-assets)-(?:more-than-)?(\d+)(?:-to-\d+)?-percent"
)
_VOTES = re.compile(r"voting-rights-(?:more-than-)?(\d+)(?:-to-\d+)?-percent")
_UK = re.compile(
    r"\b(england|wales|scotland|northern ireland|united kingdom|uk|great britain|companies house)\b"
)


def role_of(kind: str, data: dict[str, Any]) -> RoleRecord:
    natures = data.get("natures_of_control") or []
    if not isinstance(natures, list) or not all(isinstance(n, str) for n in natures):
        raise RecordError(f"natures_of_control is not a list of strings: {natures!r}")
    share, votes = lower_bound(natures, _SHARES), lower_bound(natures, _VOTES)
    common: dict[str, Any] = {
        "share_pct": share,
        "voting_pct": votes,
        "natures_of_control": natures or None,
        "since": iso_date(data.get("notified_on"), "notified_on"),
        "until": iso_date(data.get("ceased_on"), "ceased_on"),
    }
    if kind in PERSON_KINDS:
        person = _person(data)
        return RoleRecord("beneficial_owner", person.name, person=person, **common)
    name = text(data.get("name"), "name")
    if name is None:
        raise RecordError("a corporate PSC without a name")
    # A legal entity holding shares is a shareholder of record; one with control only (votes,
    # appointments, influence) is listed as a beneficial owner.
    role = "shareholder" if share is not None else "beneficial_owner"
    return RoleRecord(role, name, holder_company=company_key(data.get("identification")), **common)


def lower_bound(natures: list[str], pattern: re.Pattern[str]) -> float | None:
    bounds = [float(m[1]) for n in natures if (m := pattern.match(n))]
    return max(bounds) if bounds else None


def _person(data: dict[str, Any]) -> PersonRecord:
    elements = data.get("name_elements")
    name = None
    if isinstance(elements, dict):
        # The title ("Mr", "Dr") is not part of the name a person is matched by.
        name = join(
            [text(elements.get(k), k) for k in ("forename", "other_forenames", "middle_name", "surname")], " "
        )
    name = name or text(data.get("name"), "name")
    if name is None:
        raise RecordError("an individual PSC without a name")
    return PersonRecord(
        name,
        birth_date=_birth_month(data.get("date_of_birth")),
        nationality=text(data.get("nationality"), "nationality"),
        country_of_residence=text(data.get("country_of_residence"), "country_of_residence"),
    )


def _birth_month(value: Any) -> str | None:
    """Companies House publishes a PSC's month and year of birth only: "YYYY-MM"."""
    if not isinstance(value, dict):
        return None
    year, month = value.get("year"), value.get("month")
    if not isinstance(year, int) or not 1800 < year < 2100:
        raise RecordError(f"date_of_birth has no valid year: {value!r}")
    if isinstance(month, int) and 1 <= month <= 12:
        return f"{year:04d}-{month:02d}"
    return f"{year:04d}"


def company_key(identification: Any) -> CompanyKey | None:
    """A UK-registered corporate PSC with a valid company number gets its key; others are named only."""
    if not isinstance(identification, dict):
        return None
    number = text(identification.get("registration_number"), "registration_number")
    where = fold(
        " ".join(str(identification.get(k) or "") for k in ("country_registered", "place_registered"))
    )
    if not number or not _UK.search(where):
        return None
    try:
        return CompanyKey("GB", parse_national_id("GB", number))
    except InvalidIdentifier:
        return None
