"""One PSC line to a role: who holds it (a person, or a company we can key), what control it is
(natures_of_control, as published) and the lower bound of the published share band."""

from __future__ import annotations

import re
from typing import Any

from rigour.territories import lookup_territory

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
    identification = data.get("identification")
    key = company_key(identification)
    if key is not None:
        return RoleRecord(role, name, holder_company=key, **common)
    country, number = registration(identification)
    return RoleRecord(role, name, holder_reg_country=country, holder_reg_number=number, **common)


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


# Where a corporate PSC's country is read from, most specific first.
_PLACE_FIELDS = ("country_registered", "place_registered", "legal_authority")
_PARTS = re.compile(r"[,;()/]")
_OF = re.compile(r"\bof\s+(?:the\s+)?", re.IGNORECASE)


def registration(identification: Any) -> tuple[str | None, str | None]:
    """The country (ISO alpha-2) and register number of a corporate PSC that has no UK company key, as
    its identification gives them: `country_registered` ("Minnesota, Usa"), else `place_registered`,
    else `legal_authority` ("The Companies Ordinance Of The Laws Of Gibraltar"). The number is written
    as that country's register writes it when it is valid there (`parse_national_id`), so it can be
    compared with our companies' numbers; otherwise without spaces, as given."""
    if not isinstance(identification, dict):
        return None, None
    country = next(
        (code for k in _PLACE_FIELDS if (code := territory(text(identification.get(k), k))) is not None), None
    )
    number = text(identification.get("registration_number"), "registration_number")
    if number is None:
        return country, None
    if country is not None:
        try:
            return country, parse_national_id(country, number)
        except InvalidIdentifier:
            pass
    return country, re.sub(r"\s", "", number).upper()[:64] or None


def territory(value: str | None) -> str | None:
    """The ISO country of a place as PSC entries write it, read with `rigour`'s territory names (a US
    state or a UK nation gives its country): the whole text, then its comma or bracket parts, then
    what follows "of" ("Laws Of Gibraltar")."""
    if not value:
        return None
    parts = [p.strip() for p in _PARTS.split(value)]
    tails = [_OF.split(p)[-1].strip() for p in parts if _OF.search(p)]
    for candidate in (value, *parts, *tails):
        found = lookup_territory(candidate) if candidate else None
        if found is not None:
            return (found.ftm_country or found.code).split("-")[0].upper()
    return None
