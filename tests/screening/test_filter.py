"""The precomputed company hits: the job after a list import, the advanced-search `sanctioned` filter and
`/public/stats/sanctions`."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from regintel.areas.screening.hits import refresh_company_hits
from regintel.areas.screening.importer import HITS_JOB
from regintel.areas.screening.tables import company_sanction_hits
from regintel.db.schema import jobs
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.jobs.registry import JobContext, handlers
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.screening.support import load_lists

SEARCH = "/api/v1/companies/advanced-search"
STATS = "/api/v1/public/stats/sanctions"


@pytest.fixture
def companies(engine):
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id="31322832", name="BANCO NACIONAL DE CUBA, a.s."),
        CompanyRecord(
            country="SK",
            national_id="35763469",
            name="Zelená Lúka s.r.o.",
            roles=[
                RoleRecord(
                    role="director",
                    holder_name="Mohammad Hassan Akhund",
                    person=PersonRecord(name="Mohammad Hassan Akhund"),
                )
            ],
        ),
        CompanyRecord(country="SK", national_id="36631124", name="Tatra Pekáreň s.r.o."),
    )


def test_import_queues_the_job_once_and_it_fills_the_hits(engine, settings, companies):
    load_lists(engine)
    with engine.connect() as conn:
        queued = conn.execute(select(jobs.c.kind, jobs.c.status).where(jobs.c.kind == HITS_JOB)).all()
    assert queued == [(HITS_JOB, "queued")]  # three imports, one queued job (deduplicated)
    ctx = JobContext(engine=engine, settings=settings, job_id=1, attempt=1)
    assert handlers()[HITS_JOB](ctx, {}) == {"companies": 3, "hits": 2}
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                company_sanction_hits.c.subject,
                company_sanction_hits.c.subject_name,
                company_sanction_hits.c.natural_person,
            ).order_by(company_sanction_hits.c.subject)
        ).all()
    assert rows == [
        ("company", "BANCO NACIONAL DE CUBA, a.s.", False),
        ("officer", "Mohammad Hassan Akhund", True),
    ]
    assert refresh_company_hits(engine) == {"companies": 3, "hits": 2}  # recomputing replaces, never adds
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(company_sanction_hits)).scalar_one() == 2


def test_sanctioned_filter(client, auth, engine, companies):
    assert assert_envelope(client.get(SEARCH, params={"sanctioned": 1}, headers=auth)) == []
    load_lists(engine)
    refresh_company_hits(engine)
    hit = assert_envelope(client.get(SEARCH, params={"sanctioned": 1}, headers=auth))
    assert sorted(r["nationalId"] for r in hit) == ["31322832", "35763469"]
    clean = assert_envelope(client.get(SEARCH, params={"sanctioned": 0, "country": "sk"}, headers=auth))
    assert [r["nationalId"] for r in clean] == ["36631124"]
    assert_error(client.get(SEARCH, params={"sanctioned": "maybe"}, headers=auth), 422, "VALIDATION_ERROR")


def test_stats_modes_and_privacy(client, engine, companies):
    assert_error(client.get(STATS), 501, "NOT_IMPLEMENTED")
    load_lists(engine)
    refresh_company_hits(engine)
    resp = client.get(STATS, params={"mode": "sanctioned"})
    data = assert_envelope(resp)
    assert (data["mode"], data["total"], resp.json()["meta"]["total"]) == ("sanctioned", 2, 2)
    officer = next(i for i in data["items"] if i["national_id"] == "35763469")
    assert officer["hits"][0]["subject"] == "officer" and officer["hits"][0]["subject_name"] is None
    assert "Akhund" not in resp.text  # a natural person's name never shows in the public feed
    assert assert_envelope(client.get(STATS, params={"mode": "any"}))["total"] == 2
    assert assert_envelope(client.get(STATS, params={"mode": "debarred"}))["items"] == []
    assert_error(client.get(STATS, params={"mode": "all"}), 422, "VALIDATION_ERROR")
    assert_error(client.get(STATS, params={"top": 5}), 422, "VALIDATION_ERROR")


@pytest.mark.parametrize(
    "role, kind",
    [
        ("director", "officer"),
        ("board_member", "officer"),
        ("statutory_body", "officer"),
        ("shareholder", "owner"),
        ("beneficial_owner", "owner"),
        ("psc", "owner"),
        ("parent_company", "owner"),
    ],
)
def test_roles_are_officers_or_owners(role, kind):
    from regintel.areas.screening.service import subject_kind

    assert subject_kind(role) == kind


def test_hit_summary_for_other_areas(engine, companies):
    from regintel.areas.screening.service import company_hit_summary
    from regintel.db.schema import companies as companies_table

    load_lists(engine)
    refresh_company_hits(engine)
    with engine.connect() as conn:
        ids = dict(conn.execute(select(companies_table.c.national_id, companies_table.c.id)).all())
        assert company_hit_summary(conn, ids["31322832"]) == {
            "hits": 1,
            "confirmed": 0,
            "sanctioned": 1,
            "debarred": 0,
        }
        assert company_hit_summary(conn, ids["36631124"]) == {
            "hits": 0,
            "confirmed": 0,
            "sanctioned": 0,
            "debarred": 0,
        }


def test_stats_csv_and_limit(client, engine, companies):
    load_lists(engine)
    refresh_company_hits(engine)
    one = assert_envelope(client.get(STATS, params={"limit": 1}))
    assert (len(one["items"]), one["total"]) == (1, 2)
    resp = client.get(STATS + ".csv", params={"mode": "sanctioned"})
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/csv")
    lines = resp.text.splitlines()
    assert lines[0].startswith('"Sanctioned companies (sanctioned), 2 in all')
    assert lines[2] == "country,national_id,name,best_score,hit_count,entries"
    assert any("sanctions_ofac:306" in line for line in lines[3:]) and "Akhund" not in resp.text
    assert_error(client.get(STATS + ".csv", params={"limit": 501}), 422, "VALIDATION_ERROR")
    assert_error(client.get(STATS, params={"limit": 101}), 422, "VALIDATION_ERROR")
