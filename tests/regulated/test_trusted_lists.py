"""The trusted-list importers (`sk_tsl`, `cz_tsl`, ETSI TS 119 612 XML) on the labelled fixtures
(tests/fixtures/regulated/README.md): the services stored and linked (register number, VAT number, name),
the NIS2 designations they make, a re-import that writes nothing, a list that changes, refused files (XXE,
the list of the lists, another territory), and `/companies/{ico}/nis2` answering through HTTP."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from regintel.areas.nis2.tables import nis2_designations
from regintel.areas.regulated.tables import regulated_authorisations as A
from regintel.cli import app
from regintel.db.schema import companies, data_sources, import_runs
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.regulated.common import FIXTURES, run

SK_LIST, CZ_LIST = FIXTURES / "sk_tsl" / "tsl.xml", FIXTURES / "cz_tsl" / "tsl.xml"
SK_QTSP, SK_TSA, SK_NAMED, SK_WITHDRAWN, SK_OTHER = "53101014", "53303032", "53606060", "53202023", "53505051"
CZ_QTSP, CZ_TSP = "53404041", "53505051"
QTSP, TSP = "qualified_trust_service_provider", "trust_service_provider"


def _companies() -> list[CompanyRecord]:
    return [
        CompanyRecord(
            country="SK", national_id=SK_QTSP, name="Dôveryhodná autorita Test, s.r.o.", employees=4
        ),
        CompanyRecord(country="SK", national_id=SK_TSA, name="Časová pečiatka, a.s.", vat_id="SK2020123456"),
        CompanyRecord(
            country="SK", national_id=SK_NAMED, name="Podpisové služby Test, s.r.o.", city="Bratislava"
        ),
        CompanyRecord(country="SK", national_id=SK_WITHDRAWN, name="Ukončená autorita Test, a.s."),
        CompanyRecord(country="CZ", national_id=CZ_QTSP, name="První certifikační autorita Test, a.s."),
        CompanyRecord(country="CZ", national_id=CZ_TSP, name="Testovací podpisová služba s.r.o."),
    ]


@pytest.fixture
def lists(engine, settings):
    load_companies(engine, *_companies())
    return {
        "sk": run(engine, settings.data_dir, "sk_tsl", SK_LIST),
        "cz": run(engine, settings.data_dir, "cz_tsl", CZ_LIST),
    }


def _designations(engine):
    d, c = nis2_designations.c, companies.c
    with engine.connect() as conn:
        rows = conn.execute(
            select(c.country, c.national_id, d.kind, d.source, d.reference).join(
                companies, c.id == d.company_id
            )
        )
        return {(r.country, r.national_id): (r.kind, r.source, r.reference) for r in rows}


def _links(engine, source):
    with engine.connect() as conn:
        rows = conn.execute(
            select(A.c.name, A.c.match_method, A.c.match_score, companies.c.national_id)
            .outerjoin(companies, companies.c.id == A.c.company_id)
            .where(A.c.source == source)
        )
        return {(r.name, r.match_method, r.national_id) for r in rows}


def _snapshot(engine):
    with engine.connect() as conn:
        return [sorted(map(tuple, conn.execute(select(t)).all()), key=repr) for t in (A, nis2_designations)]


def test_services_are_stored_and_linked_by_identifier_vat_and_name(engine, lists):
    assert {k: (s.read, s.inserted, s.rejected) for k, s in lists.items()} == {
        "sk": (6, 6, 0),
        "cz": (3, 3, 0),
    }
    assert _links(engine, "sk_tsl") == {
        ("Dôveryhodná autorita Test, s.r.o.", "identifier", SK_QTSP),  # NTRSK-: the register number
        ("Časová pečiatka Test, a.s.", "identifier", SK_TSA),  # VATSK-: the company's IČ DPH, not its IČO
        ("Podpisové služby Test, s.r.o.", "name", SK_NAMED),  # no identifier: by name and town
        ("Ukončená autorita Test, a.s.", "identifier", SK_WITHDRAWN),
    }
    assert _links(engine, "cz_tsl") == {  # VATCZ- of a legal person is CZ + the IČO
        ("První certifikační autorita Test, a.s.", "identifier", CZ_QTSP),
        ("Testovací podpisová služba s.r.o.", "identifier", CZ_TSP),
    }
    with engine.connect() as conn:
        validation = conn.execute(
            select(A.c.category, A.c.status, A.c.status_text, A.c.granted_on).where(
                A.c.licence_type.like("%QESValidation/Q")
            )
        ).one()
    # withdrawn from 2027-01-01, after the list's date (2026-10-15): granted at it, from ServiceHistory
    assert tuple(validation)[:3] == ("qualified_trust_service", "active", "granted")
    assert str(validation.granted_on) == "2020-06-01"


def test_designations_follow_the_qualified_services(engine, lists):
    found = _designations(engine)
    assert {k: v[:2] for k, v in found.items()} == {
        ("SK", SK_QTSP): (QTSP, "sk_tsl"),
        ("SK", SK_TSA): (QTSP, "sk_tsl"),
        ("SK", SK_NAMED): (TSP, "sk_tsl"),  # recognised at national level only
        ("CZ", CZ_QTSP): (QTSP, "cz_tsl"),
        ("CZ", CZ_TSP): (TSP, "cz_tsl"),  # its qualified service is withdrawn; a non-qualified one is current
    }  # the withdrawn-only provider is not designated
    assert found[("SK", SK_QTSP)][2] == "SK trusted list: Dôveryhodná autorita Test, s.r.o. (NTRSK-53101014)"


def test_catalogue_entries_carry_licence_and_row_count(engine, lists):
    with engine.connect() as conn:
        rows = {r.id: r for r in conn.execute(select(data_sources).where(data_sources.c.id.like("%_tsl")))}
    assert {k: r.row_count for k, r in rows.items()} == {"sk_tsl": 6, "cz_tsl": 3}
    assert rows["sk_tsl"].publisher == "Národný bezpečnostný úrad" and "910/2014" in rows["sk_tsl"].licence


def test_reimport_of_the_same_list_writes_nothing(engine, settings, lists):
    before = _snapshot(engine)
    stats = run(engine, settings.data_dir, "sk_tsl", SK_LIST)
    assert (stats.inserted, stats.updated, stats.unchanged, stats.changes) == (0, 0, 6, 0)
    assert _snapshot(engine) == before


def test_a_changed_list_moves_and_removes_designations(engine, settings, lists, tmp_path):
    text = SK_LIST.read_text(encoding="utf-8")
    start = text.index("<!-- a small QTSP")
    end = text.index("<!-- identified by its Slovak VAT")
    changed = text[:start] + text[end:]  # the first provider is delisted
    changed = changed.replace("Svctype/CA/PKC", "Svctype/CA/QC").replace(
        "Svcstatus/recognisedatnationallevel", "Svcstatus/granted"
    )  # the name-linked provider's service is now a granted qualified one
    path = tmp_path / "tsl.xml"
    path.write_text(changed, encoding="utf-8")
    stats = run(engine, settings.data_dir, "sk_tsl", path)
    assert (stats.inserted, stats.updated, stats.rejected) == (
        1,
        0,
        0,
    )  # a new service key (its type changed)
    found = _designations(engine)
    assert ("SK", SK_QTSP) not in found and found[("SK", SK_NAMED)][0] == QTSP
    assert found[("CZ", CZ_QTSP)][0] == QTSP  # the other list's designations are its own


def test_a_provider_with_a_malformed_register_number_is_rejected_alone(engine, settings, lists, tmp_path):
    path = tmp_path / "tsl.xml"
    path.write_text(SK_LIST.read_text(encoding="utf-8").replace("NTRSK-53101014", "NTRSK-53101015"), "utf-8")
    stats = run(engine, settings.data_dir, "sk_tsl", path)
    assert stats.rejected == 1 and list(stats.reasons)[0].startswith("TSPTradeName NTRSK-53101015")
    assert stats.skip_reasons == {"delisting not applied: the file had rejected rows": 1}
    assert _designations(engine)[("SK", SK_QTSP)][0] == QTSP  # kept: the list could not be read for it


def test_an_unknown_service_status_is_rejected_with_its_reason(engine, settings, tmp_path):
    load_companies(engine, *_companies())
    path = tmp_path / "tsl.xml"
    path.write_text(
        SK_LIST.read_text(encoding="utf-8").replace(
            "Svcstatus/recognisedatnationallevel", "Svcstatus/paused"
        ),
        "utf-8",
    )
    stats = run(engine, settings.data_dir, "sk_tsl", path)
    assert stats.rejected == 1 and list(stats.reasons)[0].startswith("ServiceStatus 'paused' is not")


XXE = """<?xml version="1.0"?>
<!DOCTYPE TrustServiceStatusList [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#"><SchemeInformation>
<SchemeTerritory>SK</SchemeTerritory><ListIssueDateTime>2026-10-15T00:00:00Z</ListIssueDateTime>
</SchemeInformation><TrustServiceProviderList><TrustServiceProvider><TSPInformation>
<TSPName><Name xml:lang="sk">&leak;</Name></TSPName></TSPInformation></TrustServiceProvider>
</TrustServiceProviderList></TrustServiceStatusList>"""


@pytest.mark.parametrize(
    "edit, reason",
    [
        (lambda t: XXE, "declares a DOCTYPE"),
        (lambda t: t.replace("TSLType/EUgeneric", "TSLType/EUlistofthelists"), "list of the lists"),
        (lambda t: t.replace("<SchemeTerritory>SK", "<SchemeTerritory>CZ"), "trusted list of CZ, not of SK"),
        (lambda t: t.replace("</TrustServiceStatusList>", ""), "not well-formed XML"),
        (lambda t: t.replace("2026-10-15T00:00:00Z", "15.10.2026"), "ListIssueDateTime"),
    ],
)
def test_a_file_that_is_not_one_trusted_list_is_refused_whole(engine, settings, tmp_path, edit, reason):
    load_companies(engine, *_companies())
    path = tmp_path / "tsl.xml"
    path.write_text(edit(SK_LIST.read_text(encoding="utf-8")), "utf-8")
    with pytest.raises(SourceAbort, match=reason):
        run(engine, settings.data_dir, "sk_tsl", path)
    assert _snapshot(engine) == [[], []]
    with engine.connect() as conn:
        assert (
            conn.execute(select(import_runs.c.status).where(import_runs.c.source == "sk_tsl")).scalar()
            == "failed"
        )
    [reject] = (settings.data_dir / "rejects").glob("sk_tsl-*.jsonl")
    assert reason in json.loads(reject.read_text().splitlines()[0])["reason"]


def test_small_qualified_provider_is_essential_under_art_3_1_b_from_the_list(client, auth, lists):
    d = assert_envelope(client.get(f"/api/v1/companies/{SK_QTSP}/nis2", headers=auth))
    assert (d["category"], d["certainty"]) == ("essential", "certain")
    assert d["designations"] == [
        {
            "kind": QTSP,
            "source": "sk_tsl",
            "reference": "SK trusted list: Dôveryhodná autorita Test, s.r.o. (NTRSK-53101014)",
        }
    ]
    assert "Art. 3(1)(b)" in json.dumps(d["reasons"]) + json.dumps(d["sectors"])
    other = assert_envelope(client.get(f"/api/v1/companies/{SK_NAMED}/nis2", headers=auth))
    assert other["designations"][0]["kind"] == TSP and other["category"] != "essential"
    gone = assert_envelope(client.get(f"/api/v1/companies/{SK_WITHDRAWN}/nis2", headers=auth))
    assert gone["designations"] == []


def test_cli_import_runs_the_list(engine, settings, monkeypatch):
    load_companies(engine, *_companies())
    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("REGINTEL_DATA_DIR", str(settings.data_dir))
    result = CliRunner().invoke(app, ["import", "cz_tsl", str(CZ_LIST)])
    assert result.exit_code == 0, result.output
    assert "cz_tsl run" in result.output
    assert {k: v[0] for k, v in _designations(engine).items()} == {("CZ", CZ_QTSP): QTSP, ("CZ", CZ_TSP): TSP}


def test_a_provider_is_designated_once_its_company_arrives(engine, settings):
    run(engine, settings.data_dir, "sk_tsl", SK_LIST)
    assert _designations(engine) == {}  # no company yet: stored unlinked, nobody designated
    load_companies(engine, *_companies())
    stats = run(engine, settings.data_dir, "sk_tsl", SK_LIST)
    assert (stats.inserted, stats.updated) == (0, 6)  # the unchanged rows are linked now
    assert {k: v[0] for k, v in _designations(engine).items()} == {
        ("SK", SK_QTSP): QTSP,
        ("SK", SK_TSA): QTSP,
        ("SK", SK_NAMED): TSP,
    }


def test_an_lei_identifier_links_through_the_companys_lei(engine, settings, tmp_path):
    lei = "5299000J2N45DDNE4Y28"
    company = CompanyRecord(country="SK", national_id=SK_OTHER, name="Iné meno, a.s.", lei=lei)
    load_companies(engine, company)
    path = tmp_path / "tsl.xml"
    path.write_text(SK_LIST.read_text(encoding="utf-8").replace("NTRSK-53101014", f"LEIXG-{lei}"), "utf-8")
    run(engine, settings.data_dir, "sk_tsl", path)
    assert ("Dôveryhodná autorita Test, s.r.o.", "identifier", SK_OTHER) in _links(engine, "sk_tsl")
    assert _designations(engine)[("SK", SK_OTHER)][0] == QTSP


def test_times_without_a_zone_are_read_as_utc(engine, settings, tmp_path):
    load_companies(engine, *_companies())
    path = tmp_path / "tsl.xml"
    path.write_text(SK_LIST.read_text(encoding="utf-8").replace("T00:00:00Z<", "T00:00:00<"), "utf-8")
    stats = run(engine, settings.data_dir, "sk_tsl", path)
    assert (stats.inserted, stats.rejected) == (6, 0)
    assert _designations(engine)[("SK", SK_TSA)][0] == QTSP


def test_changed_designations_queue_the_reassessment_of_their_companies(engine, settings, lists):
    from regintel.areas.nis2.tables import nis2_assessments
    from regintel.db.schema import jobs
    from regintel.jobs.worker import run_worker

    with engine.connect() as conn:
        queued = [r.payload for r in conn.execute(select(jobs).where(jobs.c.kind == "nis2.sweep"))]
    assert sorted((i["country"], i["national_id"]) for p in queued for i in p["identifiers"]) == sorted(
        [("SK", SK_QTSP), ("SK", SK_TSA), ("SK", SK_NAMED), ("CZ", CZ_QTSP), ("CZ", CZ_TSP)]
    )  # one job per list, in the import's transaction
    run(engine, settings.data_dir, "sk_tsl", SK_LIST)
    with engine.connect() as conn:  # an unchanged list queues nothing more
        assert len(conn.execute(select(jobs.c.id).where(jobs.c.kind == "nis2.sweep")).all()) == 2
    while run_worker(engine, settings, once=True):
        pass
    a, c = nis2_assessments.c, companies.c
    with engine.connect() as conn:
        stored = dict(
            conn.execute(select(c.national_id, a.category).join(companies, c.id == a.company_id)).all()
        )
    assert stored[SK_QTSP] == "essential" and stored[CZ_QTSP] == "essential"
