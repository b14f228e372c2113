"""Relinking after a company import: records imported before their companies (contracts, EU funds,
antitrust cases, court decisions, IPKZ installations) are linked by the jobs the company import queues,
by identifier and by name at the documented threshold, and only for the import's country."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

import pytest
from sqlalchemy import select

from regintel.areas.funds.tables import fund_awards
from regintel.areas.legal_records.tables import antitrust_parties, court_decision_parties, ipkz_installations
from regintel.areas.public_money.relink import relink as relink_public_money
from regintel.areas.public_money.tables import contracts
from regintel.db.jobs import RELINK_KINDS
from regintel.db.schema import jobs
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_crz import SOURCE as CRZ
from regintel.jobs.runner import run_due
from regintel.search import get_backend
from tests.funds import common as funds
from tests.legal_records import common as legal
from tests.public_money.common import FIXTURES

SK_REGISTER = SourceInfo(
    id="test_sk_register",
    name="Test SK register",
    publisher="regintel tests",
    country="SK",
    category="register",
    formats="JSON lines",
    licence="CC0 1.0",
    attribution="Test data",
    url="https://example.invalid/sk",
    cadence="on-demand",
)
COMPANIES = [
    {"national_id": "31322832", "name": "SLOVNAFT, a.s.", "city": "Bratislava", "vat_id": "SK2020372640"},
    {"national_id": "35826487", "name": "Duslo, a.s.", "city": "Šaľa"},
    {"national_id": "36199222", "name": "U. S. Steel Košice, s.r.o.", "city": "Košice"},
    {"national_id": "35697270", "name": "Orange Slovensko, a.s.", "city": "Bratislava"},
    {"national_id": "35763469", "name": "Slovak Telekom, a.s.", "city": "Bratislava"},
    {"national_id": "35829052", "name": "Slovenské elektrárne, a.s.", "city": "Bratislava"},
]


class JsonLinesCompanies:
    """A company register of one JSON object a line: the runner's ordinary path (`run_import`)."""

    info = SK_REGISTER

    def parse(self, stream: BinaryIO, name: str) -> Iterator[CompanyRecord]:
        for line in stream.read().decode("utf-8").splitlines():
            yield CompanyRecord(country="SK", **json.loads(line))


def _links(engine, table, *columns):
    with engine.connect() as conn:
        return sorted(
            tuple(r) for r in conn.execute(select(*columns, table.c.match_method).select_from(table))
        )


@pytest.fixture
def records_first(engine, settings):
    """The records imported into an empty register, then the Slovak companies through `run_import`."""
    data_dir = settings.data_dir
    run_import(engine, CRZ, str(FIXTURES / "sk_crz" / "2026-11-20.xml"), data_dir)
    for source in ("eu_kohesio", "eu_fts", "eu_state_aid_tam"):
        funds.import_source(engine, data_dir, source)
    for source in ("sk_pmu", "sk_ipkz", "sk_court_decisions"):
        legal.import_one(engine, data_dir, source)
    assert {m for (*_, m) in _links(engine, contracts, contracts.c.record_key)} == {None}
    path = settings.data_dir / "companies.jsonl"
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in COMPANIES), encoding="utf-8")
    run_import(engine, JsonLinesCompanies(), str(path), data_dir)


def test_a_company_import_queues_the_relink_jobs_for_its_country(engine, records_first):
    with engine.connect() as conn:
        queued = conn.execute(
            select(jobs.c.kind, jobs.c.payload, jobs.c.status)
            .where(jobs.c.kind.in_(RELINK_KINDS))
            .order_by(jobs.c.kind)
        ).all()
    assert [tuple(q) for q in queued] == [
        (kind, {"country": "SK"}, "queued") for kind in sorted(RELINK_KINDS)
    ]


def test_the_jobs_link_by_identifier_and_by_name_at_the_threshold(engine, settings, records_first):
    assert run_due(engine, settings, "test-worker", kinds=RELINK_KINDS) == 3  # not the search index's job
    with engine.connect() as conn:
        results = dict(conn.execute(select(jobs.c.kind, jobs.c.result).where(jobs.c.status == "done")).all())
    assert set(results) == set(RELINK_KINDS)
    # 5 unlinked rows, then the 2 linked by name looked at again by identifier
    assert results["public_money.relink"]["contracts"] == {"seen": 7, "linked": 4, "relinked": 0}
    assert _links(engine, contracts, contracts.c.record_key) == [
        ("9100001", "identifier"),
        ("9100002", "identifier"),
        ("9100003", "name"),
        ("9100004", None),  # a natural person: no company of that name
        ("9100006", "name"),
    ]  # its IČO fails the check digit, so the name decided, as at import
    with engine.connect() as conn:
        scores = conn.execute(
            select(contracts.c.match_score).where(contracts.c.match_method == "name")
        ).scalars()
        assert all(s >= 0.9 for s in scores)
    assert _links(engine, fund_awards, fund_awards.c.source, fund_awards.c.beneficiary_name) == [
        ("eu_fts", "Fraunhofer-Gesellschaft zur Förderung der angewandten Forschung e.V.", None),
        ("eu_fts", "SLOVNAFT, a.s.", "vat"),
        ("eu_fts", "Univerzita Karlova", None),
        ("eu_kohesio", "Alza.cz a.s.", None),  # Czech: not this import's country
        ("eu_kohesio", "Obec Horná Dolná", None),
        ("eu_kohesio", "SLOVNAFT, a.s.", "name"),
        ("eu_state_aid_tam", "Neznámá firma s.r.o.", None),
        ("eu_state_aid_tam", "SLOVNAFT, a.s.", "identifier"),
        ("eu_state_aid_tam", "SLOVNAFT, a.s.", "vat"),
        ("eu_state_aid_tam", "ČEZ, a. s.", None),
    ]
    assert _links(engine, antitrust_parties, antitrust_parties.c.name) == [
        ("Duslo, a.s.", "name"),
        ("SLOVNAFT, a.s.", "identifier"),
        ("Slovak Telekom, a.s.", "identifier"),
        ("Slovenské elektrárne, a.s.", "identifier"),
        ("U. S. Steel Košice, s.r.o.", "identifier"),
    ]
    assert ("Duslo, a.s.", "name") in _links(engine, ipkz_installations, ipkz_installations.c.operator_name)
    assert ("Orange Slovensko, a.s.", "name") in _links(
        engine, court_decision_parties, court_decision_parties.c.name
    )
    assert ("Protimonopolný úrad Slovenskej republiky", None) in _links(
        engine, court_decision_parties, court_decision_parties.c.name
    )


def test_relinking_again_links_nothing_more(engine, settings, records_first):
    run_due(engine, settings, "test-worker")
    before = _links(engine, contracts, contracts.c.id)
    again = relink_public_money(engine, get_backend(engine, settings), "SK")
    assert again["contracts"] == {"seen": 3, "linked": 0, "relinked": 0}  # the natural person, 2 by name
    assert _links(engine, contracts, contracts.c.id) == before


def test_an_import_that_wrote_no_company_queues_nothing(engine, settings, records_first):
    with engine.begin() as conn:
        conn.execute(jobs.delete())
    run_import(engine, JsonLinesCompanies(), str(settings.data_dir / "companies.jsonl"), settings.data_dir)
    with engine.connect() as conn:
        assert conn.execute(select(jobs.c.id).where(jobs.c.kind.in_(RELINK_KINDS))).first() is None


@pytest.mark.parametrize(
    "payload", [{"country": "sk"}, {"country": 7}, {"country": "SVK"}, {"countries": ["SK"]}]
)
def test_a_bad_payload_fails_the_job_for_good(engine, settings, payload: dict[str, Any]):
    from datetime import UTC, datetime

    from regintel.db.jobs import enqueue

    with engine.begin() as conn:
        job_id = enqueue(conn, "funds.relink", payload, now=datetime.now(UTC))
    assert run_due(engine, settings, "test-worker") == 1
    with engine.connect() as conn:
        row = conn.execute(select(jobs.c.status, jobs.c.last_error).where(jobs.c.id == job_id)).one()
    assert row.status == "failed" and "payload" in row.last_error


class AnyCountryCompanies(JsonLinesCompanies):
    """A register of several countries (GLEIF-like): its import queues the relink of every country."""

    info = SourceInfo(
        id="test_any_register",
        name="Test register of several countries",
        publisher="regintel tests",
        country=None,
        category="register",
        formats="JSON lines",
        licence="CC0 1.0",
        attribution="Test data",
        url="https://example.invalid/any",
        cadence="on-demand",
    )

    def parse(self, stream: BinaryIO, name: str) -> Iterator[CompanyRecord]:
        for line in stream.read().decode("utf-8").splitlines():
            yield CompanyRecord(**json.loads(line))


def test_ted_winners_and_their_contracts_are_relinked(engine, settings):
    from regintel.areas.public_money.tables import ted_winners
    from tests.public_money.common import import_ted

    import_ted(engine, settings.data_dir)
    assert {m for (*_, m) in _links(engine, ted_winners, ted_winners.c.name)} == {None}
    path = settings.data_dir / "fr.jsonl"
    path.write_text(
        json.dumps({"country": "FR", "national_id": "326912557", "name": "ESPACES VERTS LEMIRE"}) + "\n",
        encoding="utf-8",
    )
    run_import(engine, AnyCountryCompanies(), str(path), settings.data_dir)
    with engine.connect() as conn:
        payloads = {
            p
            for (p,) in conn.execute(select(jobs.c.payload).where(jobs.c.kind.in_(RELINK_KINDS)))
            for p in [json.dumps(p)]
        }
    assert payloads == {"{}"}
    assert run_due(engine, settings, "test-worker", kinds=RELINK_KINDS) == 3  # not the search index's job
    winners = [w for w in _links(engine, ted_winners, ted_winners.c.name) if w[1] is not None]
    assert winners == [("Espaces Verts Lemire", "identifier")]  # as the notice writes it
    with engine.connect() as conn:
        linked = conn.execute(
            select(contracts.c.party_name, contracts.c.match_method, contracts.c.title).where(
                contracts.c.company_id.is_not(None)
            )
        ).all()
    assert [tuple(r) for r in linked] == [("Espaces Verts Lemire", "identifier", "Agence Centre")]
