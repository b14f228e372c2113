"""The memoised credit grade of the LEI record follows the day (the age factor moves with it) and the
data (a new statement is a new key), with the clock injected, not waited for."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from regintel.areas.scores import service as scores
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.compliance.test_api import CSA, fin
from tests.helpers import assert_envelope

LEI = "529900T8BM49AURSDO55"


def test_grade_changes_with_the_day_and_the_statements(client, auth, engine, monkeypatch: pytest.MonkeyPatch):
    company = CompanyRecord(
        country="CZ",
        national_id=CSA,
        name="České aerolinie a.s.",
        lei=LEI,
        founded_on=date(2024, 1, 1),
        financials=[fin(2024, 9_000_000, 700_000)],
    )
    load_companies(engine, company)
    day = [date(2025, 9, 1)]
    monkeypatch.setattr(scores, "today", lambda: day[0])

    def grade() -> str | None:
        data = assert_envelope(client.get("/api/v1/companies/by-lei", params={"lei": LEI}, headers=auth))
        return data["creditGrade"]  # type: ignore[no-any-return]

    young = grade()
    assert grade() == young  # the second answer from the memo
    day[0] = date(2034, 9, 1)  # ten years on: the age factor earns more
    older = grade()
    assert young is not None and older is not None and older != young
    day[0] = date(2025, 9, 1)
    assert grade() == young
    day[0] = date(2026, 9, 1)
    before = grade()
    loss = fin(2025, 9_000_000, -8_000_000)  # a heavy loss filed: the same day, another grade
    load_companies(engine, replace(company, financials=[*company.financials, loss]))
    after = grade()
    assert after != before
    assert after == scores.grade_of_inputs.__wrapped__(*_inputs(engine), day[0])


def _inputs(engine):
    from regintel.db import lookup as db

    with engine.connect() as conn:
        row = db.company_by_lei(conn, LEI)
        f, statements = scores.inputs(conn, row)
    return f, tuple(statements)
