"""Latvian Register of Enterprises: `beneficial_owners.csv`, the current beneficial owners (patiesā
labuma guvēji) of each legal entity, one natural person a row, `;`-separated, UTF-8.

The rows of one entity are not all next to each other (a later declaration is appended further
down), so the roles are gathered per entity over the whole file and each entity's record is yielded
at the end: memory grows with the number of entities that declared owners (about 200k in the full
file, a few hundred bytes each). An entity's record replaces the beneficial owners this source gave
it before; an entity the file no longer lists keeps what it had (the file says nothing about it).

The file names the entity by its registration number only: an owner of an entity regintel does not
hold yet (import `lv_ur` register.csv first) is rejected with "unknown company and the record has no
name". People: name, nationality, residence, and the birth month UR publishes for foreigners
(`birth_date` YYYY-MM). The masked Latvian personal code (`DDMMYY-*****`) is not stored: its century
digit is masked, so it does not even give a birth date. Natural persons are served under regintel's
purpose gate.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import iso_date
from regintel.ingest.sources import register
from regintel.ingest.sources.lv_ur import INFO as REGISTER_INFO
from regintel.ingest.streams import peek

INFO = SourceInfo(
    id="lv_ur_bo",
    name="Uzņēmumu reģistrs – beneficial_owners.csv (beneficial owners)",
    publisher=REGISTER_INFO.publisher,
    country="LV",
    category="register",
    formats="beneficial_owners.csv (`;`-separated, UTF-8, optional `sep=;` first line), .gz or .zip",
    licence=REGISTER_INFO.licence,
    licence_url=REGISTER_INFO.licence_url,
    attribution=REGISTER_INFO.attribution,
    url=REGISTER_INFO.url,
    cadence="daily",
)
REQUIRED = (
    "legal_entity_registration_number",
    "forename",
    "surname",
    "birth_date",
    "nationality",
    "residence",
    "registered_on",
    "last_modified_at",
)


class BeneficialOwnersSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        head, stream = peek(stream)
        if head.lstrip(b"\xef\xbb\xbf").startswith(b"sep="):
            stream.readline()
        csv_file = open_csv(stream, delimiter=";")
        columns = csv_file.index(REQUIRED, "UR beneficial_owners.csv")
        owners: dict[str, tuple[list[RoleRecord], date | None]] = {}
        for item in csv_file.rows:
            if isinstance(item, RecordError):
                yield item
                continue
            row = {col: item[1][i].strip() for col, i in columns.items()}
            try:
                code, role, modified = to_role(row)
            except RecordError as exc:
                exc.raw = row
                yield exc
                continue
            roles, newest = owners.setdefault(code, ([], None))
            roles.append(role)
            owners[code] = (roles, max(filter(None, (newest, modified)), default=None))
        for code, (roles, newest) in owners.items():
            yield CompanyRecord(
                country="LV", national_id=code, source_record_id=code, published_on=newest, roles=tuple(roles)
            )


def to_role(row: dict[str, str]) -> tuple[str, RoleRecord, date | None]:
    code = row["legal_entity_registration_number"]
    if not code:
        raise RecordError("legal_entity_registration_number is empty")
    name = " ".join(p for p in (row["forename"], row["surname"]) if p)
    if not name:
        raise RecordError("a beneficial owner without a name")
    birth = row["birth_date"] or None
    if birth and not (len(birth) in (4, 7, 10) and birth[:4].isdigit()):
        raise RecordError(f"birth_date is not YYYY, YYYY-MM or YYYY-MM-DD: {birth!r}")
    person = PersonRecord(
        name,
        birth_date=birth,
        nationality=_country(row["nationality"], "nationality"),
        country_of_residence=_country(row["residence"], "residence"),
    )
    role = RoleRecord(
        "beneficial_owner", name, person=person, since=iso_date(row["registered_on"], "registered_on")
    )
    return code, role, iso_date(row["last_modified_at"], "last_modified_at")


def _country(value: str, name: str) -> str | None:
    if not value:
        return None
    if not (len(value) == 2 and value.isalpha()):
        raise RecordError(f"{name} is not an ISO 3166-1 alpha-2 code: {value!r}")
    return value.upper()


SOURCE = register(BeneficialOwnersSource())
