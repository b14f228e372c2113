"""The LEI record of spec 2.4 carries the compliance fields (tax reliability, credit grade, NIS2 scope,
sanctions flag) computed by the compliance area."""

from __future__ import annotations

from datetime import date

from regintel.areas.screening.hits import refresh_company_hits
from regintel.domain.types import CompanyKey, CompanyRecord, LeiRecord
from regintel.ingest.loader import Loader
from tests.builders import TEST_SOURCE, load_companies
from tests.compliance.test_api import CSA, JL
from tests.helpers import assert_envelope
from tests.public_money.common import import_adis
from tests.screening.support import load_lists

LEI_CSA = "529900T8BM49AURSDO55"
LEI_JL = "097900BGCY0000006315"


def test_lei_record_compliance_fields(client, auth, engine, settings, lei_company):
    load_companies(
        engine,
        lei_company(date(1992, 1, 1)),
        CompanyRecord(country="CZ", national_id=JL, name="J&L Industries s.r.o.", lei=LEI_JL),
    )
    loader = Loader(engine, TEST_SOURCE)
    loader.add(
        LeiRecord(
            lei=LEI_CSA,
            legal_name="České aerolinie a.s.",
            registration_status="ISSUED",
            company=CompanyKey("CZ", CSA),
        )
    )
    loader.flush()
    import_adis(engine, settings.data_dir)

    def record(lei):
        return assert_envelope(client.get("/api/v1/companies/by-lei", params={"lei": lei}, headers=auth))

    csa = record(LEI_CSA)
    assert csa["taxReliability"] == "reliable" and csa["creditGrade"] in ("A+", "A", "B", "C", "D", "E", "F")
    assert csa["flags"] == {"isSanctioned": None, "hasTaxDebt": None}  # no list imported
    assert csa["nis2InScope"] in (True, False, None)
    jl = record(LEI_JL)  # no GLEIF record: found through the company's LEI column
    assert (jl["taxReliability"], jl["creditGrade"]) == ("unreliable", None)  # no statement: grade withheld
    load_lists(engine)
    refresh_company_hits(engine)
    assert record(LEI_CSA)["flags"] == {"isSanctioned": False, "hasTaxDebt": None}
