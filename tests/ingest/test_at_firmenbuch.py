"""at_firmenbuch: Firmenbuch HVD answers (fixtures written from the documented structure) through the
runner."""

from __future__ import annotations

from datetime import date

import pytest

from regintel.ingest.base import SourceAbort
from tests.helpers import assert_envelope, assert_error
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    identifier_pairs,
    provenance,
    rejects,
    role_rows,
    run,
)

DIR = FIXTURES / "at_firmenbuch"
SEARCH = DIR / "suchefirma_answer.xml"
EXTRACT = DIR / "auszug_v2_473888w.xml"
EXTRACT_TEXT = EXTRACT.read_text(encoding="utf-8")


def test_search_answer_fields(engine, settings, tmp_path):
    dated = tmp_path / "suchefirma-2026-11-01.xml"
    dated.write_bytes(SEARCH.read_bytes())
    stats = run(engine, settings, "at_firmenbuch", dated)
    assert (stats.read, stats.inserted, stats.rejected) == (3, 3, 0)
    gmbh = company(engine, "AT", "473888w")
    assert (gmbh["name"], gmbh["legal_form"], gmbh["legal_form_name"]) == (
        "Donau Datentechnik GmbH",
        "GmbH",
        "Gesellschaft mit beschränkter Haftung",
    )
    assert (gmbh["status"], gmbh["city"], gmbh["vat_id"], gmbh["nace_primary"]) == (
        "active",
        "Wien",
        None,
        None,
    )
    assert identifier_pairs(engine, "473888w") == {("elf", "AXSB")}
    liquidating = company(engine, "AT", "123456a")
    assert (liquidating["in_liquidation"], liquidating["legal_form"]) == (True, "AG")
    assert identifier_pairs(engine, "123456a") == {("elf", "EQOV")}
    deleted = company(engine, "AT", "98765k")
    assert (deleted["status"], deleted["in_liquidation"]) == ("dissolved", False)
    assert provenance(engine, "473888w")["published_on"] == date(2026, 11, 1)


def test_extract_adds_address_and_officers(engine, settings):
    run(engine, settings, "at_firmenbuch", SEARCH)
    assert run(engine, settings, "at_firmenbuch", EXTRACT).updated == 1
    row = company(engine, "AT", "473888w")
    assert (row["street"], row["postal_code"], row["city"]) == ("Praterstraße 31/4", "1020", "Wien")
    assert row["address_text"] == "Praterstraße 31/4, 1020 Wien"
    officers = role_rows(engine, "473888w")
    assert [(r["holder_name"], r["role"], r["title"], r["birth_date"], r["since"]) for r in officers] == [
        ("Anna Gruber", "director", "Geschäftsführer", "1980-05-17", date(2019, 4, 1)),
        ("Lukas Huber", "statutory_body", "Prokurist", "1975-11-02", date(2021, 10, 15)),
    ]
    assert provenance(engine, "473888w")["published_on"] == date(2026, 11, 30)  # the extract's STICHTAG
    assert changes(engine, "473888w")["postal_code"] == (None, "1020")


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "at_firmenbuch", EXTRACT)
    assert assert_idempotent(engine, settings, "at_firmenbuch", EXTRACT).unchanged == 1


def test_older_snapshot_never_overwrites_newer(engine, settings, tmp_path):
    run(engine, settings, "at_firmenbuch", EXTRACT)
    older = tmp_path / "old.xml"
    older.write_text(
        EXTRACT_TEXT.replace("2026-11-30", "2026-06-30").replace("1020", "1010"), encoding="utf-8"
    )
    stats = run(engine, settings, "at_firmenbuch", older)
    assert (stats.updated, stats.skip_reasons) == (
        0,
        {"older than the data already loaded from this source": 1},
    )
    assert company(engine, "AT", "473888w")["postal_code"] == "1020"
    newer = tmp_path / "new.xml"
    newer.write_text(
        EXTRACT_TEXT.replace("2026-11-30", "2026-12-01").replace(
            "Donau Datentechnik GmbH", "Donau Datentechnik GmbH in Liqu."
        ),
        encoding="utf-8",
    )
    assert run(engine, settings, "at_firmenbuch", newer).updated == 1
    assert changes(engine, "473888w")["in_liquidation"] == ("false", "true")


def test_malformed_entries_are_rejected_with_reasons(engine, settings, tmp_path):
    good = EXTRACT_TEXT.split("<fb:AUSZUG_V2_RESPONSE")[1].split("</fb:AUSZUG_V2_RESPONSE>")[0]
    entries = [
        good,
        good.replace('FNR="473888w"', 'FNR="w473888"'),  # not an FN
        good.replace('FNR="473888w"', ""),  # no FNR
        good.replace('FNR="473888w"', 'FNR="1234x"').replace("<fb:PLZ>1020", "<fb:PLZ>A-1020"),
        good.replace('FNR="473888w"', 'FNR="5678y"').replace("2019-04-01", "01.04.2019"),
        good.replace('FNR="473888w"', 'FNR="9999z"').replace(
            "<fb:PNR>B</fb:PNR><fb:DATVON>", "<fb:PNR>C</fb:PNR><fb:DATVON>"
        ),
    ]
    body = "".join(f"<fb:AUSZUG_V2_RESPONSE{e}</fb:AUSZUG_V2_RESPONSE>" for e in entries)
    path = tmp_path / "harvest.xml"
    path.write_text(f'<harvest xmlns:fb="urn:x">{body}</harvest>', encoding="utf-8")
    stats, rejected = rejects(engine, settings, "at_firmenbuch", path)
    assert (stats.read, stats.inserted, stats.rejected) == (6, 1, 5)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid AT Firmenbuchnummer",
        "Firmenbuch entry without an FNR",
        "FI_DKZ03.PLZ is not a 4-digit Austrian postcode",
        "DATVON is not a date",
        "FUN PR points at no PER entry",
    ):
        assert expected in reasons
    assert count(engine) == 1


def test_truncated_harvest_keeps_what_was_read(engine, settings, tmp_path):
    path = tmp_path / "cut.xml"
    path.write_text(SEARCH.read_text(encoding="utf-8")[:900], encoding="utf-8")
    stats, rejected = rejects(engine, settings, "at_firmenbuch", path)
    assert stats.inserted == 2 and "the XML breaks off after 2 entries" in rejected[-1]["reason"]


@pytest.mark.parametrize(
    "content", ["", "FNR;NAME\n1a;x\n", "<html><body>Wartung</body></html>", '{"FNR": 1}']
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.xml").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "at_firmenbuch", tmp_path / "wrong.xml")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "at_firmenbuch", SEARCH)
    data = assert_envelope(client.get("/api/v1/companies/at/473888w", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == (
        "Donau Datentechnik GmbH",
        "AT",
        "GmbH",
    )
    assert any(s["id"] == "at_firmenbuch" for s in data["sources"])
    assert (
        assert_envelope(client.get("/api/v1/companies/at/FN%20473888w", headers=auth))["name"] == data["name"]
    )
    entries = assert_envelope(client.get("/api/v1/public/data-sources?country=at&category=register"))
    entry = next(e for e in entries if e["id"] == "at_firmenbuch")
    assert (entry["licence"], entry["row_count"]) == ("CC BY 4.0", 3)
    assert_error(client.get("/api/v1/companies/at/w473888", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/at/1a", headers=auth), 404, "NOT_FOUND")
