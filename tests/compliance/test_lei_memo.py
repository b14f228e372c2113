"""The LEI record's compliance fields are kept under a key of the rows they were derived from
(areas/compliance/service.lei_fields): a repeated call derives nothing, any changed row is a new answer
at once, and a company whose fields read past the rows read ahead (the CZ VAT payer register) is never
kept."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from regintel.areas.compliance import service as compliance
from regintel.areas.screening.hits import refresh_company_hits
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.compliance.test_api import fin
from tests.helpers import assert_envelope
from tests.public_money.common import import_adis
from tests.screening.support import load_lists

SK_LEI = "097900BHF50000076475"


@pytest.fixture
def derived(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The company ids whose fields were derived (not answered from the memo), call by call."""
    calls: list[int] = []
    real = compliance._lei_fields

    def counting(conn: Any, row: Any, cid: int) -> Any:
        calls.append(cid)
        return real(conn, row, cid)

    monkeypatch.setattr(compliance, "_lei_fields", counting)
    compliance._LEI_FIELDS.clear()
    return calls


def _record(client, auth, lei: str) -> dict[str, Any]:
    return assert_envelope(client.get("/api/v1/companies/by-lei", params={"lei": lei}, headers=auth))


def _slovnaft(founded_on: date) -> CompanyRecord:
    """An SK company with an LEI and one 2024 statement: its fields follow from the rows read ahead."""
    return CompanyRecord(
        country="SK",
        national_id="31322832",
        name="SLOVNAFT, a.s.",
        lei=SK_LEI,
        founded_on=founded_on,
        financials=(fin(2024, 9_000_000, 700_000),),
    )


def test_repeats_come_from_the_memo_and_changed_rows_are_new_answers(client, auth, engine, derived):
    company = _slovnaft(date(1992, 1, 1))
    load_companies(engine, company)
    first = _record(client, auth, SK_LEI)
    assert first["creditGrade"] is not None
    assert first["flags"] == {"isSanctioned": None, "hasTaxDebt": None}  # no list imported
    assert _record(client, auth, SK_LEI) == first
    assert len(derived) == 1  # the repeat derived nothing

    load_lists(engine)  # the sanctions lists' rows, read ahead, changed: a new key
    refresh_company_hits(engine)
    screened = _record(client, auth, SK_LEI)
    assert screened["flags"]["isSanctioned"] is False and len(derived) == 2

    loss = fin(2025, 9_000_000, -8_000_000)  # a statement filed: another grade the same day
    load_companies(engine, replace(company, financials=(*company.financials, loss)))
    filed = _record(client, auth, SK_LEI)
    assert filed["creditGrade"] != first["creditGrade"] and len(derived) == 3

    load_companies(engine, replace(company, financials=(*company.financials, loss), in_bankruptcy=True))
    bankrupt = _record(client, auth, SK_LEI)  # the company's own row changed
    assert bankrupt["inBankruptcy"] is True and bankrupt["creditGrade"] != filed["creditGrade"]
    assert len(derived) == 4
    assert _record(client, auth, SK_LEI) == bankrupt and len(derived) == 4


def test_the_day_is_part_of_the_key(client, auth, engine, derived, monkeypatch):
    from regintel.areas.scores import service as scores

    load_companies(engine, _slovnaft(date(2024, 1, 1)))
    day = [date(2025, 9, 1)]
    monkeypatch.setattr(scores, "today", lambda: day[0])
    young = _record(client, auth, SK_LEI)["creditGrade"]
    day[0] = date(2034, 9, 1)  # ten years on: the age factor earns more
    assert _record(client, auth, SK_LEI)["creditGrade"] != young
    assert len(derived) == 2


def test_a_company_read_past_its_rows_is_never_kept(client, auth, engine, settings, derived, lei_company):
    """CZ companies' tax reliability comes from the VAT payer register, read through SQLAlchemy inside the
    block: the block says it missed, so the fields are derived on every call and follow the register."""
    load_companies(engine, lei_company(date(1992, 1, 1)))
    lei = "529900T8BM49AURSDO55"
    assert _record(client, auth, lei)["taxReliability"] == "unknown"  # not asked about in the register
    assert _record(client, auth, lei)["taxReliability"] == "unknown"
    assert len(derived) == 2 and not compliance._LEI_FIELDS
    import_adis(engine, settings.data_dir)
    assert _record(client, auth, lei)["taxReliability"] == "reliable"
