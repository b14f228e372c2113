"""The Member States' trusted lists of qualified and other trust service providers (Regulation (EU) No
910/2014 Art. 22, Implementing Decision (EU) 2015/1505), in the XML format of ETSI TS 119 612 v2.x; one
source per list (`sk_tsl`, `cz_tsl`), `regintel import sk_tsl FILE|URL`.

The parsing is the regulated area's (`areas/regulated/trusted_lists.py`); each service is one row of
`regulated_authorisations` (sector `trust`), and after the rows are written the providers' NIS2
designations (`qualified_trust_service_provider`, `trust_service_provider`) are derived from them and
written to `nis2_designations` with the list as their source (`areas/regulated/designating.py`).

A list of another territory than the source's is refused whole (it would delist every row of this one)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.areas.regulated import trust_rules, trusted_lists
from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

OPERATORS = {
    "SK": ("Národný bezpečnostný úrad", "Zdroj: Národný bezpečnostný úrad, dôveryhodný zoznam SR"),
    "CZ": ("Ministerstvo vnitra České republiky", "Zdroj: Ministerstvo vnitra ČR, důvěryhodný seznam"),
}


def _info(country: str) -> SourceInfo:
    publisher, attribution = OPERATORS[country]
    return SourceInfo(
        id=f"{country.lower()}_tsl",
        name=f"Trusted list of {country} (qualified and other trust service providers)",
        publisher=publisher,
        country=country,
        category="supervision",
        formats="XML (ETSI TS 119 612 v2.x trusted list)",
        licence="Public list (Regulation (EU) No 910/2014 Art. 22); no licence text for re-use found",
        licence_url="https://eidas.ec.europa.eu/efda/trust-services/browse/eidas/tls",
        attribution=attribution,
        url=f"https://eidas.ec.europa.eu/efda/trust-services/browse/eidas/tls/tl/{country}",
        cadence="monthly",
        snapshots=False,
    )


def national_id(trade_id: tuple[str, str, str] | None) -> str | None:
    """The register number the provider's identifier gives: an NTR is one, a VAT number is one only where
    the country's rule makes it so (trust_rules.vat_to_national_id); `RecordError` for a malformed NTR."""
    if trade_id is None:
        return None
    scheme, country, value = trade_id
    if scheme == "VAT":
        value = trust_rules.vat_to_national_id(country, value) or ""
        if not value:
            return None
    elif scheme != "NTR":
        return None
    try:
        return parse_national_id(country, value)
    except InvalidIdentifier as exc:
        raise RecordError(f"TSPTradeName {scheme}{country}-{value}: {exc}") from None


class TrustedListSource:
    """A section source like the CSV registers of the area (the runner hands it to `import_into`, never to
    the company loader); `designates` asks the importer to derive NIS2 designations from the rows."""

    suffixes = (".xml",)
    designates = True

    def __init__(self, country: str):
        self.country = country
        self.info = _info(country)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.regulated.importing import run_regulated_import

        return run_regulated_import(engine, self, location, data_dir)

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Any]:
        root = trusted_lists.read_list(stream, name)
        head = trusted_lists.header(root, name)
        if head.territory != self.country:
            raise SourceAbort(f"{name} is the trusted list of {head.territory}, not of {self.country}")
        for tsp in trusted_lists.providers(root):
            yield from self._provider(tsp, head)

    def _provider(self, tsp: Any, head: trusted_lists.ListHeader) -> Iterator[Any]:
        try:
            p = trusted_lists.provider(tsp, head.territory)
            ident = national_id(p.trade_id)
        except RecordError as exc:
            yield RecordError(exc.reason, {"provider": tsp.findtext(".//{*}TSPName/{*}Name")})
            return
        for svc in trusted_lists.services(tsp):
            try:
                item = trusted_lists.service(self.info.id, p, ident, svc, head)
            except RecordError as exc:
                yield RecordError(exc.reason, {"provider": p.name})
                continue
            yield item if item is not None else Skipped("a service whose status starts after the list")


SOURCES = [register(cast(Source, TrustedListSource(country))) for country in OPERATORS]
