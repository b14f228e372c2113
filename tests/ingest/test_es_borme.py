"""es_borme: the real BORME Section A PDF (Cáceres, 10/02/2015, 30 acts), summary XML and Section C
XML through the runner; PDFs of other issues are written here with fpdf2 in BORME's layout."""

from __future__ import annotations

from datetime import date

import pytest
from fpdf import FPDF

from regintel.db.schema import data_sources, roles
from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.sources.es_borme import province_nuts3
from regintel.ingest.sources.es_borme_acts import parse_act
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

PDF = FIXTURES / "es_borme" / "BORME-A-2015-27-10.pdf"
SUMMARY = FIXTURES / "es_borme" / "BORME-S-20150924.xml"
NOTICE = FIXTURES / "es_borme" / "BORME-C-2011-20488.xml"


def issue_pdf(path, day: str, number: int, acts: list[str]) -> None:
    """A one-page Section A PDF of issue `number` on `day` ("30 de enero de 2015"), Cáceres."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=8)
    for line in [
        "BOLETÍN OFICIAL DEL REGISTRO MERCANTIL",
        f"Núm. {number} Viernes {day} Pág. 5000",
        f"cve: BORME-A-2015-{number}-10",
        "SECCIÓN PRIMERA",
        "Empresarios",
        "Actos inscritos",
        "CÁCERES",
        *acts,
    ]:
        pdf.cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")
    path.write_bytes(bytes(pdf.output()))


def test_real_section_a_pdf(engine, settings):
    stats = run(engine, settings, "es_borme", PDF)
    assert (stats.read, stats.inserted, stats.rejected) == (25, 25, 0)  # 30 acts of 25 companies
    first = company(engine, "ES", "H-CC-11959")
    assert (first["name"], first["legal_form"], first["legal_form_name"]) == (
        "VERAJERTE SL",
        "SL",
        "Sociedad de Responsabilidad Limitada",
    )
    assert (first["street"], first["city"], first["region_code"]) == (
        "C/ LA FUENTE 16",
        "TEJEDA DE TIETAR",
        "CÁCERES",
    )
    assert first["status"] == "active"
    assert first["nuts3"] == "ES432"  # the province of the PDF: Cáceres
    assert identifier_pairs(engine, "H-CC-11959") >= {("elf", "DP3Q")}
    # 57317 and 57318 are acts of one sheet; the second renames the company
    renamed = company(engine, "ES", "H-CC-4354")
    assert renamed["name"] == "ESTUDIOS DESARROLLOS Y PROYECTOS MORCUENDE SL"
    assert (renamed["street"], renamed["city"]) == ("C/ MAYO 29 BJ 2", "VILLANUEVA DE LA VERA")
    new = company(engine, "ES", "H-CC-13637")  # a Constitución
    assert (new["name"], new["founded_on"], new["address_text"]) == (
        "VILDETA SL",
        date(2015, 2, 2),
        "CTRA DE MIAJADAS Km 2, CACERES",
    )
    assert company(engine, "ES", "H-CC-369")["legal_form"] == "SA"
    source = provenance(engine, "H-CC-13645")
    assert (source["source"], source["source_record_id"], source["published_on"]) == (
        "es_borme",
        "BORME-A-2015-27-10/57344",
        date(2015, 2, 10),
    )
    assert (
        provenance(engine, "H-CC-1642")["source_record_id"] == "BORME-A-2015-27-10/57335"
    )  # its last of 3 acts
    with engine.connect() as conn:
        row = conn.execute(data_sources.select().where(data_sources.c.id == "es_borme")).mappings().one()
    assert row["row_count"] == 25 and "BORME" in row["attribution"]


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "es_borme", PDF)
    assert assert_idempotent(engine, settings, "es_borme", PDF).unchanged == 25


def test_later_acts_change_and_older_issues_are_skipped(engine, settings, tmp_path):
    run(engine, settings, "es_borme", PDF)
    later = tmp_path / "later.pdf"
    issue_pdf(
        later,
        "20 de marzo de 2015",
        55,
        [
            "60001 - VERAJERTE SL.",
            "Disolución.  Voluntaria.  Datos registrales. T 856, L 683, F 99, S 8, H CC 11959, "
            "I/A 4 (10.03.15).",
            "60002 - VILDETA SL.",
            "Extinción.  Datos registrales. T 942, L 769, F 134, S 8, H CC 13637, I/A 2 (12.03.15).",
            "60003 - CARPINTERIA HADEX SL.",
            "Situación concursal.  Procedimiento concursal 12/2015.  Datos registrales. "
            "T 942, L 769, F 177, S 8, "
            "H CC 13641, I/A 2 (13.03.15).",
        ],
    )
    stats = run(engine, settings, "es_borme", later)
    assert (stats.read, stats.updated) == (3, 3)
    assert company(engine, "ES", "H-CC-11959")["in_liquidation"] is True
    gone = company(engine, "ES", "H-CC-13637")
    assert (gone["status"], gone["dissolved_on"]) == ("dissolved", date(2015, 3, 12))
    assert company(engine, "ES", "H-CC-13641")["in_bankruptcy"] is True
    assert changes(engine, "H-CC-13637")["status"] == ("active", "dissolved")
    older = tmp_path / "older.pdf"
    issue_pdf(
        older,
        "30 de enero de 2015",
        20,
        [
            "50001 - VERAJERTE ANTIGUA SL.",
            "Nombramientos.  Adm. Unico: X.  Datos registrales. T 856, L 683, F 90, S 8, H CC 11959, "
            "I/A 1 (20.01.15).",
        ],
    )
    stats = run(engine, settings, "es_borme", older)
    assert stats.skip_reasons == {"older than the data already loaded from this source": 1}
    assert company(engine, "ES", "H-CC-11959")["name"] == "VERAJERTE SL"


def test_malformed_acts_are_rejected(engine, settings, tmp_path):
    path = tmp_path / "bad.pdf"
    issue_pdf(
        path,
        "20 de marzo de 2015",
        55,
        [
            "60001 - SIN DATOS SL.",
            "Nombramientos.  Adm. Unico: X.",
            "60002 - SIN HOJA SL.",
            "Nombramientos.  Datos registrales. T 856, L 683, F 99, S 8, I/A 4 (10.03.15).",
            "60003 - FECHA MALA SL.",
            "Extinción.  Datos registrales. T 1, L 1, F 1, S 8, H CC 5, I/A 2 (31.02.15).",
            "60004 - BUENA SL.",
            "Extinción.  Datos registrales. T 1, L 1, F 1, S 8, H CC 6, I/A 2 (12.03.15).",
        ],
    )
    stats, rows = rejects(engine, settings, "es_borme", path)
    assert (stats.read, stats.inserted, stats.rejected) == (4, 1, 3)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in ("no 'Datos registrales", "name no sheet", "the inscription date is not a date"):
        assert expected in reasons
    assert rows[0]["record"]["act"] == "60001"
    assert count(engine) == 1


def test_act_parser_directly():
    act = parse_act(
        "1",
        "X S.L.U.\nCambio de domicilio social.  C/ UNO 1 (PUEBLO).  Datos registrales. T 1,\n"
        "L 1, F 1, S 8, H M 123456, I/A 3 ( 2.02.15).",
    )
    assert (act.sheet, act.inscribed_on, act.street, act.city) == (
        "H M 123456",
        date(2015, 2, 2),
        "C/ UNO 1",
        "PUEBLO",
    )
    with pytest.raises(RecordError):
        parse_act("2", "Y SL.\nConstitución.")


def test_xml_files_are_read_and_skipped(engine, settings):
    summary = run(engine, settings, "es_borme", SUMMARY)
    assert (summary.read, summary.skipped, summary.inserted) == (69, 69, 0)
    assert summary.skip_reasons == {
        "summary item: lists a PDF, names no company (import the Section A PDF)": 69
    }
    notice = run(engine, settings, "es_borme", NOTICE)
    assert (notice.read, notice.skipped) == (1, 1)
    assert count(engine) == 0


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"%PDF-1.4 not really a pdf",
        b"<sumario><meta/></sumario>",
        b"<documento><metadatos/></documento>",
        b"<html/>",
        b"<unclosed",
        b"plain text",
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.pdf").write_bytes(content)
    with pytest.raises(SourceAbort):
        run(engine, settings, "es_borme", tmp_path / "wrong.pdf")
    assert count(engine) == 0


def test_pdf_of_another_kind_aborts(engine, settings, tmp_path):
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.cell(0, 5, "An invoice, not a BORME issue")
    (tmp_path / "other.pdf").write_bytes(bytes(pdf.output()))
    with pytest.raises(SourceAbort, match="not a BORME Section A"):
        run(engine, settings, "es_borme", tmp_path / "other.pdf")


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "es_borme", PDF)
    data = assert_envelope(client.get("/api/v1/companies/es/H-CC-11959", headers=auth))
    assert (data["name"], data["country"]) == ("VERAJERTE SL", "ES")
    assert any(s["id"] == "es_borme" for s in data["sources"])
    assert (
        assert_envelope(client.get("/api/v1/companies/es/HCC11959", headers=auth))["name"] == "VERAJERTE SL"
    )
    assert_error(client.get("/api/v1/companies/es/H-XX-1", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/es/H-CC-99999", headers=auth), 404, "NOT_FOUND")


def test_officers_of_the_real_pdf(engine, settings):
    run(engine, settings, "es_borme", PDF)
    rows = {(r["role"], r["holder_name"]): r for r in role_rows(engine, "H-CC-11959")}
    # 57315: the two joint directors cease, one of them becomes sole director; 57316: sole shareholder
    assert {k: (r["title"], r["since"], r["until"]) for k, r in rows.items()} == {
        ("director", "PANIAGUA SANCHEZ JOSE ANTONIO"): ("Administrador único", date(2015, 1, 29), None),
        ("director", "LOPEZ COLLAZOS JORGE CARLOS"): ("Administrador solidario", None, date(2015, 1, 29)),
        ("shareholder", "PANIAGUA SANCHEZ JOSE ANTONIO"): ("Socio único", date(2015, 1, 29), None),
    }
    assert rows[("shareholder", "PANIAGUA SANCHEZ JOSE ANTONIO")]["share_pct"] == 100.0
    assert all(r["person_id"] is not None for r in rows.values())  # natural persons
    auditors = role_rows(engine, "H-CC-369")  # Reelecciones: in post, start not printed
    assert [
        (r["role"], r["holder_name"], r["title"], r["since"], r["person_id"] is None) for r in auditors
    ] == [
        ("auditor", "A.T.A AUDITORES SL", "Auditor", None, True),  # a company, not a person
        ("auditor", "CUEVAS MUÑOZ SILVIA MARIA", "Auditor suplente", None, False),
    ]
    # 57334: eight attorneys revoked and eight appointed on one day, seven of them the same
    attorneys = role_rows(engine, "H-CC-1642")
    ended = [r["holder_name"] for r in attorneys if r["until"] is not None]
    assert ended == ["DE LA FUENTE CUELLO MANUEL"]
    assert len([r for r in attorneys if r["role"] == "statutory_body" and r["until"] is None]) == 8
    assert count(engine, roles) == 46
    assert changes(engine, "H-CC-11959")["roles"][0] == ""  # logged as a change of the company


def test_later_appointments_and_cessations_apply_on_top(engine, settings, tmp_path):
    run(engine, settings, "es_borme", PDF)
    later = tmp_path / "later.pdf"
    issue_pdf(
        later,
        "20 de marzo de 2015",
        55,
        [
            "60001 - VERAJERTE SL.",
            "Ceses/Dimisiones.  Adm. Unico: PANIAGUA SANCHEZ JOSE ANTONIO.  Nombramientos.  Adm. Unico: "
            "GARCIA LOPEZ ANA.  Auditor: DELOITTE SL.  Datos registrales. T 856, L 683, F 99, S 8, "
            "H CC 11959, I/A 4 (10.03.15).",
        ],
    )
    stats = run(engine, settings, "es_borme", later)
    assert (stats.read, stats.updated) == (1, 1)
    rows = {(r["role"], r["holder_name"]): (r["since"], r["until"]) for r in role_rows(engine, "H-CC-11959")}
    assert rows == {
        ("director", "PANIAGUA SANCHEZ JOSE ANTONIO"): (date(2015, 1, 29), date(2015, 3, 10)),
        ("director", "LOPEZ COLLAZOS JORGE CARLOS"): (None, date(2015, 1, 29)),  # kept from the first issue
        ("director", "GARCIA LOPEZ ANA"): (date(2015, 3, 10), None),
        ("auditor", "DELOITTE SL"): (date(2015, 3, 10), None),
        ("shareholder", "PANIAGUA SANCHEZ JOSE ANTONIO"): (date(2015, 1, 29), None),
    }
    old, new = changes(engine, "H-CC-11959")["roles"]
    assert "GARCIA LOPEZ ANA" not in old and "director: GARCIA LOPEZ ANA" in new
    assert assert_idempotent(engine, settings, "es_borme", later).unchanged == 1
    # an older issue naming another director changes nothing (the record is skipped as older)
    older = tmp_path / "older.pdf"
    issue_pdf(
        older,
        "30 de enero de 2015",
        20,
        [
            "50001 - VERAJERTE SL.",
            "Nombramientos.  Adm. Unico: PEREZ PEREZ LUIS.  Datos registrales. T 856, L 683, F 90, S 8, "
            "H CC 11959, I/A 1 (20.01.15).",
        ],
    )
    run(engine, settings, "es_borme", older)
    assert "PEREZ PEREZ LUIS" not in {r["holder_name"] for r in role_rows(engine, "H-CC-11959")}


def test_officers_served_behind_the_purpose_gate(engine, settings, client, auth):
    run(engine, settings, "es_borme", PDF)
    url = "/api/v1/companies/H-CC-11959/relations?country=ES"
    plain = client.get(url, headers=auth)
    assert plain.status_code == 200
    gated = client.get(url, headers=auth, params={"purpose": "kyc", "include_ended": "true"})
    assert gated.status_code == 200
    assert "PANIAGUA SANCHEZ JOSE ANTONIO" in gated.text and "LOPEZ COLLAZOS JORGE CARLOS" in gated.text
    assert_error(client.get(url, headers=auth, params={"purpose": "curiosity"}), 422, "VALIDATION_ERROR")


@pytest.mark.parametrize(
    "province, nuts3",
    [
        ("CÁCERES", "ES432"),
        ("ALICANTE", "ES521"),  # NUTS writes "Alicante/Alacant"
        ("GUIPÚZCOA", "ES212"),  # NUTS writes "Gipuzkoa"
        ("A CORUÑA", "ES111"),
        ("MADRID", "ES300"),
        ("ILLES BALEARS", None),  # NUTS 3 is by island
        ("LAS PALMAS", None),
        ("ATLANTIS", None),
    ],
)
def test_province_to_nuts3(province, nuts3):
    assert province_nuts3(province) == nuts3
