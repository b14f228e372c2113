"""Norwegian annual accounts: Regnskapsregisteret (Brønnøysundregistrene), the open API
`https://data.brreg.no/regnskapsregisteret/regnskap/{organisasjonsnummer}`.

An answer is a JSON array of the company's latest accounts; a file may hold one answer, several answers'
objects in one array, or JSON lines. Each object: `regnskapstype` (`SELSKAP` = the company's own accounts,
`KONSERN` = group accounts), `virksomhet.organisasjonsnummer`, `regnskapsperiode.fraDato`/`tilDato`,
`valuta`, and the figures in major units of that currency:
`resultatregnskapResultat.driftsresultat.driftsinntekter.sumDriftsinntekter` (revenue),
`resultatregnskapResultat.aarsresultat` (profit after tax), `eiendeler.sumEiendeler` (total assets),
`egenkapitalGjeld.egenkapital.sumEgenkapital` (equity), `egenkapitalGjeld.gjeldOversikt.sumGjeld`
(liabilities), and for liquidity and the Altman Z''-score `eiendeler.omloepsmidler.sumOmloepsmidler`
(current assets), `egenkapitalGjeld.gjeldOversikt.kortsiktigGjeld.sumKortsiktigGjeld` (current
liabilities), `egenkapitalGjeld.egenkapital.opptjentEgenkapital.sumOpptjentEgenkapital` (retained
earnings) and `resultatregnskapResultat.driftsresultat.driftsresultat` (operating result, read as
EBIT). Group accounts are skipped (the scores read the company's own statement, as RÚZ's
consolidated statements are skipped). No real answer was available offline: the fixture in
tests/fixtures/no_brreg_regnskap/ follows the API's documented layout with invented figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import FinancialRecord, Record, StatementRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="no_brreg_regnskap",
    name="Regnskapsregisteret (annual accounts)",
    publisher="Brønnøysundregistrene",
    country="NO",
    category="financials",
    formats="Regnskapsregisteret API JSON (`/regnskap/{orgnr}` answers)",
    licence="Norwegian Licence for Open Government Data (NLOD) 2.0",
    licence_url="https://data.norge.no/nlod/en/2.0",
    attribution="Source: Regnskapsregisteret, Brønnøysundregistrene",
    url="https://data.brreg.no/regnskapsregisteret/regnskap",
    cadence="daily",
)


def _at(obj: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def _money(value: Any, what: str) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise RecordError(f"{what} is not a number: {value!r}")
    try:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise RecordError(f"{what} is not a number: {value!r}") from None


def _day(value: Any, what: str) -> str:
    try:
        return date.fromisoformat(str(value)[:10]).isoformat()
    except ValueError:
        raise RecordError(f"{what} is not a date: {value!r}") from None


class RegnskapSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        for item in json_objects(stream):
            if isinstance(item, RecordError):
                yield item
                continue
            try:
                yield self.record(item)
            except RecordError as exc:
                exc.raw = item
                yield exc

    def record(self, obj: Any) -> StatementRecord | Skipped:
        if not isinstance(obj, dict) or "regnskapsperiode" not in obj:
            raise RecordError("not a Regnskapsregisteret accounts object (no regnskapsperiode)")
        if obj.get("regnskapstype") == "KONSERN":
            return Skipped("group accounts (KONSERN)")
        orgnr = str(_at(obj, "virksomhet", "organisasjonsnummer") or "")
        try:
            national_id = parse_national_id("NO", orgnr)
        except InvalidIdentifier as exc:
            raise RecordError(f"invalid organisasjonsnummer {orgnr!r}: {exc.message}") from None
        period_from = _day(_at(obj, "regnskapsperiode", "fraDato"), "regnskapsperiode.fraDato")
        period_to = _day(_at(obj, "regnskapsperiode", "tilDato"), "regnskapsperiode.tilDato")
        currency = str(obj.get("valuta") or "").upper()
        if len(currency) != 3 or not currency.isalpha():
            raise RecordError(f"no ISO 4217 currency in valuta: {obj.get('valuta')!r}")
        result = obj.get("resultatregnskapResultat")
        fin = FinancialRecord(
            year=int(period_to[:4]),
            currency=currency,
            period_from=period_from,
            period_to=period_to,
            revenue=_money(
                _at(result, "driftsresultat", "driftsinntekter", "sumDriftsinntekter"), "sumDriftsinntekter"
            ),
            profit=_money(_at(result, "aarsresultat"), "aarsresultat"),
            total_assets=_money(_at(obj, "eiendeler", "sumEiendeler"), "sumEiendeler"),
            equity=_money(_at(obj, "egenkapitalGjeld", "egenkapital", "sumEgenkapital"), "sumEgenkapital"),
            liabilities=_money(_at(obj, "egenkapitalGjeld", "gjeldOversikt", "sumGjeld"), "sumGjeld"),
            current_assets=_money(
                _at(obj, "eiendeler", "omloepsmidler", "sumOmloepsmidler"), "sumOmloepsmidler"
            ),
            current_liabilities=_money(
                _at(obj, "egenkapitalGjeld", "gjeldOversikt", "kortsiktigGjeld", "sumKortsiktigGjeld"),
                "sumKortsiktigGjeld",
            ),
            retained_earnings=_money(
                _at(obj, "egenkapitalGjeld", "egenkapital", "opptjentEgenkapital", "sumOpptjentEgenkapital"),
                "sumOpptjentEgenkapital",
            ),
            ebit=_money(_at(result, "driftsresultat", "driftsresultat"), "driftsresultat"),
            statement_type="annual",
            source_record_id=str(obj.get("id") or obj.get("journalnr") or "") or None,
        )
        return StatementRecord(country="NO", financials=[fin], national_id=national_id)


SOURCE = register(RegnskapSource())
