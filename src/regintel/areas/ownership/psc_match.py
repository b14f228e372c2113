"""Is a corporate PSC known only by name (a company registered abroad) this company of ours? Pure: the
decision from what the PSC entry gives (normalised name, country, register number) against the
company's own, with the basis it rests on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier

Match = Literal["registration_number", "name_country", "name"]


@dataclass(frozen=True)
class Basis:
    """What agreed, what the entry did not say (None), and the entry's own values."""

    match: Match
    name: bool
    country: bool | None
    registration_number: bool | None
    psc_country: str | None
    psc_registration_number: str | None


def number_agrees(country: str, national_id: str, given: str | None) -> bool | None:
    """The entry's number read as `country`'s register number: the same (True), another valid one
    (False), or none or unreadable there (None: it neither confirms nor contradicts)."""
    if not given:
        return None
    try:
        return parse_national_id(country, given) == national_id
    except InvalidIdentifier:
        return None


def decide(
    country: str,
    national_id: str,
    name_norm: str | None,
    psc_name_norm: str | None,
    psc_country: str | None,
    psc_number: str | None,
) -> Basis | None:
    """The match, or None when nothing ties the entry to the company or something contradicts it.

    A number that is the company's, in its country (or in no stated country) with a name that agrees, is
    `registration_number`; the same name in the same country and no other number is `name_country`; the
    same name with no country stated is `name`, a lead to check. A different country, or another valid
    register number of the company's country, rules the entry out whatever the name."""
    name = bool(name_norm) and name_norm == psc_name_norm
    same_country = None if psc_country is None else psc_country == country
    if same_country is False:
        return None
    number = number_agrees(country, national_id, psc_number)
    if number is False:
        return None
    match: Match | None = None
    if number and (same_country or name):
        match = "registration_number"
    elif name and same_country:
        match = "name_country"
    elif name:
        match = "name"
    if match is None:
        return None
    return Basis(match, name, same_country, number, psc_country, psc_number)
