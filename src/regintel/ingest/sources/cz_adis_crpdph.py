"""Czech register of VAT payers (Registr plátců DPH, ADIS): answers of the `getStatusNespolehlivyPlatce`
web service (SOAP, namespace `http://adis.mfcr.cz/rozhraniCRPDPH/`), one response per file with one
`statusPlatceDPH` per asked DIČ.

Each payer gives its reliability (`nespolehlivyPlatce` ANO = unreliable, NE = reliable, NENALEZEN = not
a VAT payer) and the bank accounts it published for VAT purposes (§ 96 of the VAT Act):
`standardniUcet` (Czech account: prefix, number, bank code, turned into an IBAN with schwifty, which checks
the bank code against the ČNB list) or `nestandardniUcet` (an IBAN or a foreign account as written).
A response whose `status/@statusCode` is not 0 (the nightly maintenance window answers 2) carries no
payer at all: it stops the import rather than being read as "not found" (docs/public-money.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO, Any, cast

from lxml import etree
from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from regintel.domain.identifiers import parse_national_id
from regintel.domain.public_money import BankAccountRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="cz_adis_crpdph",
    name="Registr plátců DPH – nespolehlivý plátce a zveřejněné účty",
    publisher="Ministerstvo financí ČR / Generální finanční ředitelství (ADIS)",
    country="CZ",
    category="public_money",
    formats="getStatusNespolehlivyPlatce SOAP responses (XML)",
    licence="Public data under § 96–98 and § 106a of Act 235/2004 Coll. (VAT Act); no licence text is stated",
    attribution="Zdroj: Registr plátců DPH, Finanční správa ČR",
    url="https://adisrws.mfcr.cz/dpr/axis2/services/rozhraniCRPDPH.rozhraniCRPDPHSOAP",
    cadence="daily",
)
NS = {"d": "http://adis.mfcr.cz/rozhraniCRPDPH/", "s": "http://schemas.xmlsoap.org/soap/envelope/"}
STATUS = {"ANO": "unreliable", "NE": "reliable", "NENALEZEN": "not_found"}


class AdisSource:
    info = INFO
    suffixes: tuple[str, ...] = (".xml",)  # the files of a folder import that are inputs

    def parse(self, stream: IO[bytes], name: str) -> Iterator[BankAccountRecord | RecordError]:
        try:
            root = etree.parse(stream, etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
        except etree.XMLSyntaxError as exc:
            raise SourceAbort(f"{name}: not well-formed XML: {exc}") from None
        answer = root.find(".//d:StatusNespolehlivyPlatceResponse", NS)
        status = answer.find("d:status", NS) if answer is not None else None
        if answer is None or status is None:
            raise SourceAbort(f"{name}: not a StatusNespolehlivyPlatceResponse")
        if status.get("statusCode") != "0":
            raise SourceAbort(
                f"{name}: the register answered status {status.get('statusCode')} "
                f"({status.get('statusText')}), no payer data"
            )
        answered = _date(status.get("odpovedGenerovana"))
        for payer in answer.iterfind("d:statusPlatceDPH", NS):
            yield _payer(payer, answered)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value[:10]) if value else None


def _payer(node: Any, answered: date | None) -> BankAccountRecord | RecordError:
    dic, flag = (node.get("dic") or "").strip().upper(), node.get("nespolehlivyPlatce")
    if not dic or flag not in STATUS:
        return RecordError(
            f"payer without dic or with unknown status {flag!r}", etree.tostring(node).decode()
        )
    try:
        national_id: str | None = parse_national_id("CZ", dic.removeprefix("CZ"))
    except InvalidIdentifier:
        national_id = None  # a DIČ that is a birth number (sole trader) or a group registration
    try:
        accounts = tuple(_account(u) for u in node.iterfind("d:zverejneneUcty/d:ucet", NS))
    except SchwiftyException as exc:
        return RecordError(f"{dic}: unreadable account: {exc}", etree.tostring(node).decode())
    return BankAccountRecord(
        country="CZ",
        vat_id=dic,
        national_id=national_id,
        status=STATUS[flag],
        status_since=_date(node.get("datumZverejneniNespolehlivosti")),
        tax_office=node.get("cisloFu"),
        name=None,
        answered_on=answered,
        accounts=accounts,
    )


def _account(ucet: Any) -> tuple[str | None, str, date | None, date | None]:
    since, until = _date(ucet.get("datumZverejneni")), _date(ucet.get("datumUkonceniZverejneni"))
    standard = ucet.find("d:standardniUcet", NS)
    if standard is not None:
        prefix, number, bank = (
            standard.get("predcisli") or "",
            standard.get("cislo") or "",
            standard.get("kodBanky"),
        )
        written = f"{prefix}-{number}/{bank}" if prefix else f"{number}/{bank}"
        iban = IBAN.generate("CZ", bank_code=bank or "", branch_code=prefix.zfill(6), account_code=number)
        return iban.compact, written, since, until
    other = ucet.find("d:nestandardniUcet", NS)
    written = (other.get("cislo") or "").strip() if other is not None else ""
    try:
        return IBAN(written).compact, written, since, until
    except SchwiftyException:
        return None, written, since, until  # a foreign account that is not an IBAN: kept as written


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, AdisSource()))
