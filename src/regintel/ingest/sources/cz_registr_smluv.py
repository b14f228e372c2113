"""Czech register of contracts (Registr smluv, smlouvy.gov.cz): the open-data XML dumps
(`dump_<yyyy>_<mm>[_<dd>].xml`, root `<daily>` or `<monthly>`, namespace ISRS 1.2), one `<zaznam>` per
published contract version.

A record names the publishing body (`subjekt`, with `platce` when it pays) and the counterparties
(`smluvniStrana`, with `prijemce` when the party receives the payment, i.e. supplies). Values are in CZK
without VAT (`hodnotaBezDph`) and/or with VAT (`hodnotaVcetneDph`), or in a foreign currency (`ciziMena`).
`idSmlouvy` is stable across versions; the web page is that of the version (`odkaz`). A record with
`platnyZaznam` 0 was withdrawn: importing it removes the contract. Streamed with lxml's iterparse, so a
monthly dump's size does not matter; a syntax error anywhere stops the import and the whole file is
rolled back (docs/public-money.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import IO, Any, cast

from lxml import etree

from regintel.domain.identifiers import parse_national_id
from regintel.domain.public_money import ContractRecord, Org
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.xmlstream import xml_records

INFO = SourceInfo(
    id="cz_registr_smluv",
    name="Registr smluv (Czech register of contracts)",
    publisher="Ministerstvo vnitra České republiky / Digitální a informační agentura",
    country="CZ",
    category="public_money",
    formats="ISRS 1.2 XML open-data dumps (daily, monthly)",
    licence="Public register under Act 340/2015 Coll., open data published without registration",
    licence_url="https://data.smlouvy.gov.cz/",
    attribution="Zdroj: Registr smluv, smlouvy.gov.cz",
    url="https://data.smlouvy.gov.cz/",
    cadence="daily",
    snapshots=False,
)
NS = "http://portal.gov.cz/rejstriky/ISRS/1.2/"
ROOTS = ("daily", "monthly")
Q = "{" + NS + "}"


class RegistrSmluvSource:
    info = INFO
    suffixes: tuple[str, ...] = (".xml", ".xml.gz", ".zip")  # the files of a folder import that are inputs

    def parse(self, stream: IO[bytes], name: str) -> Iterator[ContractRecord | RecordError]:
        for element in xml_records(stream, name, Q + "zaznam", _check_root):
            yield _record(element)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


def _check_root(root: Any, name: str) -> None:
    if root is None or etree.QName(root).localname not in ROOTS or etree.QName(root).namespace != NS:
        raise SourceAbort(f"{name}: not a Registr smluv dump (root {getattr(root, 'tag', None)})")


def _t(node: Any, path: str) -> str | None:
    if node is None:
        return None
    found = node.find(Q + path.replace("/", "/" + Q))
    if found is None or found.text is None:
        return None
    return " ".join(found.text.split()) or None


def _flag(node: Any, path: str) -> bool | None:
    value = _t(node, path)
    return None if value is None else value in ("1", "true")


def _ico(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return parse_national_id("CZ", value)
    except InvalidIdentifier:
        return None


def _party(node: Any, ref: str, default_country: str | None) -> Org:
    ico = _ico(_t(node, "ico"))
    return Org(
        ref=ref,
        name=_t(node, "nazev") or "",
        national_id=ico,
        country="CZ" if ico else default_country,
        address=_t(node, "adresa"),
    )


def _decimal(value: str | None) -> Decimal | None:
    return Decimal(value) if value else None


def _record(zaznam: Any) -> ContractRecord | RecordError:
    smlouva = zaznam.find(Q + "smlouva")
    contract_id, version_id = _t(zaznam, "identifikator/idSmlouvy"), _t(zaznam, "identifikator/idVerze")
    if smlouva is None or not contract_id or not version_id:
        return RecordError(
            "record without smlouva, idSmlouvy or idVerze", etree.tostring(zaznam)[:2000].decode()
        )
    try:
        published = _t(zaznam, "casZverejneni")
        signed = _t(smlouva, "datumUzavreni")
        subjekt = smlouva.find(Q + "subjekt")
        parties = tuple(
            (_party(p, str(i), None), _flag(p, "prijemce"))
            for i, p in enumerate(smlouva.iterfind(Q + "smluvniStrana"), start=1)
        )
        return ContractRecord(
            contract_id=contract_id,
            version_id=version_id,
            link=_t(zaznam, "odkaz") or f"https://smlouvy.gov.cz/smlouva/{version_id}",
            published_at=datetime.fromisoformat(published) if published else None,
            title=_t(smlouva, "predmet"),
            signed_on=date.fromisoformat(signed[:10]) if signed else None,
            number=_t(smlouva, "cisloSmlouvy"),
            value_net=_decimal(_t(smlouva, "hodnotaBezDph")),
            value_gross=_decimal(_t(smlouva, "hodnotaVcetneDph")),
            foreign_value=_decimal(_t(smlouva, "ciziMena/hodnota")),
            foreign_currency=_t(smlouva, "ciziMena/mena"),
            valid=_t(zaznam, "platnyZaznam") != "0",
            publisher=_party(subjekt, "0", "CZ"),
            publisher_pays=_flag(subjekt, "platce"),
            parties=parties,
        )
    except (ValueError, InvalidOperation) as exc:
        return RecordError(f"unreadable record {contract_id}: {exc}", contract_id)


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, RegistrSmluvSource()))
