"""Norwegian Enhetsregisteret (Brønnøysundregistrene) `enheter`: one enhet as the API answers it, a
search page (`_embedded.enheter[]`), or the bulk download (`enheter_alle.json.gz`, one JSON array of
every enhet, streamed with ijson). Sub-units (`underenheter`) are not legal entities and are skipped.

`no_brreg_domains` reads the same files for the enheter's websites (`hjemmeside`) into the security
area's `company_domains` (`regintel import no_brreg_domains FILE`, after or beside `no_brreg`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import IO, Any, cast

from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, flag, integer, iso_date, join, text, vat
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="no_brreg",
    name="Enhetsregisteret (Brønnøysundregistrene)",
    publisher="Brønnøysundregistrene",
    country="NO",
    category="register",
    formats="Enhetsregisteret API JSON: enhet, search page, bulk enheter_alle.json(.gz) array",
    licence="Norsk lisens for offentlige data (NLOD) 2.0",
    licence_url="https://data.norge.no/nlod/no/2.0",
    attribution=(
        "Inneholder data under Norsk lisens for offentlige data (NLOD) gjort tilgjengelig av "
        "Brønnøysundregistrene"
    ),
    url="https://data.brreg.no/enhetsregisteret/api/enheter/lastned",
    cadence="daily",
)
LIST_PATHS = ("_embedded.enheter.item", "_embedded.underenheter.item")
NACE_FIELDS = ("naeringskode1", "naeringskode2", "naeringskode3")


class BrregSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        first = True
        for obj in json_objects(stream, LIST_PATHS):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if isinstance(obj, dict) and "page" in obj and "organisasjonsnummer" not in obj:
                continue  # a search page without hits
            if first:
                if not isinstance(obj, dict) or "organisasjonsnummer" not in obj:
                    raise SourceAbort("not an Enhetsregisteret enheter file (no organisasjonsnummer)")
                first = False
            yield from _items(obj)


def _items(obj: Any) -> Iterator[CompanyRecord | RecordError | Skipped]:
    if not isinstance(obj, dict):
        yield RecordError("an enheter item is not an object", obj)
        return
    if _is_sub_unit(obj):
        yield Skipped("underenhet (a sub-unit, not a legal entity)")
        return
    try:
        record = to_record(obj)
    except RecordError as exc:
        exc.raw = obj
        yield exc
        return
    why = None
    if obj.get("registrertIMvaregisteret") is True and is_valid_national_id("NO", record.national_id):
        # The Norwegian VAT number is the organisasjonsnummer with "MVA" (NO 923609016 MVA).
        vat_id, why = vat(f"NO{record.national_id}MVA")
        record = replace(record, vat_id=vat_id)
    yield record
    if why:
        yield RecordError(f"invalid VAT id dropped (company kept): {why}", record.national_id)


def _is_sub_unit(obj: dict[str, Any]) -> bool:
    """Underenheter carry their parent, a location address or a closing date (nedleggelsesdato)."""
    if {"overordnetEnhet", "beliggenhetsadresse", "nedleggelsesdato"} & obj.keys():
        return True
    link = (
        ((obj.get("_links") or {}).get("self") or {}).get("href")
        if isinstance(obj.get("_links"), dict)
        else None
    )
    return isinstance(link, str) and "/underenheter/" in link


def to_record(obj: dict[str, Any]) -> CompanyRecord:
    orgnr = text(obj.get("organisasjonsnummer"), "organisasjonsnummer")
    if orgnr is None:
        raise RecordError("enhet without an organisasjonsnummer")
    form = _code(obj.get("organisasjonsform"), "organisasjonsform")
    nace = [c for c in (_code(obj.get(f), f)[0] for f in NACE_FIELDS) if c]
    deleted = iso_date(obj.get("slettedato"), "slettedato")
    bankrupt = flag(obj.get("konkurs"), "konkurs")
    restructuring = iso_date(
        obj.get("underRekonstruksjonsforhandlingDato"), "underRekonstruksjonsforhandlingDato"
    )
    record = CompanyRecord(
        country="NO",
        national_id=orgnr,
        name=text(obj.get("navn"), "navn"),
        source_record_id=orgnr,
        legal_form=form[0],
        legal_form_name=form[1],
        status="dissolved" if deleted else "active",
        founded_on=iso_date(obj.get("stiftelsesdato"), "stiftelsesdato"),
        dissolved_on=deleted,
        nace_primary=nace[0] if nace else None,
        nace_codes=tuple(nace) or None,
        employees=integer(obj.get("antallAnsatte"), "antallAnsatte"),
        in_bankruptcy=bankrupt,
        # A bankruptcy ends a reconstruction negotiation (spec 2.2: never both).
        in_restructuring=None
        if bankrupt is None and restructuring is None
        else bool(restructuring and not bankrupt),
        in_liquidation=_liquidation(obj),
        **_address(obj.get("forretningsadresse") or obj.get("postadresse")),
    )
    return record


def _code(node: Any, name: str) -> tuple[str | None, str | None]:
    """`{kode, beskrivelse}` of a code field (organisasjonsform, naeringskode1…)."""
    if node is None:
        return None, None
    if not isinstance(node, dict):
        raise RecordError(f"{name} is not an object: {node!r}")
    return text(node.get("kode"), f"{name}.kode"), text(node.get("beskrivelse"), f"{name}.beskrivelse")


def _liquidation(obj: dict[str, Any]) -> bool | None:
    """Voluntary winding-up (underAvvikling) or a forced one ordered by the court."""
    values = [flag(obj.get(k), k) for k in ("underAvvikling", "underTvangsavviklingEllerTvangsopplosning")]
    return None if values == [None, None] else any(values)


def _address(address: Any) -> Address:
    if not address:
        return {}
    if not isinstance(address, dict):
        raise RecordError(f"the address is not an object: {address!r}")
    lines = address.get("adresse") or []
    if not isinstance(lines, list):
        raise RecordError(f"adresse is not a list of lines: {lines!r}")
    street = join([text(line, "adresse") for line in lines])
    city = text(address.get("poststed"), "poststed")
    postal_code = text(address.get("postnummer"), "postnummer")
    municipality = text(address.get("kommunenummer"), "kommunenummer")
    country = text(address.get("landkode"), "landkode")
    address_text = join(
        [
            street,
            join([postal_code, city], " "),
            None if country in (None, "NO") else text(address.get("land"), "land"),
        ]
    )
    return {
        "street": street,
        "city": city,
        "postal_code": postal_code,
        "municipality_code": municipality,
        # The first two digits of a kommunenummer are its county (fylke).
        "region_code": municipality[:2] if municipality and len(municipality) == 4 else None,
        "address_text": address_text,
    }


SOURCE = register(BrregSource())

DOMAINS_INFO = SourceInfo(
    id="no_brreg_domains",
    name="Enhetsregisteret (Brønnøysundregistrene): websites (hjemmeside)",
    publisher=INFO.publisher,
    country="NO",
    category="register",
    formats=INFO.formats,
    licence=INFO.licence,
    licence_url=INFO.licence_url,
    attribution=INFO.attribution,
    url=INFO.url,
    cadence=INFO.cadence,
)


def websites(stream: IO[bytes]) -> Iterator[Any]:
    """Per enhet its `hjemmeside` (`PublishedWebsites`), a `Skipped` sub-unit, or a `RecordError`."""
    from regintel.areas.security.register_websites import PublishedWebsites

    first = True
    for obj in json_objects(stream, LIST_PATHS):
        if isinstance(obj, RecordError):
            yield obj
            continue
        if isinstance(obj, dict) and "page" in obj and "organisasjonsnummer" not in obj:
            continue
        if first:
            if not isinstance(obj, dict) or "organisasjonsnummer" not in obj:
                raise SourceAbort("not an Enhetsregisteret enheter file (no organisasjonsnummer)")
            first = False
        if not isinstance(obj, dict):
            yield RecordError("an enheter item is not an object", obj)
        elif _is_sub_unit(obj):
            yield Skipped("underenhet (a sub-unit, not a legal entity)")
        else:
            orgnr = obj.get("organisasjonsnummer")
            site = obj.get("hjemmeside")
            if not isinstance(orgnr, str) or not is_valid_national_id("NO", orgnr):
                yield RecordError(f"invalid organisasjonsnummer {orgnr!r}", {"organisasjonsnummer": orgnr})
            elif site is not None and not isinstance(site, str):
                yield RecordError(f"hjemmeside is not text: {site!r}", {"organisasjonsnummer": orgnr})
            else:
                yield PublishedWebsites(
                    orgnr, [site.strip()] if site and site.strip() else [], f"{orgnr} hjemmeside"
                )


class BrregDomainsSource:
    info = DOMAINS_INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[RecordError | Skipped]:
        raise SourceAbort("no_brreg_domains writes company domains; it is imported through import_into")

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.security.importing import run_register_domains
        from regintel.areas.security.register_websites import website_set

        return run_register_domains(
            engine, DOMAINS_INFO, "NO", location, data_dir, lambda stream: website_set(websites(stream))
        )


# A section source: the runner hands it to the security area (`import_into`), never to the company loader.
DOMAINS_SOURCE = register(cast(Source, BrregDomainsSource()))
