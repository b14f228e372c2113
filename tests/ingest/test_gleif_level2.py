"""GLEIF Level 2 and reference imports: relationships (`gleif_rr`), reporting exceptions
(`gleif_repex`) and the registration-authorities list (`gleif_ra`)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.db.schema import (
    companies,
    company_changes,
    lei_relationships,
    lei_reporting_exceptions,
    ownerships,
    registration_authorities,
)
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.gleif_registers import BUNDLED_RA_LIST
from regintel.ingest.sources.gleif_stream import xml_node
from tests.ingest.test_gleif import FIXTURES, LEI_UPDATES, LEI_XML, count, run

RR = FIXTURES / "bodspipelines_rr-data.xml"
RR_UPDATES = FIXTURES / "bodspipelines_rr-updates-data2.xml"
REPEX = FIXTURES / "bodspipelines_repex-data.xml"
REPEX_UPDATES = FIXTURES / "bodspipelines_repex-updates-data2.xml"
VUB, GENERALI, AQUILA = "549300JB1P61FUTPEZ75", "097900BHF50000076475", "097900BJGO0000201513"


def edges(engine):
    with engine.connect() as conn:
        parent, child = companies.alias(), companies.alias()
        query = (
            select(
                parent.c.national_id,
                child.c.national_id,
                ownerships.c.kind,
                ownerships.c.since,
                ownerships.c.until,
                ownerships.c.source,
            )
            .join(parent, parent.c.id == ownerships.c.parent_id)
            .join(child, child.c.id == ownerships.c.child_id)
        )
        return [tuple(r) for r in conn.execute(query)]


def relationship(engine, child, parent, kind):
    with engine.connect() as conn:
        return (
            conn.execute(
                select(lei_relationships).where(
                    lei_relationships.c.child_lei == child,
                    lei_relationships.c.parent_lei == parent,
                    lei_relationships.c.kind == kind,
                )
            )
            .mappings()
            .one()
        )


def test_relationships_become_ownership_edges_between_known_companies(engine, settings):
    run(engine, settings, LEI_XML)
    run(engine, settings, LEI_UPDATES)
    stats = run(engine, settings, RR_UPDATES, "gleif_rr")
    assert count(engine, lei_relationships) == 11
    assert stats.rejected == 0
    # VÚB Generali is directly consolidated by VÚB; both are SK companies from the LEI import
    from datetime import date

    found = edges(engine)
    assert ("31320155", "35903058", "direct", date(2022, 10, 24), None, "gleif_rr") in found
    # the Australian chain MONOOVA FX -> MONOOVA GLOBAL PAYMENTS -> MONEYTECH GROUP and the
    # Luxembourg parent of Aquila link too (ASIC and RCS Luxembourg are mapped registers)
    assert len(found) == 7 and not stats.skip_reasons
    generali = relationship(engine, GENERALI, VUB, "direct")
    assert (generali["status"], generali["registration_status"], generali["start_date"]) == (
        "ACTIVE",
        "PUBLISHED",
        "2022-10-24T08:00:00+02:00",
    )
    aquila = relationship(engine, AQUILA, "9845002B9874D50A4531", "ultimate")
    assert aquila["share_pct"] == 1.0  # as published, not rescaled
    managed = relationship(engine, "097900BEJX0000002337", "097900BHF50000076475", "IS_FUND-MANAGED_BY")
    assert managed["start_date"] == "2005-03-23T08:00:00+01:00"
    with engine.connect() as conn:
        changes = (
            conn.execute(select(company_changes).where(company_changes.c.field == "owner.direct"))
            .mappings()
            .all()
        )
    assert changes and {c["source"] for c in changes} == {"gleif_rr"}


def test_relationship_import_is_idempotent_and_waits_for_its_ends(engine, settings):
    first = run(engine, settings, RR_UPDATES, "gleif_rr")  # before any LEI record: no company ends
    assert (first.inserted, first.skipped, edges(engine)) == (11, 7, [])
    run(engine, settings, LEI_UPDATES)
    again = run(engine, settings, RR_UPDATES, "gleif_rr")  # the daily re-import draws the edge
    assert (again.inserted, again.updated, again.unchanged) == (7, 0, 11)
    third = run(engine, settings, RR_UPDATES, "gleif_rr")
    assert (third.inserted, third.updated, third.changes) == (0, 0, 0)
    assert len(edges(engine)) == 7


def test_relationship_kinds(engine, settings):
    run(engine, settings, RR, "gleif_rr")
    with engine.connect() as conn:
        kinds = sorted(conn.execute(select(lei_relationships.c.kind)).scalars())
    assert kinds == ["IS_FUND-MANAGED_BY"] * 5 + ["IS_SUBFUND_OF"] * 3 + ["direct", "ultimate"]
    lapsed = relationship(engine, "010CMKZ3VON21WF2ZD45", "3C7474T6CDKPR9K6YT90", "ultimate")
    # the relationship period (not the 2020 accounting period) is kept: open-ended since 2018-02-06
    assert (lapsed["registration_status"], lapsed["start_date"], lapsed["end_date"]) == (
        "LAPSED",
        "2018-02-06T00:00:00.000Z",
        None,
    )


def test_relationship_changes_and_corruption(engine, settings, tmp_path):
    run(engine, settings, RR_UPDATES, "gleif_rr")
    text = RR_UPDATES.read_text(encoding="utf-8")
    text = text.replace(
        "<rr:RelationshipStatus>ACTIVE</rr:RelationshipStatus>",
        "<rr:RelationshipStatus>INACTIVE</rr:RelationshipStatus>",
        1,
    )
    text = text.replace(
        "<rr:NodeID>097900BEJX0000002143</rr:NodeID>", "<rr:NodeID>097900BEJX0000002144</rr:NodeID>"
    )
    text = text.replace(
        "<rr:QuantifierAmount>100.00</rr:QuantifierAmount>",
        "<rr:QuantifierAmount>hundred</rr:QuantifierAmount>",
        1,
    )
    path = tmp_path / "rr.xml"
    path.write_text(text, encoding="utf-8")
    stats = run(engine, settings, path, "gleif_rr")
    assert stats.reasons == {"invalid child LEI (StartNode)": 1, "QuantifierAmount is not a number": 1}
    assert stats.updated == 1
    assert (
        relationship(engine, "097900BEJX0000002337", GENERALI, "IS_FUND-MANAGED_BY")["status"] == "INACTIVE"
    )


def _as_json(xml_path: Path, record_tag: str, tmp_path: Path, key: str) -> Path:
    """The GLEIF XML-to-JSON flavour of an XML fixture (`$` text, `@attr` attributes)."""
    nodes = [xml_node(e) for e in ET.parse(xml_path).getroot().iter() if e.tag.endswith("}" + record_tag)]
    path = tmp_path / (xml_path.stem + ".json")
    path.write_text(json.dumps({key: nodes}, ensure_ascii=False), encoding="utf-8")
    return path


def test_json_flavour_of_level2_files(engine, settings, tmp_path):
    run(engine, settings, LEI_UPDATES)
    stats = run(
        engine, settings, _as_json(RR_UPDATES, "RelationshipRecord", tmp_path, "relations"), "gleif_rr"
    )
    assert (stats.inserted, stats.rejected) == (18, 0)  # 11 relationships and 7 ownership edges
    stats = run(engine, settings, RR_UPDATES, "gleif_rr")  # the XML says the same
    assert (stats.inserted, stats.updated) == (0, 0)
    stats = run(engine, settings, _as_json(REPEX_UPDATES, "Exception", tmp_path, "exceptions"), "gleif_repex")
    assert (stats.read, stats.rejected) == (7, 0)


def test_reporting_exceptions(engine, settings):
    stats = run(engine, settings, REPEX, "gleif_repex")
    assert (stats.read, stats.rejected) == (10, 0)
    stats = run(engine, settings, REPEX_UPDATES, "gleif_repex")
    assert (stats.unchanged, stats.updated) == (1, 6)  # 004L5FPTUREIWK9T2N63 is in both files
    with engine.connect() as conn:
        rows = {
            (r.lei, r.category): (r.reason, r.reference)
            for r in conn.execute(select(lei_reporting_exceptions))
        }
    assert len(rows) == 16
    assert rows["159515PKYKQYJLT0KF16", "DIRECT_ACCOUNTING_CONSOLIDATION_PARENT"] == (
        "NATURAL_PERSONS",
        "Datenschutz",
    )
    assert rows["ZZZWS8Y6XVKM0Q9RJQ79", "ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT"] == (
        "NON_CONSOLIDATING",
        None,
    )
    assert rows["020BQJXAXCZNLKIN7326", "DIRECT_ACCOUNTING_CONSOLIDATION_PARENT"] == ("NO_LEI", None)
    again = run(engine, settings, REPEX_UPDATES, "gleif_repex")
    assert (again.unchanged, again.updated) == (7, 0)


def test_reporting_exception_rejects(engine, settings, tmp_path):
    text = REPEX.read_text(encoding="utf-8")
    text = text.replace(
        "<repex:LEI>00EHHQ2ZHDCFXJCPCL46</repex:LEI>", "<repex:LEI>00EHHQ2ZHDCFXJCPCL47</repex:LEI>"
    )
    text = text.replace("<repex:ExceptionReason>NO_KNOWN_PERSON</repex:ExceptionReason>", "", 1)
    path = tmp_path / "repex.xml"
    path.write_text(text, encoding="utf-8")
    stats = run(engine, settings, path, "gleif_repex")
    assert stats.reasons == {"invalid LEI": 1, "no ExceptionCategory or ExceptionReason": 1}
    assert count(engine, lei_reporting_exceptions) == 8


def test_level2_sources_refuse_other_files(engine, settings):
    with pytest.raises(SourceAbort, match="reporting exceptions file: import it with .gleif_repex."):
        run(engine, settings, REPEX, "gleif_rr")
    with pytest.raises(SourceAbort, match="LEI-CDF file: import it with .gleif."):
        run(engine, settings, LEI_XML, "gleif_repex")


def ra_list(tmp_path: Path) -> Path:
    path = tmp_path / "ra_list.csv"
    path.write_bytes(resources.files("regintel").joinpath(BUNDLED_RA_LIST).read_bytes())
    return path


def authority(engine, code):
    with engine.connect() as conn:
        return (
            conn.execute(select(registration_authorities).where(registration_authorities.c.code == code))
            .mappings()
            .one()
        )


def test_registration_authorities(engine, settings, tmp_path):
    stats = run(engine, settings, ra_list(tmp_path), "gleif_ra")
    assert (stats.read, stats.inserted, stats.rejected) == (994, 994, 0)  # 1,037 rows, 994 codes
    sk = authority(engine, "RA000526")
    assert (sk["country"], sk["register_name"], sk["register_name_local"], sk["jurisdiction"]) == (
        "SK",
        "Business Register",
        "Obchodný register",
        "Slovakia",
    )
    sirene = authority(engine, "RA000189")  # listed for France and its 11 overseas territories
    assert sirene["country"] == "FR" and sirene["jurisdiction"].startswith("France; French Guiana; ")
    sec = authority(engine, "RA000665")  # US and its territories, none of them our market
    assert (sec["country"], sec["jurisdiction"]) == (
        None,
        "Guam; Puerto Rico; U.S. Virgin Islands; United States of America",
    )
    again = run(engine, settings, ra_list(tmp_path), "gleif_ra")
    assert (again.inserted, again.updated, again.unchanged) == (0, 0, 994)


def test_registration_authority_changes_and_rejects(engine, settings, tmp_path):
    run(engine, settings, ra_list(tmp_path), "gleif_ra")
    text = ra_list(tmp_path).read_text(encoding="utf-8-sig")
    text = text.replace(
        '"RA000526","Slovakia","SK","Slovakia","Business Register"',
        '"RA000526","Slovakia","SK","Slovakia","Business Register (RPO)"',
    )
    text = text.replace('"RA000527","Slovakia","SK"', '"RA000527","Slovakia","Slovensko"')
    text += '"XX12345","Nowhere","XX","","","","","","",""\n'
    path = tmp_path / "ra_edited.csv"
    path.write_text(text, encoding="utf-8")
    stats = run(engine, settings, path, "gleif_ra")
    assert stats.reasons == {
        "not a registration authority code": 1,
        "country code is not ISO 3166-1 alpha-2": 1,
    }
    assert (stats.updated, stats.unchanged) == (1, 992)
    assert authority(engine, "RA000526")["register_name"] == "Business Register (RPO)"


def test_registration_authorities_refuse_other_files(engine, settings):
    with pytest.raises(SourceAbort, match="not a GLEIF registration authorities list"):
        run(engine, settings, LEI_XML, "gleif_ra")
