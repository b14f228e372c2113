"""TED eForms notices (EU public procurement, UBL 2.3 based): one notice per XML file.

Read with lxml. A notice gives its identity (BT-701 notice id, BT-757 version, BT-5 publication number
once TED has published it), the procurement (title, description, CPV, estimated value), its lots, its
buyers (`cac:ContractingParty` pointing at `efac:Organizations`) and, in result notices (contract award,
VEAT), the winners: `efac:LotResult` → `efac:LotTender` (amount) → `efac:TenderingParty` → `efac:Tenderer`
→ organisation, with the settled contract's date and title. Business-registration notices (X01, X02) are
not procurement: they are skipped, counted. A file that is not XML, or not an eForms notice, stops the
import (`SourceAbort`): nothing of it is written. See docs/public-money.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import IO, Any, cast

import pycountry
from lxml import etree

from regintel.domain.public_money import Org, TedAward, TedLot, TedNotice
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="ted_eforms",
    name="TED – Tenders Electronic Daily (eForms notices)",
    publisher="Publications Office of the European Union",
    country=None,
    category="public_money",
    formats="eForms XML (UBL 2.3), one notice per file",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: TED – Tenders Electronic Daily, © European Union, CC BY 4.0",
    url="https://ted.europa.eu",
    cadence="daily",
    snapshots=False,
)
NS = {
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    "efac": "http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1",
    "efbc": "http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1",
    "efext": "http://data.europa.eu/p27/eforms-ubl-extensions/1",
    "ext": "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
}
PROCUREMENT_FORMS = ("ContractNotice", "ContractAwardNotice", "PriorInformationNotice")
SKIPPED_FORMS = ("BusinessRegistrationInformationNotice",)
EXT = "ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/efext:EformsExtension"
MAX_TEXT = 4_000


def xml_parser() -> etree.XMLParser:
    """No entities, no network, no DTD: a notice is data, never instructions to fetch anything."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True)


class TedSource:
    info = INFO
    suffixes: tuple[str, ...] = (".xml", ".xml.gz")  # the files of a folder import that are inputs

    def parse(self, stream: IO[bytes], name: str) -> Iterator[TedNotice | RecordError | Skipped]:
        try:
            root = etree.parse(stream, xml_parser()).getroot()
        except etree.XMLSyntaxError as exc:
            raise SourceAbort(f"{name}: not well-formed XML: {exc}") from None
        form = etree.QName(root).localname
        if form in SKIPPED_FORMS:
            yield Skipped(f"{form} (not a procurement notice)")
            return
        if form not in PROCUREMENT_FORMS or not (etree.QName(root).namespace or "").startswith("urn:oasis"):
            raise SourceAbort(f"{name}: not an eForms procurement notice (root element {form})")
        try:
            yield parse_notice(root)
        except (ValueError, InvalidOperation) as exc:
            yield RecordError(f"unreadable notice: {exc}", name)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        """Written by the public-money area's section loader, not the company loader."""
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


def _text(node: Any, path: str) -> str | None:
    found = node.find(path, NS)
    if found is None or found.text is None:
        return None
    value = " ".join(found.text.split())
    return value[:MAX_TEXT] or None


def _amount(node: Any, path: str) -> tuple[Decimal | None, str | None]:
    found = node.find(path, NS)
    if found is None or not (found.text or "").strip():
        return None, None
    return Decimal(found.text.strip()), found.get("currencyID")


def _date(value: str | None) -> date | None:
    """eForms dates carry a zone (`2020-04-14+01:00`, `2020-01-01Z`): the calendar day is the first ten."""
    return date.fromisoformat(value[:10]) if value else None


def _country(alpha3: str | None) -> str | None:
    if not alpha3:
        return None
    found = pycountry.countries.get(alpha_3=alpha3.upper())
    return found.alpha_2 if found is not None else None


def _organisations(root: Any) -> dict[str, Org]:
    out = {}
    for company in root.iterfind(f"{EXT}/efac:Organizations/efac:Organization/efac:Company", NS):
        ref = _text(company, "cac:PartyIdentification/cbc:ID")
        name = _text(company, "cac:PartyName/cbc:Name")
        if ref and name:
            out[ref] = Org(
                ref=ref,
                name=name,
                national_id=_text(company, "cac:PartyLegalEntity/cbc:CompanyID"),
                country=_country(_text(company, "cac:PostalAddress/cac:Country/cbc:IdentificationCode")),
                city=_text(company, "cac:PostalAddress/cbc:CityName"),
            )
    return out


def _lots(root: Any) -> tuple[TedLot, ...]:
    lots = []
    for lot in root.iterfind("cac:ProcurementProjectLot", NS):
        value, currency = _amount(
            lot, "cac:ProcurementProject/cac:RequestedTenderTotal/cbc:EstimatedOverallContractAmount"
        )
        lots.append(
            TedLot(
                lot_id=_text(lot, "cbc:ID") or "",
                title=_text(lot, "cac:ProcurementProject/cbc:Name"),
                cpv=_text(
                    lot, "cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode"
                ),
                estimated_value=value,
                currency=currency,
            )
        )
    return tuple(lots)


def _awards(root: Any, orgs: dict[str, Org]) -> tuple[TedAward, ...]:
    result = root.find(f"{EXT}/efac:NoticeResult", NS)
    if result is None:
        return ()
    tenders = {_text(t, "cbc:ID"): t for t in result.iterfind("efac:LotTender", NS)}
    parties = {_text(p, "cbc:ID"): p for p in result.iterfind("efac:TenderingParty", NS)}
    contracts: dict[str | None, Any] = {}
    for contract in result.iterfind("efac:SettledContract", NS):
        for ref in contract.iterfind("efac:LotTender/cbc:ID", NS):
            contracts[ref.text] = contract
    awards = []
    for lot_result in result.iterfind("efac:LotResult", NS):
        if _text(lot_result, "cbc:TenderResultCode") not in (None, "selec-w"):
            continue  # no winner chosen for this lot (closed, no tenders, …)
        lot_id = _text(lot_result, "efac:TenderLot/cbc:ID") or ""
        for tender_ref in lot_result.iterfind("efac:LotTender/cbc:ID", NS):
            tender = tenders.get(tender_ref.text)
            if tender is None:
                continue
            awards += _tender_awards(
                tender,
                _text(tender, "efac:TenderLot/cbc:ID") or lot_id,
                parties,
                orgs,
                contracts.get(tender_ref.text),
            )
    return tuple(awards)


def _tender_awards(
    tender: Any, lot_id: str, parties: dict[str | None, Any], orgs: dict[str, Org], contract: Any
) -> list[TedAward]:
    value, currency = _amount(tender, "cac:LegalMonetaryTotal/cbc:PayableAmount")
    party = parties.get(_text(tender, "efac:TenderingParty/cbc:ID"))
    if party is None:
        return []
    out = []
    for tenderer in party.iterfind("efac:Tenderer", NS):
        org = orgs.get(_text(tenderer, "cbc:ID") or "")
        if org is None:
            continue
        lead = _text(tenderer, "efbc:GroupLeadIndicator")
        out.append(
            TedAward(
                lot_id=lot_id,
                winner=org,
                value=value,
                currency=currency,
                contract_ref=_text(contract, "cbc:ID") if contract is not None else None,
                contract_title=_text(contract, "cbc:Title") if contract is not None else None,
                signed_on=_date(_text(contract, "cbc:IssueDate")) if contract is not None else None,
                group_lead=None if lead is None else lead == "true",
            )
        )
    return out


def parse_notice(root: Any) -> TedNotice:
    """One eForms notice (the root element) → a `TedNotice`. ValueError when it lacks its id or date."""
    notice_id, issued = _text(root, "cbc:ID"), _text(root, "cbc:IssueDate")
    if not notice_id or not issued:
        raise ValueError("the notice has no cbc:ID or cbc:IssueDate")
    orgs = _organisations(root)
    buyers = tuple(
        orgs[r.text]
        for r in root.iterfind("cac:ContractingParty/cac:Party/cac:PartyIdentification/cbc:ID", NS)
        if r.text in orgs
    )
    project = "cac:ProcurementProject/"
    estimated, est_currency = _amount(
        root, project + "cac:RequestedTenderTotal/cbc:EstimatedOverallContractAmount"
    )
    total, total_currency = _amount(root, f"{EXT}/efac:NoticeResult/cbc:TotalAmount")
    cpv_main = _text(root, project + "cac:MainCommodityClassification/cbc:ItemClassificationCode")
    extra = [
        c.text.strip() for c in root.iterfind(".//cbc:ItemClassificationCode[@listName='cpv']", NS) if c.text
    ]
    return TedNotice(
        notice_id=notice_id,
        version=_text(root, "cbc:VersionID"),
        publication_number=_text(root, f"{EXT}/efac:Publication/efbc:NoticePublicationID"),
        form=etree.QName(root).localname,
        notice_type=_text(root, "cbc:NoticeTypeCode"),
        subtype=_text(root, f"{EXT}/efac:NoticeSubType/cbc:SubTypeCode"),
        issue_date=date.fromisoformat(issued[:10]),
        language=_text(root, "cbc:NoticeLanguageCode"),
        title=_text(root, project + "cbc:Name"),
        description=_text(root, project + "cbc:Description"),
        procedure=_text(root, "cac:TenderingProcess/cbc:ProcedureCode"),
        nature=_text(root, project + "cbc:ProcurementTypeCode"),
        cpv_main=cpv_main,
        cpv_codes=tuple(dict.fromkeys(([cpv_main] if cpv_main else []) + extra)),
        country=buyers[0].country if buyers else None,
        estimated_value=estimated,
        estimated_currency=est_currency,
        total_value=total,
        total_currency=total_currency,
        buyer_legal_type=_text(root, "cac:ContractingParty/cac:ContractingPartyType/cbc:PartyTypeCode"),
        buyers=buyers,
        lots=_lots(root),
        awards=_awards(root, orgs),
    )


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, TedSource()))
