"""The people read models: what `/companies/person/{key}` and `/people/search` answer.

`TypedDict`s, as in `areas/companies/schemas.py`: the service builds each answer as a dict of exactly
these keys, one function per model (`mypy --strict` checks them where it is built), FastAPI writes the
types into the OpenAPI document (`response_model=Envelope[...]`) and orjson writes the body as it is.
`tests/api/test_people_read_models.py` validates served bodies against them, unknown keys refused
(`extra="forbid"`, `additionalProperties: false` in the document). The personal fields are present only
when the purpose gate opens (`service.check_purpose`), so they are `NotRequired`.
"""

from __future__ import annotations

from datetime import date
from typing import NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

_CLOSED = ConfigDict(extra="forbid")


@with_config(_CLOSED)
class Person(TypedDict):
    key: str
    name: str
    birthDate: NotRequired[str | None]
    nationality: NotRequired[str | None]
    countryOfResidence: NotRequired[str | None]


@with_config(_CLOSED)
class RoleCompany(TypedDict):
    country: str
    nationalId: str
    name: str
    status: str
    inBankruptcy: bool


@with_config(_CLOSED)
class PersonRole(TypedDict):
    role: str
    title: str | None
    sharePct: float | None
    votingPct: float | None
    since: date | None
    until: date | None
    source: str
    company: RoleCompany


@with_config(_CLOSED)
class PersonCompanies(TypedDict):
    person: Person
    companyCount: int
    roles: list[PersonRole]


@with_config(_CLOSED)
class PersonHit(Person):
    score: float
    highlight: str
    roles: list[PersonRole]
