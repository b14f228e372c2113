"""Debtor lists: the importers (labelled fixtures written from the publishers' documentation), `/debtors`,
the tax-debt answers and the score factors they feed, and `/exposure`, through HTTP."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.areas.compliance.tables import debtor_entries
from regintel.db.schema import data_sources
from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, RoleRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_debtors import HEALTH_SOURCES, SOCIAL_SOURCE, TAX_SOURCE
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import import_adis

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sk_debtors"
SLOVNAFT, STAVBY, TWIN_A, TWIN_B, CZ = "31322832", "35757442", "36421928", "00151742", "45795908"
JL = "04677285"  # an unreliable Czech VAT payer in the ADIS fixtures


def fin(year: int) -> FinancialRecord:
    return FinancialRecord(
        year=year,
        currency="EUR",
        revenue=Decimal(6_000_000),
        profit=Decimal(500_000),
        total_assets=Decimal(6_000_000),
        equity=Decimal(3_000_000),
        liabilities=Decimal(3_000_000),
        employees=120,
    )


@pytest.fixture
def data(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=SLOVNAFT,
            name="SLOVNAFT, a.s.",
            founded_on=date(1992, 4, 24),
            postal_code="824 12",
            financials=[fin(date.today().year - 1)],
            roles=[
                RoleRecord(
                    role="shareholder",
                    holder_name="Stavby Žilina s.r.o.",
                    share_pct=60.0,
                    holder_company=CompanyKey("SK", STAVBY),
                )
            ],
        ),
        CompanyRecord(
            country="SK",
            national_id=STAVBY,
            name="Stavby Žilina s.r.o.",
            founded_on=date(2005, 3, 1),
            postal_code="010 01",
            financials=[fin(date.today().year - 1)],
        ),
        CompanyRecord(country="SK", national_id=TWIN_A, name="Rovnaké meno s.r.o.", postal_code="821 01"),
        CompanyRecord(country="SK", national_id=TWIN_B, name="Rovnaké meno s.r.o.", postal_code="821 01"),
        CompanyRecord(country="CZ", national_id=CZ, name="České aerolinie a.s."),
        CompanyRecord(country="CZ", national_id=JL, name="J&L Industries s.r.o."),
    )


def imp(engine, settings, source, name):
    return run_import(engine, source, str(FIXTURES / name), settings.data_dir)


def imp_all(engine, settings):
    imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-10-31.xlsx")
    imp(engine, settings, HEALTH_SOURCES["vszp"], "vszp_2026-10-31.csv")
    imp(engine, settings, TAX_SOURCE, "ds_dsdd_2026-10-31.xml")


def get(client, auth, path, ico, **params):
    return client.get(f"/api/v1/companies/{ico}/{path}", headers=auth, params=params)


def entries(engine):
    with engine.connect() as conn:
        return [
            dict(r) for r in conn.execute(select(debtor_entries).order_by(debtor_entries.c.id)).mappings()
        ]


def test_import_links_by_ico_rejects_bad_rows_and_reimport_writes_nothing(engine, settings, data):
    _, stats, rejects = imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-10-31.xlsx")
    assert (stats.read, stats.inserted, stats.rejected) == (6, 4, 2)
    lines = [json.loads(line) for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert [line["reason"].split(":")[0] for line in lines] == [
        "invalid IČO '12AB'",
        "unreadable amount 'veľa'",
    ]
    assert lines[0]["record"]["line"] == 8
    rows = entries(engine)
    by_name = {r["name"]: r for r in rows}
    assert by_name["SLOVNAFT, a.s."]["match"] == "identifier" and by_name["SLOVNAFT, a.s."][
        "amount"
    ] == Decimal("12345.67")
    assert by_name["Ján Vzorový"]["company_id"] is None and by_name["Ján Vzorový"]["match"] == "none"
    assert all(r["listed_on"] == date(2026, 10, 31) and r["currency"] == "EUR" for r in rows)
    _, again, _ = imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-10-31.xlsx")
    assert (again.inserted, again.updated, again.unchanged) == (0, 0, 4)
    assert entries(engine) == rows
    with engine.connect() as conn:
        ds = (
            conn.execute(select(data_sources).where(data_sources.c.id == "sk_socpoist_debtors"))
            .mappings()
            .one()
        )
    assert ds["row_count"] == 4 and ds["licence"] and ds["last_import_at"] is not None


def test_unknown_but_valid_ico_is_kept_unlinked(engine, settings, data):
    imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-11-30.csv")
    unlinked = [r for r in entries(engine) if r["national_id"] == "35763469"]
    assert len(unlinked) == 1 and unlinked[0]["company_id"] is None


def test_a_newer_list_delists_and_an_older_one_is_refused(engine, settings, data):
    imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-10-31.xlsx")
    _, stats, _ = imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-11-30.csv")
    rows = {r["name"]: r for r in entries(engine)}
    assert rows["SLOVNAFT, a.s."]["delisted_on"] == date(2026, 11, 30)
    assert rows["Stavby Žilina s.r.o."]["last_listed_on"] == date(2026, 11, 30)
    assert rows["Stavby Žilina s.r.o."]["listed_on"] == date(2026, 10, 31)
    before = entries(engine)
    with pytest.raises(SourceAbort, match="older than the one imported"):
        imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-10-31.xlsx")
    assert entries(engine) == before


def test_malformed_and_wrong_files_write_nothing(engine, settings, data, tmp_path):
    with pytest.raises(SourceAbort, match="not well-formed XML"):
        imp(engine, settings, TAX_SOURCE, "malformed.xml")
    with pytest.raises(SourceAbort, match="no amount column"):
        imp(engine, settings, SOCIAL_SOURCE, "no_amount.csv")
    empty = tmp_path / "empty_2026-10-31.csv"
    empty.write_bytes(b"")
    with pytest.raises(SourceAbort, match="empty"):
        run_import(engine, SOCIAL_SOURCE, str(empty), settings.data_dir)
    undated = tmp_path / "list.csv"
    undated.write_text("Názov;IČO;Dlžná suma\nFirma;35757442;10\n", encoding="utf-8")
    with pytest.raises(SourceAbort, match="date is unknown"):
        run_import(engine, SOCIAL_SOURCE, str(undated), settings.data_dir)
    assert entries(engine) == []


def test_zipped_workbook_and_cp1250_csv(engine, settings, data, tmp_path):
    archive = tmp_path / "dlznici.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(FIXTURES / "socpoist_2026-10-31.xlsx", "socpoist_2026-10-31.xlsx")
    _, stats, _ = run_import(engine, SOCIAL_SOURCE, str(archive), settings.data_dir)
    assert stats.inserted == 4
    legacy = tmp_path / "union_2026-10-31.csv"
    legacy.write_bytes("Názov;IČO;Dlžná suma\nStavby Žilina s.r.o.;35757442;1 000,50\n".encode("cp1250"))
    _, stats, _ = run_import(engine, HEALTH_SOURCES["union"], str(legacy), settings.data_dir)
    assert stats.inserted == 1
    assert any(
        r["name"] == "Stavby Žilina s.r.o." and r["creditor"] == "Union zdravotná poisťovňa"
        for r in entries(engine)
    )


def test_tax_list_matches_by_name_and_postcode_only_when_unique(engine, settings, data):
    imp(engine, settings, TAX_SOURCE, "ds_dsdd_2026-10-31.xml")
    rows = {r["name"]: r for r in entries(engine)}
    assert (
        rows["Stavby Žilina s.r.o."]["match"] == "name_postcode"
        and rows["Stavby Žilina s.r.o."]["company_id"]
    )
    assert rows["Rovnaké meno s.r.o."]["company_id"] is None  # two companies share the name and postcode


def test_debtors_answers_501_until_a_list_of_the_country_is_imported(client, auth, engine, settings, data):
    err = assert_error(get(client, auth, "debtors", SLOVNAFT), 501, "NOT_IMPLEMENTED")
    assert "sk_socpoist_debtors" in err["message"]
    imp_all(engine, settings)
    assert (
        "ČSSZ"
        in assert_error(get(client, auth, "debtors", CZ, country="cz"), 501, "NOT_IMPLEMENTED")["message"]
    )
    assert_error(get(client, auth, "debtors", "35763469"), 404, "NOT_FOUND")
    assert_error(get(client, auth, "debtors", "12AB"), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, "debtors", STAVBY, foo="1"), 422, "VALIDATION_ERROR")
    assert client.get(f"/api/v1/companies/{STAVBY}/debtors").status_code == 401


def test_debtors_answer(client, auth, engine, settings, data):
    imp_all(engine, settings)
    d = assert_envelope(get(client, auth, "debtors", STAVBY))
    assert d["onList"] is True and d["paymentDefaults"] == 2 and d["taxDebt"] is True
    assert {e["creditor"] for e in d["current"]} == {
        "Sociálna poisťovňa",
        "Všeobecná zdravotná poisťovňa",
        "Finančná správa SR",
    }
    assert d["owed"] == [{"amount": 2500.0 + 1204.5 + 15820.33, "currency": "EUR"}]
    lists = {x["source"]: x for x in d["lists"]}
    assert (
        lists["sk_socpoist_debtors"]["listDate"] == "2026-10-31"
        and not lists["sk_dovera_debtors"]["imported"]
    )
    imp(engine, settings, SOCIAL_SOURCE, "socpoist_2026-11-30.csv")
    s = assert_envelope(get(client, auth, "debtors", SLOVNAFT))
    assert s["onList"] is False and s["paymentDefaults"] == 0 and s["taxDebt"] is False
    assert s["past"][0]["delistedOn"] == "2026-11-30" and s["past"][0]["amount"] == 12345.67


def test_scores_summary_and_vat_check_read_the_lists(client, auth, engine, settings, data):
    before = assert_envelope(get(client, auth, "credit-score", STAVBY))
    factors = {f["code"]: f for f in before["factors"]}
    assert factors["payment_discipline"]["points"] is None
    imp_all(engine, settings)
    after = assert_envelope(get(client, auth, "credit-score", STAVBY))
    assert after["model_version"] == "credit-2026.12.1"
    factors = {f["code"]: f for f in after["factors"]}
    assert factors["payment_discipline"]["value"] == 2 and factors["payment_discipline"]["points"] == 0
    assert factors["tax_reliability"]["value"] == "unreliable"
    evidence = {e["source"]: e for e in factors["payment_discipline"]["evidence"]}
    assert (
        evidence["sk_socpoist_debtors"]["date"] == "2026-10-31"
        and evidence["sk_socpoist_debtors"]["value"] == 2500.0
    )
    assert after["confidence"] > before["confidence"]
    assert "payment_discipline.executions" in after["missing_inputs"]
    slovnaft = {f["code"]: f for f in assert_envelope(get(client, auth, "credit-score", SLOVNAFT))["factors"]}
    assert slovnaft["payment_discipline"]["value"] == 1 and slovnaft["tax_reliability"]["value"] == "reliable"
    risk = assert_envelope(get(client, auth, "risk", STAVBY))
    assert {"payment_defaults", "tax_unreliable"} <= {d["code"] for d in risk["drivers"]}
    summary = assert_envelope(get(client, auth, "compliance", STAVBY))
    assert summary["debtors"]["status"] == "listed" and summary["debtors"]["value"]["paymentDefaults"] == 2
    assert (
        assert_envelope(get(client, auth, "compliance", CZ, country="cz"))["debtors"]["status"] == "unknown"
    )
    vat = assert_envelope(get(client, auth, "vat-liability-check", STAVBY))
    assert (
        vat["hasTaxDebt"]["status"] == "listed"
        and vat["hasTaxDebt"]["value"]["entries"][0]["amount"] == 15820.33
    )
    assert (
        assert_envelope(get(client, auth, "vat-liability-check", SLOVNAFT))["hasTaxDebt"]["status"]
        == "not_listed"
    )


def test_exposure(client, auth, engine, settings, data):
    e = assert_envelope(get(client, auth, "exposure", SLOVNAFT))
    assert e["level"] == "low" and e["counterparties"][0]["nationalId"] == STAVBY
    assert e["counterparties"][0]["signals"] == [] and e["contracts"]["status"] == "none"
    assert any("sanctions" in u for u in e["unknown"]) and any("debtor lists" in u for u in e["unknown"])
    imp_all(engine, settings)
    e = assert_envelope(get(client, auth, "exposure", SLOVNAFT))
    link = e["counterparties"][0]
    assert link["relations"] == ["owner"] and link["sharePct"] == 60.0 and link["signals"] == ["debtor_list"]
    assert e["level"] == "high" and "distressed owner holds 60%" in e["reasons"][0]
    assert e["summary"] == {
        "linked": 1,
        "distressed": 1,
        "distressedOwnersPct": 60.0,
        "distressedHoldings": 0,
    }
    held = assert_envelope(get(client, auth, "exposure", STAVBY))
    assert held["counterparties"][0]["relations"] == ["holding"] and held["level"] == "high"
    alone = assert_envelope(get(client, auth, "exposure", CZ, country="CZ"))
    assert alone["level"] == "low" and alone["counterparties"] == [] and alone["summary"]["linked"] == 0
    assert_error(get(client, auth, "exposure", "12AB"), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, "exposure", SLOVNAFT, country="x"), 422, "VALIDATION_ERROR")


def test_parsers_edge_cases():
    from regintel.ingest.sources.sk_debtors import amount

    assert amount("1 234,56 €") == Decimal("1234.56") and amount("1234.5") == Decimal("1234.50")
    assert amount(None) is None and amount("") is None
    with pytest.raises(Exception, match="negative"):
        amount("-5")
    rows = list(
        SOCIAL_SOURCE.parse(
            io.BytesIO("Názov;IČO;Dlžná suma\n;35757442;5\nŽ".encode() + b"\xc5\xa1;;7\n"), "x_2026-01-31.csv"
        )
    )
    assert "without a name" in rows[0].reason and rows[1].name == "Žš" and rows[1].national_id is None
    with pytest.raises(SourceAbort, match="no name column"):
        list(SOCIAL_SOURCE.parse(io.BytesIO(b"a;b\n1;2\n"), "x_2026-01-31.csv"))
    with pytest.raises(SourceAbort, match="NAZOV_SUBJEKTU"):
        list(
            TAX_SOURCE.parse(
                io.BytesIO(b"<a><DatumAktualizacieZoznamu>2026-01-01</DatumAktualizacieZoznamu></a>"), "x.xml"
            )
        )


def test_czech_tax_reliability_comes_from_the_vat_payer_register(client, auth, engine, settings, data):
    before = {
        f["code"]: f for f in assert_envelope(get(client, auth, "credit-score", JL, country="cz"))["factors"]
    }
    assert before["tax_reliability"]["points"] is None
    import_adis(engine, settings.data_dir)
    jl = {
        f["code"]: f for f in assert_envelope(get(client, auth, "credit-score", JL, country="cz"))["factors"]
    }
    assert jl["tax_reliability"]["value"] == "unreliable" and jl["tax_reliability"]["points"] == 0
    assert jl["tax_reliability"]["evidence"][0]["source"] == "cz_adis_crpdph"
    assert jl["payment_discipline"]["points"] is None  # no Czech debtor list
    csa = {
        f["code"]: f for f in assert_envelope(get(client, auth, "credit-score", CZ, country="cz"))["factors"]
    }
    assert csa["tax_reliability"]["value"] == "reliable"
    risk = assert_envelope(get(client, auth, "risk", JL, country="cz"))
    assert "tax_unreliable" in {d["code"] for d in risk["drivers"]}
