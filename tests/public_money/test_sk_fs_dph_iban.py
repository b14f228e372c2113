"""The Slovak list of VAT payers' business accounts (`sk_fs_dph_iban`, fixture written from the documented
layout): the import (grouping, IBANs by schwifty, rejects, re-import, the next day's list, an older list,
a file cut short, the API answer), and the accounts through HTTP: a company's list, `/iban/verify`, and the
IBAN lookups, which do not search this list (spec 4.1)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from regintel.areas.public_money.relink import relink
from regintel.areas.public_money.tables import bank_accounts, vat_payers
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.cz_adis_crpdph import SOURCE as ADIS
from regintel.ingest.sources.sk_fs_dph_iban import SOURCE as SK_LIST
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import ADIS_FILES, FIXTURES, count

DIR = FIXTURES / "sk_fs_dph_iban"
DAY1, DAY2 = DIR / "ds_dph_iban_2026-12-01.xml", DIR / "ds_dph_iban_2026-12-02.xml"
SLOVNAFT, ESET, DUSLO = "31322832", "31333532", "35826487"
SLOVNAFT_IBANS = ["SK1802000000001234567899", "SK7709000000005012345674"]
ESET_IBAN = "SK2511000000002622001234"
COMPANIES = (
    # SLOVNAFT is found by its stored IČ DPH, ESET by its DIČ (the IČ DPH's ten digits), Duslo not at all.
    CompanyRecord(country="SK", national_id=SLOVNAFT, name="SLOVNAFT, a.s.", vat_id="SK2020372640"),
    CompanyRecord(country="SK", national_id=ESET, name="ESET, spol. s r.o.", tax_id="2020317068"),
    CompanyRecord(country="SK", national_id=DUSLO, name="Duslo, a.s."),
)


def _import(engine, settings, path):
    return run_import(engine, SK_LIST, str(path), settings.data_dir)


@pytest.fixture
def listed(engine, settings):
    load_companies(engine, *COMPANIES)
    _, stats, rejects = _import(engine, settings, DAY1)
    assert (stats.read, stats.inserted, stats.rejected) == (4, 3, 1)
    assert rejects is not None and "not a valid IČ DPH" in rejects.read_text(encoding="utf-8")
    return stats


def _accounts(client, auth, ico):
    return assert_envelope(client.get(f"/api/v1/companies/{ico}/bank-accounts", headers=auth))


def _verify(client, auth, ico, iban):
    return assert_envelope(client.post("/api/v1/iban/verify", headers=auth, json={"ico": ico, "iban": iban}))


def test_company_accounts(client, auth, listed):
    data = _accounts(client, auth, SLOVNAFT)
    assert [a["iban"] for a in data["accounts"]] == SLOVNAFT_IBANS  # the row listed twice counts once
    assert data["accounts"][0]["bank"] == {
        "code": "0200",
        "name": "Všeobecná úverová banka, a.s.",
        "bic": "SUBASKBX",
    }
    assert (data["accounts"][1]["formatted"], data["accounts"][1]["current"]) == (
        "SK77 0900 0000 0050 1234 5674",
        True,
    )
    payer = data["vatPayers"][0]
    assert (payer["vatId"], payer["status"], payer["answeredOn"], payer["source"]["id"]) == (
        "SK2020372640",
        "active",
        "2026-12-01",
        "sk_fs_dph_iban",
    )
    assert "CC BY-NC-ND" in payer["source"]["licence"] and data["covered"] is True
    eset = _accounts(client, auth, ESET)  # linked through its DIČ; the spaced IBAN read as one
    assert [(a["iban"], a["account"]) for a in eset["accounts"]] == [
        (ESET_IBAN, "SK25 1100 0000 0026 2200 1234")
    ]
    duslo = _accounts(client, auth, DUSLO)
    assert (duslo["vatPayers"], duslo["accounts"], duslo["covered"]) == ([], [], True)


def test_unlinked_payer_keeps_what_is_not_an_iban(engine, listed):
    with engine.connect() as conn:
        payer = conn.execute(select(vat_payers).where(vat_payers.c.vat_id == "SK2120000003")).mappings().one()
        rows = conn.execute(
            select(bank_accounts.c.iban, bank_accounts.c.account).where(
                bank_accounts.c.payer_id == payer["id"]
            )
        ).all()
        links = conn.execute(
            select(vat_payers.c.vat_id, vat_payers.c.match_method, vat_payers.c.match_score).order_by(
                vat_payers.c.vat_id
            )
        ).all()
    assert payer["company_id"] is None and payer["national_id"] is None
    assert sorted(rows, key=str) == [
        ("CZ8208000000000000000107", "CZ8208000000000000000107"),
        (None, "5012345674/0900"),
    ]
    assert links == [
        ("SK2020317068", "identifier", 1.0),
        ("SK2020372640", "identifier", 1.0),
        ("SK2120000003", None, None),
    ]


VERDICTS = [
    (SLOVNAFT, "SK77 0900 0000 0050 1234 5674", "yes", "published by the company"),
    (SLOVNAFT, ESET_IBAN, "no", "published by another VAT payer (SK2020317068)"),
    (SLOVNAFT, "SK9375000000004000123463", "no", "not among the accounts the company publishes"),
    (DUSLO, "SK9375000000004000123463", "unknown", "the company is not in the imported list"),
]


def test_verify(client, auth, listed):
    for ico, iban, belongs, reason in VERDICTS:
        data = _verify(client, auth, ico, iban)
        assert (data["belongs"], data["company"]["nationalId"]) == (belongs, ico)
        assert data["reason"].startswith(reason), data["reason"]
        if belongs != "unknown":
            assert (data["source"]["id"], data["asOf"]) == ("sk_fs_dph_iban", "2026-12-01")
    assert_error(
        client.post(
            "/api/v1/iban/verify", headers=auth, json={"ico": SLOVNAFT, "iban": "SK7709000000005012345675"}
        ),
        422,
        "VALIDATION_ERROR",
    )


def test_lookups_do_not_search_the_slovak_list(client, auth, listed):
    keyed = assert_envelope(
        client.get("/api/v1/bank-accounts/lookup", headers=auth, params={"iban": SLOVNAFT_IBANS[0]})
    )
    assert (keyed["found"], keyed["matches"], keyed["covered"]) == (False, [], False)
    public = assert_envelope(client.get(f"/api/v1/public/iban-lookup/{ESET_IBAN}.json"))
    assert (public["found"], public["covered"]) == (False, False)


def test_reimport_writes_nothing(engine, settings, listed):
    _, again, _ = _import(engine, settings, DAY1)
    assert (again.unchanged, again.inserted, again.updated, again.changes) == (3, 0, 0, 0)
    assert (count(engine, vat_payers), count(engine, bank_accounts)) == (3, 5)


def test_next_days_list_replaces_and_removes(client, auth, engine, settings, listed):
    _, stats, _ = _import(engine, settings, DAY2)
    assert (stats.updated, stats.changes) == (2, 1)  # SLOVNAFT and SK2120000003 re-dated, ESET removed
    assert [a["iban"] for a in _accounts(client, auth, SLOVNAFT)["accounts"]] == [
        "SK4583600000005208001240",
        "SK7709000000005012345674",
    ]
    eset = _verify(client, auth, ESET, ESET_IBAN)
    assert (eset["belongs"], _accounts(client, auth, ESET)["vatPayers"]) == ("unknown", [])
    assert _verify(client, auth, SLOVNAFT, SLOVNAFT_IBANS[0])["belongs"] == "no"
    with pytest.raises(SourceAbort, match="older than the one imported"):  # replaying the older list
        _import(engine, settings, DAY1)
    assert (count(engine, vat_payers), count(engine, bank_accounts)) == (2, 4)


def test_file_cut_short_or_not_the_list(engine, settings, tmp_path, listed):
    before = (count(engine, vat_payers), count(engine, bank_accounts))
    with pytest.raises(SourceAbort, match="not well-formed"):
        _import(engine, settings, DIR / "ds_dph_iban_truncated.xml")
    other = tmp_path / "ds_dphs.xml"  # the list of VAT registrations: ITEMs without IBAN
    other.write_text(
        "<ZoznamSubjektovRegistrovanychkDPH><DatumAktualizacieZoznamu>03122026</DatumAktualizacieZoznamu>"
        "<DS_DPHS><ITEM><IC_DPH>SK2020372640</IC_DPH><ICO>31322832</ICO></ITEM></DS_DPHS>"
        "</ZoznamSubjektovRegistrovanychkDPH>",
        encoding="utf-8",
    )
    with pytest.raises(SourceAbort, match="not the list of VAT payers' bank accounts"):
        _import(engine, settings, other)
    empty = tmp_path / "empty.xml"  # an export without rows would otherwise remove every payer
    empty.write_text(
        "<Z><DatumAktualizacieZoznamu>03122026</DatumAktualizacieZoznamu><DS_DPH_IBAN/></Z>", encoding="utf-8"
    )
    with pytest.raises(SourceAbort, match="lists no payer"):
        _import(engine, settings, empty)
    undated = tmp_path / "undated.xml"
    undated.write_text(
        "<Z><DS_DPH_IBAN><ITEM><IC_DPH>SK2020372640</IC_DPH><IBAN>x</IBAN></ITEM></DS_DPH_IBAN></Z>"
    )
    with pytest.raises(SourceAbort, match="no DatumAktualizacieZoznamu"):
        _import(engine, settings, undated)
    assert (count(engine, vat_payers), count(engine, bank_accounts)) == before


def test_zip_export_and_api_answer(client, auth, engine, settings, tmp_path):
    import zipfile

    load_companies(engine, *COMPANIES)
    archive = tmp_path / "ds_dph_iban.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(DAY1, "ds_dph_iban.xml")
    assert _import(engine, settings, archive)[1].inserted == 3
    # An API answer is part of the list: it replaces SLOVNAFT's accounts and removes nobody. Undated, it
    # does not replace the dated export's record, so it is read on a fresh database below.
    answer = DIR / "api_search_ic_dph_SK2020372640.json"
    assert _import(engine, settings, answer)[1].skip_reasons == {
        "older than the stored answer for this VAT payer": 1
    }
    with engine.begin() as conn:
        conn.execute(bank_accounts.delete())
        conn.execute(vat_payers.delete())
    _, stats, _ = _import(engine, settings, answer)
    assert (stats.inserted, stats.changes) == (1, 0)
    data = _accounts(client, auth, SLOVNAFT)
    assert [a["iban"] for a in data["accounts"]] == ["SK7709000000005012345674", "SK9375000000004000123463"]
    assert data["vatPayers"][0]["answeredOn"] is None
    for body in ('{"page": 1, "data": [', '{"error": "Unauthorized"}'):
        bad = tmp_path / "answer.json"
        bad.write_text(body, encoding="utf-8")
        with pytest.raises(SourceAbort):
            _import(engine, settings, bad)


def test_relink_when_the_companies_arrive_later(engine, settings):
    """The list imported first: the payers are linked by the relink job once the companies exist, by IČ
    DPH and DIČ; a Czech payer likewise (the relink wrote link columns the payers table lacked)."""
    _import(engine, settings, DAY1)
    for path in ADIS_FILES:
        run_import(engine, ADIS, str(path), settings.data_dir)
    load_companies(
        engine, *COMPANIES, CompanyRecord(country="CZ", national_id="45795908", name="České aerolinie a.s.")
    )
    result = relink(engine, None)
    assert result["vat_payers"]["linked"] == 3
    with engine.connect() as conn:
        linked = conn.execute(
            select(vat_payers.c.vat_id, vat_payers.c.match_method).where(vat_payers.c.company_id.is_not(None))
        ).all()
    assert sorted(linked) == [
        ("CZ45795908", "identifier"),
        ("SK2020317068", "identifier"),
        ("SK2020372640", "identifier"),
    ]
    assert relink(engine, None)["vat_payers"]["linked"] == 0
