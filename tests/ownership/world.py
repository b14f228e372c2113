"""A small ownership world, loaded through the real loader:

Peter Horváth ──70%──> ALFA HOLDING ──60%──> TARGET <──40%── Jana Nováková
                       ^      │30%                ^
                    20%│      v                   └─ director Ján Kováč (also director of DELTA)
                       └── BETA ──<80%── Offshore Holdings Ltd (known by name only)

TARGET's LEI has GLEIF ultimate parent GAMMA (an LEI record whose entity sits in the Cayman Islands).
EPSILON has an LEI with the reporting exception NATURAL_PERSONS and no owners on record.
UK: GB company BRIT LTD names TARGET as a corporate PSC, and Peter Horváth (born 1971-03) as a PSC.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import Engine

from regintel.domain.types import (
    CompanyKey,
    CompanyRecord,
    LeiRecord,
    LeiRelationshipRecord,
    OwnershipRecord,
    PersonRecord,
    ReportingExceptionRecord,
    RoleRecord,
)
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader
from regintel.ingest.runner import sync_catalogue
from tests.builders import TEST_SOURCE, load_companies

TARGET, ALFA, BETA, DELTA, EPSILON, ZETA = (
    "35000007",
    "35000091",
    "35000112",
    "35000147",
    "35000210",
    "35000252",
)
BRIT = "09876543"
LEI_TARGET, LEI_GAMMA, LEI_EPSILON = "097900BGCY0000006315", "213800ABCDEFGHIJKL12", "529900T8BM49AURSDO55"
PSC_SOURCE = SourceInfo(
    id="gb_psc",
    name="Companies House PSC",
    publisher="Companies House",
    country="GB",
    category="register",
    formats="jsonl",
    licence="OGL v3.0",
    attribution="Companies House",
    url="https://example.invalid/psc",
    cadence="daily",
)
GLEIF_SOURCE = SourceInfo(
    id="gleif_rr",
    name="GLEIF RR",
    publisher="GLEIF",
    country=None,
    category="lei",
    formats="xml",
    licence="CC0 1.0",
    attribution="GLEIF",
    url="https://example.invalid/rr",
    cadence="daily",
)

PETER = PersonRecord("Peter Horváth", birth_date="1971-03-04", nationality="SK", country_of_residence="SK")
JANA = PersonRecord("Jana Nováková", birth_date="1980-11-20", nationality="SK", country_of_residence="KY")
JAN = PersonRecord("Ján Kováč", birth_date="1965-01-02", nationality="CZ")
SINCE = date(2015, 1, 1)


def sk(national_id: str) -> CompanyKey:
    return CompanyKey("SK", national_id)


def load_world(engine: Engine) -> None:
    names = {
        TARGET: "TARGET s.r.o.",
        ALFA: "ALFA HOLDING a.s.",
        BETA: "BETA s.r.o.",
        DELTA: "DELTA s.r.o.",
        EPSILON: "EPSILON a.s.",
        ZETA: "ZETA s.r.o.",
    }
    load_companies(
        engine,
        *[
            CompanyRecord(
                country="SK",
                national_id=k,
                name=v,
                lei=LEI_TARGET if k == TARGET else LEI_EPSILON if k == EPSILON else None,
            )
            for k, v in names.items()
        ],
    )
    load_companies(engine, CompanyRecord(country="GB", national_id=BRIT, name="BRIT LTD"), source=PSC_SOURCE)
    load_companies(
        engine,
        *[
            CompanyRecord(
                country="SK",
                national_id=TARGET,
                roles=[
                    RoleRecord(
                        "shareholder",
                        "ALFA HOLDING a.s.",
                        holder_company=sk(ALFA),
                        share_pct=60.0,
                        since=SINCE,
                    ),
                    RoleRecord("shareholder", JANA.name, person=JANA, share_pct=40.0, since=SINCE),
                    RoleRecord("director", JAN.name, person=JAN, title="konateľ", since=SINCE),
                    RoleRecord(
                        "director",
                        "Old Director",
                        person=PersonRecord("Old Director"),
                        since=date(2010, 1, 1),
                        until=date(2014, 12, 31),
                    ),
                ],
            ),
            CompanyRecord(
                country="SK",
                national_id=ALFA,
                roles=[
                    RoleRecord("shareholder", PETER.name, person=PETER, share_pct=70.0),
                    RoleRecord("shareholder", "BETA s.r.o.", holder_company=sk(BETA), share_pct=30.0),
                ],
            ),
            CompanyRecord(
                country="SK",
                national_id=BETA,
                roles=[
                    RoleRecord("shareholder", "ALFA HOLDING a.s.", holder_company=sk(ALFA), share_pct=20.0),
                    RoleRecord("shareholder", "Offshore Holdings Ltd", share_pct=80.0),
                ],
            ),
            CompanyRecord(
                country="SK",
                national_id=DELTA,
                roles=[RoleRecord("director", JAN.name, person=JAN, title="konateľ")],
            ),
        ],
    )
    load_companies(
        engine,
        CompanyRecord(
            country="GB",
            national_id=BRIT,
            roles=[
                RoleRecord(
                    "shareholder",
                    "TARGET s.r.o.",
                    holder_company=sk(TARGET),
                    share_pct=25.0,
                    natures_of_control=["ownership-of-shares-25-to-50-percent"],
                    since=date(2019, 5, 1),
                ),
                RoleRecord(
                    "beneficial_owner",
                    "Peter Horváth",
                    person=PersonRecord("Peter Horváth", birth_date="1971-03", nationality="Slovak"),
                    share_pct=50.0,
                    natures_of_control=["ownership-of-shares-50-to-75-percent"],
                ),
            ],
        ),
        source=PSC_SOURCE,
    )
    sync_catalogue(engine, [GLEIF_SOURCE])
    loader = Loader(engine, GLEIF_SOURCE)
    for record in (
        LeiRecord(
            lei=LEI_GAMMA,
            legal_name="GAMMA CAYMAN LP",
            registration_status="ISSUED",
            country="KY",
            jurisdiction="KY",
        ),
        LeiRelationshipRecord(
            child_lei=LEI_TARGET,
            parent_lei=LEI_GAMMA,
            kind="ultimate",
            status="ACTIVE",
            registration_status="PUBLISHED",
        ),
        ReportingExceptionRecord(
            lei=LEI_EPSILON, category="DIRECT_ACCOUNTING_CONSOLIDATION_PARENT", reason="NATURAL_PERSONS"
        ),
        # ZETA is consolidated by EPSILON (a GLEIF edge with the ambiguous 1.00 scale).
        OwnershipRecord(parent=sk(EPSILON), child=sk(ZETA), kind="direct", share_pct=1.0, since=SINCE),
    ):
        loader.add(record)
    loader.flush()


__all__ = ["TEST_SOURCE", "load_world"]
