"""Companies for the pages tests: the shared realistic set, a hostile name and an identifier in two countries."""

from __future__ import annotations

from datetime import date

import pytest

from regintel.domain.types import CompanyRecord
from tests.api.companies_fixture import load
from tests.builders import load_companies

HOSTILE = '<script>alert("x")</script> & Ελληνικά «Тест» Łódź Žilina'
HOSTILE_ID = "12345679"


@pytest.fixture
def companies(engine):
    load(engine)
    load_companies(engine, CompanyRecord(country="SK", national_id=HOSTILE_ID, name=HOSTILE, legal_form="112",
                                         founded_on=date(2015, 1, 1), city="Košice </title>", status="active"),
                   CompanyRecord(country="CZ", national_id="35757442", name="Stavby Brno s.r.o.", city="Brno"))
