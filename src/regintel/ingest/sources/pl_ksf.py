"""Polish financial statements: the XML e-sprawozdania that companies entered in the KRS file with the
Repozytorium Dokumentów Finansowych (ekrs.ms.gov.pl), in the Ministry of Finance's structures of 2018-07-09
(`http://www.mf.gov.pl/schematy/SF/DefinicjeTypySprawozdaniaFinansowe/2018/07/09/...`): the root
`JednostkaInna`, `JednostkaMala` or `JednostkaMikro`, in złoty (`...WZlotych`) or in thousands
(`...WTysiacach`, scaled here). Each line is an element named after its position in Annex 1 of the
Accounting Act (Ustawa o rachunkowości) holding `KwotaA` (the reported year) and `KwotaB` (the year
before); only `KwotaA` is read, so the comparatives never become a statement of their own.

- the company: `WprowadzenieDoSprawozdaniaFinansowego/P_1/P_1E` (KRS number; an entity without one is
  rejected, as regintel keys Polish companies by KRS), the period: `Naglowek/OkresOd`, `OkresDo`;
- balance sheet (`Bilans`): `Aktywa` (total assets), `Aktywa_B` (current assets), `Pasywa_A` (equity),
  `Pasywa_B` (liabilities and provisions), `Pasywa_B_III` (short-term liabilities), `Pasywa_A_V` +
  `Pasywa_A_VI` (profit of previous years + net profit of the year: retained earnings), `Pasywa_A_VI` the
  net profit;
- profit and loss (`RZiS`): revenue is line `A` of either variant (`RZiSPor`, comparative; `RZiSKalk`,
  by function); EBIT is `RZiSPor/F` (zysk z działalności operacyjnej). The calculation variant's
  operating line is not read: no sample was available to check its letter.

No real file was available offline: the fixtures in tests/fixtures/pl_ksf/ are written from the schema
`JednostkaInnaWZlotych(1)_v1-2.xsd` and the Act's annex with invented figures. The odpis of the KRS API
(`pl_krs`) has no figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from lxml import etree

from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import FinancialRecord, Record, StatementRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="pl_ksf",
    name="KRS financial statements (e-sprawozdania XML)",
    publisher="Ministerstwo Sprawiedliwości (Repozytorium Dokumentów Finansowych)",
    country="PL",
    category="financials",
    formats="XML statements in the Ministry of Finance structures of 2018-07-09 (JednostkaInna, "
    "JednostkaMala, JednostkaMikro; in złoty or thousands)",
    licence="public register; re-use under the Act of 11 August 2021 on open data and the re-use of "
    "public sector information",
    attribution="Source: Krajowy Rejestr Sądowy, Repozytorium Dokumentów Finansowych",
    url="https://ekrs.ms.gov.pl/rdf/pd/search_df",
    cadence="on-demand",
)

ROOTS = ("JednostkaInna", "JednostkaMala", "JednostkaMikro")
# A parser that never resolves entities nor reaches the network.
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _find(root: Any, *path: str) -> Any:
    node = root
    for name in path:
        if node is None:
            return None
        node = next((c for c in node.iterchildren() if _local(c.tag) == name), None)
    return node


def _first(root: Any, name: str) -> Any:
    return next((e for e in root.iter() if _local(e.tag) == name), None)


def _amount(line: Any, what: str, scale: Decimal) -> Decimal | None:
    if line is None:
        return None
    kwota = _find(line, "KwotaA")
    if kwota is None or not (kwota.text or "").strip():
        return None
    try:
        return (Decimal(kwota.text.strip()) * scale).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise RecordError(f"{what}/KwotaA is not a number: {kwota.text!r}") from None


def _day(root: Any, name: str) -> str:
    node = _first(root, name)
    try:
        return date.fromisoformat((node.text or "").strip()).isoformat()
    except (AttributeError, ValueError):
        raise RecordError(f"no valid {name} in the header") from None


def statement(root: Any) -> StatementRecord:
    kind = _local(root.tag)
    scale = Decimal(1000) if (etree.QName(root).namespace or "").endswith("WTysiacach") else Decimal(1)
    header = _find(root, "Naglowek")
    if header is None:
        raise RecordError(f"{kind} without a Naglowek")
    period_from, period_to = _day(header, "OkresOd"), _day(header, "OkresDo")
    krs = _find(root, "WprowadzenieDoSprawozdaniaFinansowego", "P_1", "P_1E")
    if krs is None or not (krs.text or "").strip():
        raise RecordError("no KRS number (P_1E): the entity is not in the Krajowy Rejestr Sądowy")
    try:
        national_id = parse_national_id("PL", krs.text.strip())
    except InvalidIdentifier as exc:
        raise RecordError(f"invalid KRS number {krs.text!r}: {exc.message}") from None
    bilans = _find(root, "Bilans")
    if bilans is None:
        raise RecordError(f"{kind} of {national_id} without a Bilans")

    def line(name: str) -> Decimal | None:
        return _amount(_first(bilans, name), name, scale)

    previous, net = line("Pasywa_A_V"), line("Pasywa_A_VI")
    retained = None if previous is None and net is None else (previous or Decimal(0)) + (net or Decimal(0))
    rzis = _find(root, "RZiS")
    comparative = _find(rzis, "RZiSPor") if rzis is not None else None
    by_function = _find(rzis, "RZiSKalk") if rzis is not None else None
    variant = comparative if comparative is not None else by_function
    fin = FinancialRecord(
        year=int(period_to[:4]),
        currency="PLN",
        period_from=period_from,
        period_to=period_to,
        revenue=_amount(_find(variant, "A"), "RZiS/A", scale) if variant is not None else None,
        profit=net,
        total_assets=_amount(_find(bilans, "Aktywa"), "Aktywa", scale),
        equity=line("Pasywa_A"),
        liabilities=line("Pasywa_B"),
        current_assets=line("Aktywa_B"),
        current_liabilities=line("Pasywa_B_III"),
        retained_earnings=retained,
        ebit=_amount(_find(comparative, "F"), "RZiSPor/F", scale) if comparative is not None else None,
        statement_type="annual",
        source_record_id=f"{national_id}:{period_to}",
    )
    if fin.total_assets is None and fin.equity is None:
        raise RecordError(f"the Bilans of {national_id} has neither Aktywa nor Pasywa_A")
    return StatementRecord(country="PL", financials=[fin], national_id=national_id)


class StatementSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        try:
            root = etree.parse(stream, _PARSER).getroot()
        except etree.XMLSyntaxError as exc:
            raise SourceAbort(f"{name} is not well-formed XML: {exc}") from None
        if _local(root.tag) not in ROOTS:
            raise SourceAbort(f"{name}: root {_local(root.tag)!r} is none of {', '.join(ROOTS)}")
        try:
            yield statement(root)
        except RecordError as exc:
            exc.raw = name
            yield exc


SOURCE = register(StatementSource())
