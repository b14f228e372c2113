"""Romanian trade register (ONRC, Oficiul Național al Registrului Comerțului) open data on
data.gov.ro, "firme înregistrate": `od_firme.csv` (one row per registered trader, `^`-separated,
UTF-8), read alone or as the published set in one zip with `od_stare_firma.csv` (COD_INMATRICULARE^COD,
the states of each trader) and `n_stare_firma.csv` (COD^DENUMIRE, the state names).

Identifiers: the national one is the CUI (cod unic de înregistrare, the fiscal code ANAF and ONRC
share), 2 to 10 digits with a weighted check digit, validated with python-stdnum `ro.cui`. The
registration number COD_INMATRICULARE ("J40/12345/1998", since 2024-07-26 also "J2024000123456")
is the trade-register order number; it is validated with `ro.onrc` and kept as identifier `onrc`
(an invalid one is dropped and reported, the company kept), and the EUID ("ROONRC.J40/…") as `euid`.
A trader without a CUI in the file cannot be keyed and is rejected.

States (from the state file, several per trader are possible): "funcțiune" is a trader operating
(active); "radiată" is struck off the register (dissolved); "dizolvare" and "lichidare" (voluntary
or judicial) are a winding-up under way (in_liquidation); "insolvență" is the opening of an
insolvency procedure (Law 85/2014, in_bankruptcy) and "faliment" the bankruptcy stage of it
(in_bankruptcy), "reorganizare judiciară" the judicial reorganisation plan (in_restructuring);
"suspendare temporară" is a trader that declared its activity suspended (inactive). A state name that
none of these words matches rejects nothing: the trader is kept without a status and the reason is
reported. `od_firme.csv` alone states no status.

VAT: a Romanian VAT id is "RO" + CUI, but only for traders ANAF registered for VAT (art. 316 Cod
fiscal), which ONRC does not publish, so none is derived. Activities: the authorised CAEN classes of
`od_caen_autorizat.csv` in the set (COD_INMATRICULARE^COD_CAEN_AUTORIZAT^VER_CAEN_AUTORIZAT), held in
memory like the states. A CAEN Rev. 2 class is the NACE Rev. 2 class of the same four digits, a CAEN
Rev. 3 class (from 2025) the NACE Rev. 2.1 class; they become `nace_codes` in NACE notation ("6201" ->
"62.01"), the Rev. 2 codes when a trader has both. A code that is not a class of its revision is
dropped with a reject line (the company kept).

Main activity: a trader declares its principal activity when it registers, but none of the published
files carries it (the documented od_firme.csv columns have no CAEN code, and the authorised list
flags no code as the main one; an activity authorised at the seat is not necessarily the principal
one), so `nace_primary` is left unstated rather than guessed, even for a trader with a single
authorised class. A user filtering by NACE expects a trader
authorised for the activity to be found: the authorised classes are its `nace_codes`, served with the
company and in exports, and the `nace` filter matches a company with no primary activity by any of them
(the loader writes them to `company_activities`; see docs/sources/ro_onrc.md).

NUTS 3, first found of: the județ (ADR_JUDET), which for Romania is the NUTS 3 region itself; the
postcode (ADR_COD_POSTAL) in Eurostat's TERCET postcode table (`data/codelists/postcode_nuts3_ee_ro.csv`);
ONRC's county number out of the registration number (40 Bucharest, 12 Cluj, …;
`data/codelists/ro_judete_nuts3.csv`), which is also the region code. When the județ and the postcode
disagree the județ wins: it names the region itself, the postcode only through a table (TERCET gives
each postcode one region, even one whose area crosses a county line), and one wrong digit of a postcode
names another county. The county number comes last: it names the trade-register office that registered
the trader, not the address, and new-format numbers carry none.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from typing import IO

from stdnum.exceptions import ValidationError
from stdnum.ro import onrc

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.code_lists.postcodes import postcode_nuts3
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import date_in_name, dmy_date, iso_date, join
from regintel.ingest.sources import register
from regintel.ingest.sources.ro_onrc_codes import (
    KNOWN_CODES,
    caen_class,
    caen_revision,
    combined,
    county_nuts3,
    legal_form,
    nuts3,
    state_of,
)

INFO = SourceInfo(
    id="ro_onrc",
    name="ONRC – firme înregistrate (open data)",
    publisher="Oficiul Național al Registrului Comerțului",
    country="RO",
    category="register",
    formats="od_firme.csv (`^`-separated), or a zip with od_firme.csv, od_stare_firma.csv, "
    "n_stare_firma.csv and od_caen_autorizat.csv",
    licence="OGL-ROU 1.0",
    licence_url="https://data.gov.ro/base/images/logoinst/OGL-ROU-1.0.pdf",
    attribution="Sursa: Oficiul Național al Registrului Comerțului (ONRC), data.gov.ro; "
    "NUTS 3 of postcodes: Eurostat (GISCO TERCET), © European Union",
    url="https://data.gov.ro/dataset/firme-inregistrate-la-registrul-comertului",
    cadence="monthly",
)
REQUIRED = (
    "DENUMIRE",
    "CUI",
    "COD_INMATRICULARE",
    "DATA_INMATRICULARE",
    "FORMA_JURIDICA",
    "ADR_JUDET",
    "ADR_LOCALITATE",
)
STREET = ("ADR_DEN_STRADA", "ADR_NR_STRADA", "ADR_BLOC", "ADR_SCARA", "ADR_ETAJ", "ADR_APARTAMENT")
STREET_LABELS = ("", "nr. ", "bl. ", "sc. ", "et. ", "ap. ")


class OnrcSource:
    info = INFO
    reads_archive = True  # the set's files are joined by COD_INMATRICULARE

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        published = date_in_name(name)
        if not _is_zip(stream):
            yield from _firms(stream, {}, published)
            return
        try:
            archive = zipfile.ZipFile(stream)
        except zipfile.BadZipFile:
            raise SourceAbort("not an ONRC zip") from None
        members = {m.filename.rsplit("/", 1)[-1].lower(): m for m in archive.infolist()}
        firms = next((m for n, m in members.items() if n.startswith("od_firme")), None)
        if firms is None:
            raise SourceAbort("not an ONRC file set: the zip has no od_firme.csv")
        names = _state_names(archive, members)
        states = _states(archive, members, names)
        activities = _activities(archive, members)
        with archive.open(firms) as fh:
            yield from _firms(fh, states, published, activities)


def _is_zip(stream: IO[bytes]) -> bool:
    """Only the runner's archive file is seekable; a plain or gzipped CSV is read as a stream."""
    if not getattr(stream, "seekable", lambda: False)():
        return False
    head = stream.read(4)
    stream.seek(0)
    return head.startswith(b"PK")


def _state_names(archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]) -> dict[str, str]:
    member = members.get("n_stare_firma.csv")
    if member is None:
        return dict(KNOWN_CODES)
    with archive.open(member) as fh:
        csv_file = open_csv(fh, delimiter="^")
        columns = csv_file.index(("COD", "DENUMIRE"), "ONRC n_stare_firma.csv")
        return {
            row[columns["COD"]].strip(): row[columns["DENUMIRE"]].strip()
            for item in csv_file.rows
            if not isinstance(item, RecordError)
            for row in (item[1],)
        }


def _states(
    archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], names: dict[str, str]
) -> dict[str, list[str]]:
    """COD_INMATRICULARE -> the state names of the trader (held in memory: one short list a trader)."""
    member = members.get("od_stare_firma.csv")
    if member is None:
        return {}
    out: dict[str, list[str]] = {}
    with archive.open(member) as fh:
        csv_file = open_csv(fh, delimiter="^")
        columns = csv_file.index(("COD_INMATRICULARE", "COD"), "ONRC od_stare_firma.csv")
        for item in csv_file.rows:
            if isinstance(item, RecordError):
                continue
            row = item[1]
            code = row[columns["COD"]].strip()
            out.setdefault(row[columns["COD_INMATRICULARE"]].strip(), []).append(names.get(code, code))
    return out


def _activities(
    archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]
) -> dict[str, list[tuple[str, str]]]:
    """COD_INMATRICULARE -> its (CAEN code, version) pairs as published, checked when the trader is read."""
    member = members.get("od_caen_autorizat.csv")
    if member is None:
        return {}
    out: dict[str, list[tuple[str, str]]] = {}
    with archive.open(member) as fh:
        csv_file = open_csv(fh, delimiter="^")
        columns = csv_file.index(("COD_INMATRICULARE", "COD_CAEN_AUTORIZAT"), "ONRC od_caen_autorizat.csv")
        version = columns.get("VER_CAEN_AUTORIZAT")
        for item in csv_file.rows:
            if isinstance(item, RecordError):
                continue
            row = item[1]
            pair = (
                row[columns["COD_CAEN_AUTORIZAT"]].strip(),
                row[version].strip() if version is not None else "",
            )
            out.setdefault(row[columns["COD_INMATRICULARE"]].strip(), []).append(pair)
    return out


def _firms(
    stream: IO[bytes],
    states: dict[str, list[str]],
    published: date | None,
    activities: dict[str, list[tuple[str, str]]] | None = None,
) -> Iterator[CompanyRecord | RecordError | Skipped]:
    csv_file = open_csv(stream, delimiter="^")
    columns = csv_file.index(REQUIRED, "ONRC od_firme.csv")  # every column's position, not only these
    for item in csv_file.records(columns, lambda row: (row, to_record(row, published))):
        if isinstance(item, RecordError):
            yield item
            continue
        row, record = item
        number = row["COD_INMATRICULARE"].strip()
        identifiers, dropped = _registration_ids(record, row)
        codes = None
        if activities:
            codes, unmapped = _caen_activities(record, activities.get(number))
            dropped += unmapped
        names = states.get(number) or []
        known = [s for s in (state_of(n) for n in names) if s is not None]
        state = combined(known) if known else None
        gone = state is not None and state.status == "dissolved"
        # The firm's registration numbers, activities and states come from its row's other columns and
        # from other files of the extract: they complete the row's record.
        yield replace(
            record,
            identifiers=record.identifiers + identifiers,
            nace_codes=codes or record.nace_codes,
            status=state.status if state else record.status,
            in_liquidation=state.in_liquidation and not gone if state else record.in_liquidation,
            in_restructuring=state.in_restructuring and not gone if state else record.in_restructuring,
            in_bankruptcy=state.in_bankruptcy and not gone if state else record.in_bankruptcy,
        )
        unknown = [n for n in names if state_of(n) is None]
        if unknown:
            yield RecordError(
                f"unknown ONRC state kept out (company kept): {', '.join(unknown)}",
                {"CUI": record.national_id},
            )
        yield from dropped


def to_record(row: dict[str, str], published: date | None = None) -> CompanyRecord:
    cui = row["CUI"].strip().upper().removeprefix("RO").strip()
    if not cui or cui.strip("0") == "":
        raise RecordError(f"trader without a CUI (COD_INMATRICULARE {row['COD_INMATRICULARE'].strip()!r})")
    code, form_name, elf = legal_form(row["FORMA_JURIDICA"])
    judet = row["ADR_JUDET"].strip()
    city = row["ADR_LOCALITATE"].strip() or None
    postal = row.get("ADR_COD_POSTAL", "").strip() or None
    if postal and not (postal.isdigit() and len(postal) == 6):
        raise RecordError(f"ADR_COD_POSTAL is not a 6-digit postcode: {postal!r}")
    street = join(
        [
            f"{label}{row.get(c, '').strip()}" if row.get(c, "").strip() else None
            for c, label in zip(STREET, STREET_LABELS, strict=True)
        ],
        " ",
    )
    sector = row.get("ADR_SECTOR", "").strip()
    county = _county(row["COD_INMATRICULARE"])
    return CompanyRecord(
        country="RO",
        national_id=cui,
        name=row["DENUMIRE"].strip() or None,
        source_record_id=cui,
        published_on=published,
        legal_form=code,
        legal_form_name=form_name,
        founded_on=_date(row["DATA_INMATRICULARE"], "DATA_INMATRICULARE"),
        street=street,
        city=city,
        postal_code=postal,
        address_text=join(
            [
                street,
                row.get("ADR_COMPLETARE", "").strip(),
                f"Sector {sector}" if sector else None,
                join([postal, city], " "),
                judet,
                row.get("ADR_TARA", "").strip(),
            ]
        ),
        region_code=county,
        nuts3=(nuts3(judet) if judet else None) or postcode_nuts3("RO", postal) or county_nuts3(county),
        identifiers=(("elf", elf),) if elf else (),
    )


def _county(number: str) -> str | None:
    """ONRC's county code, part of the registration number: "J40/…" (old) or digits 12–13 of the new
    "J2025000123009" (00 for numbers issued since 2024-07-26, which name no county)."""
    number = number.strip()
    if "/" in number:
        county = number[1:].split("/")[0]
    else:
        county = number[11:13] if len(number) == 14 else ""
    return county if county.isdigit() and county != "00" else None


def _date(value: str, name: str) -> date | None:
    value = value.strip()
    if "/" in value:
        return dmy_date(value, name)
    if "." in value:
        return dmy_date(value.replace(".", "/"), name)
    return iso_date(value, name)


def _caen_activities(
    record: CompanyRecord, pairs: list[tuple[str, str]] | None
) -> tuple[tuple[str, ...] | None, list[RecordError]]:
    """The trader's authorised CAEN classes as NACE classes (Rev. 2 ones when it has both revisions),
    and the codes dropped."""
    if not pairs:
        return None, []
    found: dict[bool, list[str]] = {True: [], False: []}
    dropped = []
    for code, version in pairs:
        nace = caen_class(code, version)
        if nace is None:
            dropped.append(
                RecordError(
                    f"COD_CAEN_AUTORIZAT is not a CAEN class of its revision, dropped (company kept): "
                    f"{code!r} (VER_CAEN_AUTORIZAT {version!r})",
                    {"CUI": record.national_id},
                )
            )
        else:
            found[caen_revision(version) == "2"].append(nace)
    codes = found[True] or found[False]
    return (tuple(dict.fromkeys(codes)) if codes else None), dropped


def _registration_ids(
    record: CompanyRecord, row: dict[str, str]
) -> tuple[tuple[tuple[str, str], ...], list[RecordError]]:
    """The ONRC number and the EUID, and the error of a number dropped."""
    ids: list[tuple[str, str]] = []
    dropped = []
    number = row["COD_INMATRICULARE"].strip()
    if number:
        try:
            # validate() answers the compact form: one clean-up pass, not is_valid's and compact's two
            # (a tenth of the parse profile).
            ids.append(("onrc", onrc.validate(number)))
        except ValidationError:
            dropped.append(
                RecordError(
                    f"invalid COD_INMATRICULARE dropped (company kept): {number!r}",
                    {"CUI": record.national_id},
                )
            )
    euid = row.get("EUID", "").strip()
    if euid:
        ids.append(("euid", euid))
    return tuple(ids), dropped


SOURCE = register(OnrcSource())
