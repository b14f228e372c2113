"""ua_edr: two real EDR legal-entity records (JSON with the UO_FULL element names), the same records
as UO_FULL XML in windows-1251, and the synthetic zip in the older packaging."""

from __future__ import annotations

import copy
import json
from datetime import date
from xml.sax.saxutils import escape

import pytest

from regintel.db.schema import data_sources
from regintel.ingest.base import SourceAbort
from tests.helpers import assert_envelope, assert_error
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    provenance,
    rejects,
    role_rows,
    run,
)

SAMPLE = FIXTURES / "ua_edr" / "edr_uo_full_sample_2records.json"
SYNTHETIC_ZIP = FIXTURES / "ua_edr" / "openownership_ua_data_SYNTHETIC.zip"


def records() -> list[dict]:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def to_xml(items: list[dict]) -> bytes:
    """The UO_FULL XML layout: <DATA><SUBJECT> with the element names the JSON keys are."""

    def element(tag: str, value: object) -> str:
        if value is None:
            return f"<{tag}/>"
        if isinstance(value, dict):
            return f"<{tag}>" + "".join(element(k, v) for k, v in value.items()) + f"</{tag}>"
        if isinstance(value, list):  # ACTIVITY_KIND repeats itself; FOUNDERS holds FOUNDER elements
            if tag == "ACTIVITY_KIND":
                return "".join(element(tag, v) for v in value)
            return f"<{tag}>" + "".join(element(tag[:-1], v) for v in value) + f"</{tag}>"
        return f"<{tag}>{escape(str(value))}</{tag}>"

    body = "".join("<SUBJECT>" + "".join(element(k, v) for k, v in r.items()) + "</SUBJECT>" for r in items)
    xml = f'<?xml version="1.0" encoding="windows-1251"?><DATA FORMAT_VERSION="1.0">{body}</DATA>'
    return xml.encode("cp1251")


def test_real_records(engine, settings):
    stats = run(engine, settings, "ua_edr", SAMPLE)
    assert (stats.read, stats.inserted, stats.rejected) == (2, 2, 0)
    gone = company(engine, "UA", "38949117")
    assert gone["name"] == 'ТОВАРИСТВО З ОБМЕЖЕНОЮ ВІДПОВІДАЛЬНІСТЮ "ПАРУС-ІФ"'
    assert (gone["status"], gone["founded_on"], gone["dissolved_on"]) == (
        "dissolved",
        date(2013, 10, 24),
        date(2022, 2, 16),
    )
    assert (gone["legal_form"], gone["legal_form_name"]) == (None, "ТОВАРИСТВО З ОБМЕЖЕНОЮ ВІДПОВІДАЛЬНІСТЮ")
    assert (gone["postal_code"], gone["city"]) == ("76018", "Івано-Франківськ")
    assert (gone["nace_primary"], gone["nace_codes"][:2]) == ("41.10", ["41.10", "43.11"])
    live = company(engine, "UA", "44660866")
    assert (live["status"], live["city"], live["nace_primary"], live["vat_id"]) == (
        "active",
        "Київ",
        "82.30",
        None,
    )
    roles = {(r["role"], r["holder_name"]): r for r in role_rows(engine, "38949117")}
    assert roles[("shareholder", "ЛУЦЬКИЙ АНДРІЙ ІВАНОВИЧ")]["share_pct"] == 50.0
    owner = roles[("beneficial_owner", "КУШНІР АННА ІВАНІВНА")]
    assert (owner["share_pct"], owner["natures_of_control"]) == (50.0, ["Прямий вирішальний вплив"])
    assert roles[("director", "МЕЛЬНИЧОК ТАРАС ВОЛОДИМИРОВИЧ")]["title"] == "керівник"
    assert provenance(engine, "44660866")["source"] == "ua_edr"
    with engine.connect() as conn:
        catalogue = conn.execute(data_sources.select().where(data_sources.c.id == "ua_edr")).mappings().one()
    assert (catalogue["licence"], catalogue["row_count"]) == ("CC BY 4.0", 2)
    assert_idempotent(engine, settings, "ua_edr", SAMPLE)


def test_xml_layout_gives_the_same_records(engine, settings, tmp_path):
    path = tmp_path / "17.1-EX_XML_EDR_UO_FULL_07.10.2022.xml"
    path.write_bytes(to_xml(records()))
    assert run(engine, settings, "ua_edr", path).inserted == 2
    assert company(engine, "UA", "44660866")["nace_primary"] == "82.30"
    assert run(engine, settings, "ua_edr", SAMPLE).updated == 0  # the JSON of the same records: nothing new


def test_synthetic_zip_in_the_older_packaging(engine, settings):
    # SYNTHETIC values (openownership fixture), real 2019 layout: windows-1251, <RECORD>, KVED text,
    # BOSS, FOUNDERS as text lines, and no closing </DATA> (the file breaks off).
    stats, rows = rejects(engine, settings, "ua_edr", SYNTHETIC_ZIP)
    assert (stats.inserted, stats.rejected) == (1, 1)
    assert rows[0]["reason"].startswith("the XML breaks off after 1 records")
    row = company(engine, "UA", "12345678")
    assert (row["name"], row["postal_code"]) == ("Example Українська Company", "12345")
    assert {(r["role"], r["holder_name"]) for r in role_rows(engine, "12345678")} == {
        ("shareholder", "Вася Пупкин"),
        ("beneficial_owner", "Вася Пупкин"),
        ("director", "Вася Пупкин"),
    }


def test_states_and_changes(engine, settings, tmp_path):
    run(engine, settings, "ua_edr", SAMPLE)
    items = records()
    items[1]["STAN"] = "в стані припинення"
    items[1]["TERMINATION_STARTED_INFO"] = "01.03.2023; рішення засновників"
    bankrupt = copy.deepcopy(items[1])
    bankrupt.update(EDRPOU="38949122", STAN="порушено справу про банкрутство")
    rehab = copy.deepcopy(items[1])
    rehab.update(EDRPOU="38949138", STAN="порушено справу про банкрутство (санація)")
    (tmp_path / "changed.json").write_text(
        json.dumps([items[1], bankrupt, rehab], ensure_ascii=False), encoding="utf-8"
    )
    stats = run(engine, settings, "ua_edr", tmp_path / "changed.json")
    assert (stats.updated, stats.inserted) == (1, 2)
    assert changes(engine, "44660866")["in_liquidation"] == ("false", "true")
    assert company(engine, "UA", "38949122")["in_bankruptcy"] is True
    assert company(engine, "UA", "38949138")["in_restructuring"] is True


def test_malformed_records_are_rejected_with_reasons(engine, settings, tmp_path):
    base = records()[1]
    bad = [
        dict(base, EDRPOU="44660867"),
        dict(base, EDRPOU="38949143", STAN="невідомо"),
        dict(base, EDRPOU="38949122", REGISTRATION="2022-02-16"),
        dict(base, EDRPOU="38949138", ACTIVITY_KINDS={"ACTIVITY_KIND": [{"CODE": "8230"}]}),
        dict(base, EDRPOU="38949117", AUTHORIZED_CAPITAL="десять тисяч"),
        ["not", "an", "object"],
    ]
    (tmp_path / "mixed.json").write_text(json.dumps([base, *bad], ensure_ascii=False), encoding="utf-8")
    stats, rows = rejects(engine, settings, "ua_edr", tmp_path / "mixed.json")
    assert (stats.read, stats.inserted, stats.rejected) == (7, 1, 6)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid UA EDRPOU",
        "STAN is not a known EDR status",
        "REGISTRATION has no dd.mm.yyyy",
        "ACTIVITY_KIND.CODE is not a KVED class",
        "not an amount",
        "an EDR record is not an object",
    ):
        assert expected in reasons
    assert count(engine) == 1


@pytest.mark.parametrize("content", [b"", b"EDRPOU;NAME\n", b'{"ico": "26168685"}', b"<DATA><RECORD><NAME>x"])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.xml").write_bytes(content)
    with pytest.raises(SourceAbort):
        run(engine, settings, "ua_edr", tmp_path / "wrong.xml")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "ua_edr", SAMPLE)
    data = assert_envelope(client.get("/api/v1/companies/ua/44660866", headers=auth))
    assert (data["country"], data["status"]) == ("UA", "active")
    assert data["name"].endswith('"МІЖНАРОДНА АКАДЕМІЯ СУЧАСНОЇ МЕДИЧНОЇ ОСВІТИ"')
    assert any(s["id"] == "ua_edr" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/ua/44660867", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/ua/38949122", headers=auth), 404, "NOT_FOUND")
