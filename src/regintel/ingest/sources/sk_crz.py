"""Slovak central register of contracts (Centrálny register zmlúv, crz.gov.sk, Act 546/2010 Coll.): the
daily open-data export `https://www.crz.gov.sk/export/<yyyy-mm-dd>.zip`, one `<yyyy-mm-dd>.xml` inside,
root `<zmluvy>` and one `<zmluva>` per contract published or changed that day.

A record names the ordering body (`zs1`, `ico1`, `sidlo1`) and the supplier (`zs2`, `ico`, `sidlo`), the
contract's number (`nazov`) and subject (`predmet`), the sums in EUR (`suma_zmluva`, `suma_spolu`), the
dates (`datum` signed, `datum_ucinnost`, `datum_platnost_do`, `datum_zverejnene`; `0000-00-00` means
none), `typ` (1 contract, 2 amendment) and `stav` (3: cancelled). The layout is the one the register's
export is documented to have; it has not been checked against a real download from this machine (no
sample in shared/data, no internet), so an unknown root stops the import rather than guessing.
Streamed with lxml's iterparse; a syntax error anywhere stops the import and the file is rolled back.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import IO, Any, cast

from lxml import etree

from regintel.domain.identifiers import parse_national_id
from regintel.domain.public_money import CrzContract, Org
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.xmlstream import xml_records

INFO = SourceInfo(
    id="sk_crz",
    name="Centrálny register zmlúv (Slovak central register of contracts)",
    publisher="Úrad vlády Slovenskej republiky",
    country="SK",
    category="public_money",
    formats="CRZ daily XML export (zip with one XML, root zmluvy)",
    licence="Public register under Act 546/2010 Coll. (contracts of public bodies are published by law); "
    "no licence text found",
    licence_url="https://www.crz.gov.sk/",
    attribution="Zdroj: Centrálny register zmlúv, crz.gov.sk",
    url="https://www.crz.gov.sk/",
    cadence="daily",
    snapshots=False,
)
LINK = "https://www.crz.gov.sk/zmluva/{id}/"
KINDS = {"1": "contract", "2": "amendment"}
CANCELLED = "3"


class CrzSource:
    info = INFO
    suffixes: tuple[str, ...] = (".xml", ".xml.gz", ".zip")

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CrzContract | RecordError]:
        for element in xml_records(stream, name, "zmluva", _check_root):
            yield _record(element)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


def _check_root(root: Any, name: str) -> None:
    if root is None or root.tag != "zmluvy":
        raise SourceAbort(f"{name}: not a CRZ export (root {getattr(root, 'tag', None)}, expected zmluvy)")


def _t(node: Any, tag: str) -> str | None:
    found = node.find(tag)
    if found is None or found.text is None:
        return None
    return " ".join(found.text.split()) or None


def _date(value: str | None) -> date | None:
    if not value or value.startswith("0000"):
        return None
    return date.fromisoformat(value[:10])


def _amount(value: str | None) -> Decimal | None:
    """A sum as the export writes it (`1234.50`; some writers use `1 234,50`); 0 is "not stated"."""
    if not value:
        return None
    text = value.replace(" ", "").replace("\u00a0", "")
    if "," in text:
        text = text.replace(".", "").replace(",", ".")
    amount = Decimal(text)
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"not a sum: {value!r}")
    return amount if amount else None


def _org(name: str | None, ico: str | None, address: str | None, ref: str) -> Org:
    national_id = None
    if ico:
        try:
            national_id = parse_national_id("SK", ico)
        except InvalidIdentifier:
            national_id = None  # a malformed IČO is dropped, never used to link
    # A party without an IČO may be foreign or a natural person: only a Slovak IČO fixes the country.
    return Org(
        ref=ref, name=name or "", national_id=national_id, country="SK", address=address, city=_city(address)
    )


def _city(address: str | None) -> str | None:
    """The municipality of `Street 1, 821 08 Bratislava`: the resolver's location evidence."""
    if not address:
        return None
    last = address.rsplit(",", 1)[-1].strip()
    words = [w for w in last.split() if not w.isdigit()]
    return " ".join(words) or None


def _record(zmluva: Any) -> CrzContract | RecordError:
    contract_id = _t(zmluva, "ID")
    if not contract_id or not contract_id.isdigit():
        return RecordError("record without a numeric ID", etree.tostring(zmluva)[:2000].decode())
    try:
        return CrzContract(
            contract_id=contract_id,
            number=_t(zmluva, "nazov"),
            title=_t(zmluva, "predmet"),
            kind=KINDS.get(_t(zmluva, "typ") or ""),
            signed_on=_date(_t(zmluva, "datum")),
            effective_on=_date(_t(zmluva, "datum_ucinnost")),
            valid_until=_date(_t(zmluva, "datum_platnost_do")),
            published_on=_date(_t(zmluva, "datum_zverejnene")),
            value=_amount(_t(zmluva, "suma_zmluva")),
            value_total=_amount(_t(zmluva, "suma_spolu")),
            buyer=_org(_t(zmluva, "zs1"), _t(zmluva, "ico1"), _t(zmluva, "sidlo1"), "buyer"),
            supplier=_org(_t(zmluva, "zs2"), _t(zmluva, "ico"), _t(zmluva, "sidlo"), "supplier"),
            valid=_t(zmluva, "stav") != CANCELLED,
            link=LINK.format(id=contract_id),
        )
    except (ValueError, InvalidOperation) as exc:
        return RecordError(f"unreadable record {contract_id}: {exc}", contract_id)


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, CrzSource()))
