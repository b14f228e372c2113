"""The Slovak central register of contracts (CRZ): import of a daily export (hand-written from its
documented layout, tests/fixtures/sk_crz/README.md), re-import, rejects, a malformed file, the zip the
register publishes, and the contracts through HTTP."""

from __future__ import annotations

import json
import zipfile

import pytest
from sqlalchemy import select

from regintel.areas.public_money.tables import contracts
from regintel.db.schema import data_sources, import_runs
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_crz import SOURCE as CRZ
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import FIXTURES, count

EXPORT = FIXTURES / "sk_crz" / "2026-11-20.xml"
SLOVNAFT, TELEKOM, ORANGE, USS, SE = "31322832", "35763469", "35697270", "36199222", "35829052"


def _companies(engine):
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id=SLOVNAFT, name="SLOVNAFT, a.s.", city="Bratislava"),
        CompanyRecord(country="SK", national_id=TELEKOM, name="Slovak Telekom, a.s.", city="Bratislava"),
        CompanyRecord(country="SK", national_id=ORANGE, name="Orange Slovensko, a.s.", city="Bratislava"),
        CompanyRecord(country="SK", national_id=USS, name="U. S. Steel Košice, s.r.o.", city="Košice"),
        CompanyRecord(country="SK", national_id=SE, name="Slovenské elektrárne, a.s.", city="Bratislava"),
    )


def _rows(engine):
    with engine.connect() as conn:
        return {
            r.record_key: r for r in conn.execute(select(contracts).where(contracts.c.source == "sk_crz"))
        }


def _snapshot(engine):
    with engine.connect() as conn:
        return sorted(map(tuple, conn.execute(select(contracts)).all()), key=repr)


@pytest.fixture
def imported(engine, settings):
    _companies(engine)
    return run_import(engine, CRZ, str(EXPORT), settings.data_dir)


def test_import_stores_suppliers_linked_and_rejects_bad_records(engine, imported):
    _, stats, rejects = imported
    assert (stats.read, stats.inserted, stats.unchanged, stats.rejected) == (9, 5, 1, 3)
    reasons = [json.loads(line)["reason"] for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert reasons[0] == "record without a numeric ID"
    assert reasons[1].startswith("unreadable record 9100008") and reasons[2].startswith(
        "unreadable record 9100009"
    )
    rows = _rows(engine)
    assert set(rows) == {"9100001", "9100002", "9100003", "9100004", "9100006"}  # 9100005 is cancelled
    first = rows["9100001"]
    assert (first.party_name, first.party_national_id, first.role, first.match_method, first.match_score) == (
        "SLOVNAFT, a.s.",
        SLOVNAFT,
        "supplier",
        "identifier",
        1.0,
    )
    assert (first.buyer_name, first.buyer_national_id, first.buyer_country) == (
        "Ministerstvo vnútra Slovenskej republiky",
        "00151866",
        "SK",
    )
    assert (float(first.value), first.currency, first.value_basis) == (131500.5, "EUR", "total")
    assert (first.signed_on.isoformat(), first.published_on.isoformat()) == ("2026-11-18", "2026-11-20")
    assert first.link == "https://www.crz.gov.sk/zmluva/9100001/"
    amendment = rows["9100002"]  # `35 763 469` normalised; sums of 0 and dates 0000-00-00 are "not stated"
    assert (amendment.party_national_id, amendment.value, amendment.currency, amendment.signed_on) == (
        TELEKOM,
        None,
        None,
        None,
    )
    orange = rows["9100003"]  # no IČO: linked by name at or above the threshold, the score kept
    assert (orange.match_method, float(orange.value), orange.value_basis, orange.title) == (
        "name",
        4990.0,
        "contract",
        "Servis sieťových prvkov & licencie",
    )
    assert orange.match_score >= 0.9
    person = rows["9100004"]
    assert (person.company_id, person.match_method) == (None, None)
    wrong_check_digit = rows["9100006"]  # the malformed IČO is dropped, never used: the name decides
    assert wrong_check_digit.party_national_id is None


def test_reimport_writes_nothing(engine, settings, imported):
    before = _snapshot(engine)
    _, again, _ = run_import(engine, CRZ, str(EXPORT), settings.data_dir)
    assert (again.inserted, again.updated, again.unchanged, again.rejected) == (0, 0, 6, 3)
    assert _snapshot(engine) == before


def test_a_changed_record_replaces_and_a_cancellation_removes(engine, settings, imported, tmp_path):
    text = EXPORT.read_text(encoding="utf-8")
    changed = text.replace("<suma_spolu>131500.50</suma_spolu>", "<suma_spolu>140000.00</suma_spolu>")
    changed = changed.replace("<ID>9100003</ID>", "<ID>9100003</ID><stav>3</stav>", 1).replace(
        "<typ>1</typ><stav>2</stav><druh>2</druh>", "<typ>1</typ><druh>2</druh>", 1
    )
    path = tmp_path / "2026-11-21.xml"
    path.write_text(changed, encoding="utf-8")
    _, stats, _ = run_import(engine, CRZ, str(path), settings.data_dir)
    assert (stats.updated, stats.unchanged) == (2, 4)
    rows = _rows(engine)
    assert float(rows["9100001"].value) == 140000.0 and "9100003" not in rows


def test_the_published_zip_is_read(engine, settings, tmp_path):
    _companies(engine)
    archive = tmp_path / "2026-11-20.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(EXPORT, "2026-11-20.xml")
    _, stats, _ = run_import(engine, CRZ, str(archive), settings.data_dir)
    assert (stats.inserted, stats.rejected) == (5, 3)


@pytest.mark.parametrize(
    "body, reason",
    [
        (None, "not well-formed XML"),  # the export cut short after five good records
        (b"<?xml version='1.0'?><smlouvy><zmluva><ID>1</ID></zmluva></smlouvy>", "not a CRZ export"),
        (b'{"zmluvy": []}', "not well-formed XML"),
        (b"", "not well-formed XML"),
    ],
)
def test_a_malformed_file_is_rejected_whole(engine, settings, tmp_path, body, reason):
    _companies(engine)
    data = EXPORT.read_bytes()
    path = tmp_path / "broken.xml"
    path.write_bytes(body if body is not None else data[: data.index(b"<ID>9100006</ID>")])
    with pytest.raises(SourceAbort, match=reason):
        run_import(engine, CRZ, str(path), settings.data_dir)
    assert count(engine, contracts) == 0
    with engine.connect() as conn:
        run = conn.execute(select(import_runs).order_by(import_runs.c.id.desc())).first()
    assert run.status == "failed"
    reject = next((settings.data_dir / "rejects").glob(f"sk_crz-{run.id}.jsonl"))
    assert reason in json.loads(reject.read_text(encoding="utf-8").splitlines()[-1])["reason"]


def test_an_empty_day_imports_nothing(engine, settings, tmp_path):
    path = tmp_path / "2026-11-22.xml"
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<zmluvy/>\n', encoding="utf-8")
    _, stats, rejects = run_import(engine, CRZ, str(path), settings.data_dir)
    assert (stats.read, stats.inserted, rejects) == (0, 0, None)


def test_in_the_catalogue_with_licence(engine, client, imported):
    with engine.connect() as conn:
        row = conn.execute(select(data_sources).where(data_sources.c.id == "sk_crz")).one()
    assert (row.row_count, row.category, row.country) == (5, "public_money", "SK")
    entry = {d["id"]: d for d in client.get("/api/v1/public/data-sources").json()["data"]}["sk_crz"]
    assert (
        "546/2010" in entry["licence"]
        and entry["attribution"] == "Zdroj: Centrálny register zmlúv, crz.gov.sk"
    )


def test_contracts_through_http(client, auth, imported):
    items = assert_envelope(
        client.get(f"/api/v1/companies/{SLOVNAFT}/contracts", headers=auth, params={"country": "sk"})
    )
    assert items == [
        {
            "id": items[0]["id"],
            "source": "sk_crz",
            "role": "supplier",
            "title": "Dodávka pohonných hmôt pre služobné vozidlá",
            "buyer": {
                "name": "Ministerstvo vnútra Slovenskej republiky",
                "nationalId": "00151866",
                "country": "SK",
            },
            "value": 131500.5,
            "currency": "EUR",
            "valueBasis": "total",
            "signedOn": "2026-11-18",
            "publishedOn": "2026-11-20",
            "link": "https://www.crz.gov.sk/zmluva/9100001/",
            "notice": None,
            "match": {
                "method": "identifier",
                "score": 1.0,
                "company": {"country": "SK", "nationalId": SLOVNAFT, "name": "SLOVNAFT, a.s."},
            },
        }
    ]
    orange = assert_envelope(client.get(f"/api/v1/companies/{ORANGE}/contracts", headers=auth))
    assert [(i["source"], i["match"]["method"]) for i in orange] == [("sk_crz", "name")]
    assert assert_envelope(client.get(f"/api/v1/companies/{SE}/contracts", headers=auth)) == []  # cancelled
    events = assert_envelope(
        client.get(f"/api/v1/companies/{SLOVNAFT}/timeline", headers=auth, params={"event_type": "contract"})
    )["events"]
    assert [(e["event_type"], e["date"], e["source"], e["summary"]) for e in events] == [
        (
            "contract",
            "2026-11-18",
            "sk_crz",
            "Supplier to Ministerstvo vnútra Slovenskej republiky, 131,500.50 EUR",
        )
    ]
    assert_error(
        client.get(
            f"/api/v1/companies/{SLOVNAFT}/contracts",
            headers=auth,
            params={"country": "sk", "source": "sk_crz"},
        ),
        422,
        "VALIDATION_ERROR",
    )
