"""The statutory body and the stakeholders of an RPO entity as RoleRecords.

`statutoryBodies` are the members of the statutory body (konateľ, predstavenstvo, likvidátor …);
`stakeholders` are the partners, shareholders and founders. RPO publishes no share percentages: a
partner's share is computed from the deposits (`deposits`) over the registered capital
(`equities`), the Commercial Code's default rule for a limited company when the articles set no
other ratio.
"""

from __future__ import annotations

from decimal import Decimal

from regintel.domain.identifiers import is_valid_national_id, parse_national_id
from regintel.domain.names import normalise_name
from regintel.domain.types import CompanyKey, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError
from regintel.ingest.sources.sk_rpo_values import (
    Json,
    amount,
    country_code,
    current,
    day,
    in_force,
    item,
    series,
)
from regintel.ingest.sources.sk_rpo_values import text as text_of

# Members of the managing board of a company are its directors; other statutory roles (a
# liquidator, a procurator, a cooperative's chair) stay `statutory_body` with their title.
_DIRECTOR_TITLES = ("konatel", "clen predstavenstva", "predseda predstavenstva", "podpredseda predstavenstva")


def roles(entity: Json) -> list[RoleRecord] | None:
    """All roles, current and ended; None for the search form, which says nothing about them."""
    if "statutoryBodies" not in entity and "stakeholders" not in entity:
        return None
    shares = _shares(entity)
    out: dict[tuple[str, str], RoleRecord] = {}
    for entry in series(entity, "statutoryBodies"):
        _keep(out, _role(entry, "statutoryBodies", shares))
    for entry in series(entity, "stakeholders"):
        _keep(out, _role(entry, "stakeholders", shares))
    return list(out.values())


def _role(entry: Json, what: str, shares: dict[str, float]) -> RoleRecord:
    """A statutory body's member (a director when the title says so) or a stakeholder (a shareholder,
    with the share of the capital when in post)."""
    holder, person, company = _holder(entry, what)
    title = text_of(item(entry, "stakeholderType"), "value", f"{what}.stakeholderType.value")
    since = day(entry.get("validFrom"), f"{what}.validFrom")
    until = day(entry.get("validTo"), f"{what}.validTo")
    share = None
    if what == "stakeholders":
        role = "shareholder"
        share = shares.get(normalise_name(holder)) if until is None else None
    else:
        role = "director" if normalise_name(title or "") in _DIRECTOR_TITLES else "statutory_body"
    return RoleRecord(
        role=role,
        holder_name=holder,
        person=person,
        holder_company=company,
        title=title,
        share_pct=share,
        since=since,
        until=until,
    )


def _holder(entry: Json, what: str) -> tuple[str, PersonRecord | None, CompanyKey | None]:
    """(name as shown, the natural person, the company) of a role holder."""
    person = item(entry, "personName")
    if person is not None:
        plain = " ".join(_names(person, "givenNames") + _names(person, "familyNames"))
        shown = text_of(person, "formatedName", f"{what}.personName.formatedName") or plain
        if not shown:
            raise RecordError(f"{what}: a person without a name")
        # The person's identity leaves out academic titles, which the formatted name carries.
        return (
            shown,
            PersonRecord(plain or shown, country_of_residence=country_code(item(entry, "address"))),
            None,
        )
    name = text_of(entry, "fullName", f"{what}.fullName")
    if not name:
        raise RecordError(f"{what}: an entry that names no person or company")
    return name, None, _company(entry, what)


def _names(person: Json, key: str) -> list[str]:
    values = person.get(key) or []
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise RecordError(f"personName.{key} is not a list of names")
    return [v.strip() for v in values if v.strip()]


def _company(entry: Json, what: str) -> CompanyKey | None:
    """A Slovak legal person named by a valid IČO; foreign ones are kept by name only."""
    ico = text_of(entry, "identifier", f"{what}.identifier")
    country = country_code(item(entry, "address")) or "SK"
    if ico and country == "SK" and is_valid_national_id("SK", ico):
        return CompanyKey("SK", parse_national_id("SK", ico))
    return None


def _keep(out: dict[tuple[str, str], RoleRecord], role: RoleRecord) -> None:
    """One role per holder: the one in force, else the latest (a person re-appointed twice)."""
    key = (
        role.role,
        role.holder_company.national_id if role.holder_company else normalise_name(role.holder_name),
    )
    old = out.get(key)
    if old is None or _rank(role) >= _rank(old):
        out[key] = role


def _rank(role: RoleRecord) -> tuple[bool, str]:
    return role.until is None, str(role.since or "")


def _shares(entity: Json) -> dict[str, float]:
    """Normalised holder name → percentage of the registered capital in force."""
    equity = current(entity, "equities")
    capital = amount(equity.get("value"), "equities.value") if equity else None
    currency = text_of(item(equity, "currency"), "value", "equities.currency.value")
    if not capital or capital <= 0:
        return {}
    totals: dict[str, Decimal] = {}
    for deposit in in_force(entity, "deposits"):
        if text_of(item(deposit, "currency"), "value", "deposits.currency.value") not in (None, currency):
            continue
        value = amount(deposit.get("amount"), "deposits.amount")
        holder = text_of(
            item(deposit, "personName"), "formatedName", "deposits.personName.formatedName"
        ) or text_of(deposit, "fullName", "deposits.fullName")
        if value is not None and holder:
            key = normalise_name(holder)
            totals[key] = totals.get(key, Decimal(0)) + value
    return {k: float(round(v * 100 / capital, 2)) for k, v in totals.items()}
