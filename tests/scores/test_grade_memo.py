"""The memoised credit grade of the LEI record follows the day (the age factor moves with it) and the
data (a new statement is a new key), with the clock injected, not waited for."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from regintel.areas.scores import service as scores
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.compliance.test_api import CSA, fin
from tests.helpers import assert_envelope

LEI = "529900T8BM49AURSDO55"


def test_grade_changes_with_the_day_and_the_statements(
    client, auth, engine, lei_company, monkeypatch: pytest.MonkeyPatch
):
    company = lei_company(date(2024, 1, 1))
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
    assert after == _computed(engine, day[0])


def _computed(engine, on: date) -> str | None:
    from regintel.db import lookup as db

    with engine.connect() as conn:
        return scores.credit(conn, db.company_by_lei(conn, LEI), as_of=on).grade


class _OnlyFactColumns(dict[str, Any]):
    def __getitem__(self, name: str) -> Any:
        if name not in scores.FACT_COLUMNS:
            raise AssertionError(f"facts() read {name!r}, which the grade's memo key leaves out")
        return super().__getitem__(name)


def test_the_memo_key_holds_every_company_column_the_facts_read(engine) -> None:
    """The company's part of the memo key is `FACT_COLUMNS`: a column `facts` read beyond them would let
    two companies that differ in it share a grade."""
    from regintel.db import lookup as db

    load_companies(engine, CompanyRecord(country="CZ", national_id=CSA, name="České aerolinie a.s.", lei=LEI))
    with engine.connect() as conn:
        row = db.company_by_lei(conn, LEI)
    only = _OnlyFactColumns({c: row[c] for c in scores.FACT_COLUMNS})
    assert scores.facts(only, []).source == row["source"]


def test_a_changed_fact_is_a_new_key(client, auth, engine, lei_company) -> None:
    """The register's status moves the grade at once: the memo holds the company's facts in its key."""
    company = lei_company(date(2001, 1, 1))
    load_companies(engine, company)

    def grade() -> str | None:
        data = assert_envelope(client.get("/api/v1/companies/by-lei", params={"lei": LEI}, headers=auth))
        return data["creditGrade"]  # type: ignore[no-any-return]

    active = grade()
    assert active is not None and grade() == active
    load_companies(engine, replace(company, in_bankruptcy=True))
    bankrupt = grade()
    assert bankrupt != active and bankrupt == _computed(engine, scores.today())
