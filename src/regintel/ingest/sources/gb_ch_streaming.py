"""UK Companies House Streaming API: one JSON event a line, read from a saved file (`.jsonl`, `.gz`) or
followed live from `https://stream.companieshouse.gov.uk/<stream>` (see `gb_ch_streaming_follow`).

An event is {resource_kind, resource_uri, resource_id, data, event {type, timepoint, published_at,
fields_changed}}; `data` is the same JSON as the public REST resource. Timepoints count up within
one stream (companies, filings, officers...), so the last timepoint committed is where a run resumes.

- `company-profile` (changed): the company's current profile. It updates the company as a snapshot
  of `published_at` (an event older than what this source already gave is skipped by the loader),
  so the change log and the monitoring events follow from the usual field comparison. Status and
  insolvency flags use the same reading as the BasicCompanyData importer (`company_status` is the
  API's hyphenated form of the CSV's CompanyStatus: "liquidation" → in liquidation, "administration"
  and "voluntary-arrangement" → restructuring, "receivership" and "insolvency-proceedings" → the
  bankruptcy flag, "dissolved", "converted-closed", "removed", "closed" → dissolved). The legal form
  is the API's `type`, written as the BasicCompanyData importer's short code; `legal_form_name` is
  left unstated so that a CSV import and the stream do not rename it back and forth.
- `company-profile` (deleted): Companies House withdrew the resource (a company number issued in
  error); nothing is erased, the event is skipped with that reason.
- `filing-history`: a filing of a company; recorded as a `filing` row of the company's change log
  (monitoring follows) when the company is in the database, skipped otherwise. A replayed event does
  not record the filing twice.
- Other kinds (officers, PSC, charges, insolvency, exemptions...) are skipped with their kind as the
  reason: their resources need importers of their own.

The company number is the national identifier (8 characters: digits, or a 2-letter prefix such as
SC, NI, OC and 6 digits), validated as everywhere else. No VAT id is derived: Companies House does
not publish VAT registrations.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import IO, Any

import orjson

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, iso_date, join, text
from regintel.ingest.sources import register
from regintel.ingest.sources.gb_companies_house import ATTRIBUTION, LICENCE, LICENCE_URL, PUBLISHER
from regintel.ingest.sources.gb_companies_house_codes import state_of
from regintel.ingest.streams import buffered

INFO = SourceInfo(
    id="gb_ch_streaming",
    name="Companies House – Streaming API (company profiles and filing history)",
    publisher=PUBLISHER,
    country="GB",
    category="register",
    formats="Streaming API events, one JSON object a line: a saved .jsonl(.gz) or the live https stream",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url="https://developer-specs.company-information.service.gov.uk/streaming-api/reference",
    cadence="continuous",
)
# API `type` -> the short codes gb_companies_house gives the BasicCompanyData categories.
TYPES: dict[str, str] = {
    "ltd": "ltd",
    "plc": "plc",
    "llp": "llp",
    "old-public-company": "old-plc",
    "limited-partnership": "lp",
    "scottish-partnership": "scot-partnership",
    "private-unlimited": "unlimited",
    "private-unlimited-nsc": "unlimited",
    "private-limited-guarant-nsc": "ltd-guar-nsc",
    "private-limited-guarant-nsc-limited-exemption": "ltd-guar-nsc-ex",
    "private-limited-shares-section-30-exemption": "ltd-s30",
    "charitable-incorporated-organisation": "cio",
    "scottish-charitable-incorporated-organisation": "scio",
    "industrial-and-provident-society": "ips",
    "registered-society-non-jurisdictional": "reg-society",
    "royal-charter": "royal-charter",
    "investment-company-with-variable-capital": "icvc",
    "european-public-limited-liability-company-se": "se",
    "protected-cell-company": "pcc",
    "further-education-or-sixth-form-college-corporation": "fe-college",
    "overseas-entity": "overseas-entity",
    "other": "other",
}
# API company_status -> the CompanyStatus wording state_of reads.
STATUS_WORDS = {
    "converted-closed": "converted/closed",
    "voluntary-arrangement": "voluntary arrangement",
    "insolvency-proceedings": "insolvency proceedings",
}


@dataclass
class FilingEvent:
    """A filing-history event: recorded in the company's change log, not a company record."""

    company_number: str
    transaction_id: str
    summary: str
    published_at: datetime | None


@dataclass
class Event:
    timepoint: int | None
    item: CompanyRecord | FilingEvent | RecordError | Skipped


class StreamFileSource:
    """The parser (a saved stream file); the registered source adds filings and the live stream."""

    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        for event in events(buffered(stream)):
            if event is not None and not isinstance(event.item, FilingEvent):
                yield event.item


def events(lines: Any, *, heartbeats: bool = False, empty_ok: bool = False) -> Iterator[Event | None]:
    """The events of an iterable of byte lines. A blank line (the stream's keep-alive) gives None
    with `heartbeats`, nothing without. A first line that is not a stream event aborts: it is not a
    Streaming API file; so does a file without events unless `empty_ok` (a quiet live stream)."""
    first = True
    for line in lines:
        line = line.strip()
        if not line:
            if heartbeats:
                yield None
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            if first:
                raise SourceAbort(f"not a Companies House stream (first line is not JSON: {exc})") from None
            raw = line[:2000].decode("utf-8", "replace")
            yield Event(None, RecordError(f"a line is not JSON: {exc}", raw))
            continue
        if first and not (isinstance(obj, dict) and "resource_kind" in obj and "event" in obj):
            raise SourceAbort("not a Companies House stream (no resource_kind / event in the first line)")
        first = False
        yield to_event(obj)
    if first and not empty_ok:
        raise SourceAbort("the file holds no stream events")


class StreamSource(StreamFileSource):
    """The registered source: the runner hands the whole import to `import_into`, which records
    filings and follows a live stream as well as reading files."""

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.ingest.sources.gb_ch_streaming_follow import import_into

        return import_into(engine, location, data_dir)


def to_event(obj: Any) -> Event:
    if not isinstance(obj, dict) or not isinstance(obj.get("event"), dict):
        return Event(None, RecordError("an event without an event envelope", obj))
    envelope = obj["event"]
    timepoint = envelope.get("timepoint")
    timepoint = timepoint if isinstance(timepoint, int) and not isinstance(timepoint, bool) else None
    try:
        return Event(timepoint, _item(obj, envelope))
    except RecordError as exc:
        exc.raw = obj
        return Event(timepoint, exc)


def _item(obj: dict[str, Any], envelope: dict[str, Any]) -> CompanyRecord | FilingEvent | Skipped:
    kind = text(obj.get("resource_kind"), "resource_kind")
    published = _timestamp(envelope.get("published_at"))
    data = obj.get("data")
    if kind == "company-profile":
        if envelope.get("type") == "deleted":
            return Skipped("company-profile deleted event (nothing is erased)")
        if not isinstance(data, dict):
            raise RecordError("company-profile event without a data object")
        return to_record(data, published.date() if published else None)
    if kind == "filing-history":
        if not isinstance(data, dict):
            raise RecordError("filing-history event without a data object")
        return _filing(obj, data, published)
    return Skipped(f"{kind} events are not imported")


def to_record(data: dict[str, Any], published: date | None) -> CompanyRecord:
    number = text(data.get("company_number"), "company_number")
    if number is None:
        raise RecordError("company profile without a company_number")
    status = text(data.get("company_status"), "company_status")
    state = state_of(STATUS_WORDS.get(status or "", (status or "").replace("-", " ")))
    sic = data.get("sic_codes") or []
    if not isinstance(sic, list):
        raise RecordError(f"sic_codes is not a list: {sic!r}")
    codes = [c for c in (text(v, "sic_codes") for v in sic) if c]
    kind = text(data.get("type"), "type")
    record = CompanyRecord(
        country="GB",
        national_id=number,
        name=text(data.get("company_name"), "company_name"),
        source_record_id=number,
        published_on=published,
        legal_form=TYPES.get(kind or "", kind),
        status=state.status,
        founded_on=iso_date(data.get("date_of_creation"), "date_of_creation"),
        dissolved_on=iso_date(data.get("date_of_cessation"), "date_of_cessation"),
        nace_primary=codes[0] if codes else None,
        nace_codes=tuple(codes) or None,
        in_bankruptcy=state.in_bankruptcy,
        in_restructuring=state.in_restructuring,
        in_liquidation=state.in_liquidation,
        **_address(data.get("registered_office_address")),
    )
    return record


def _address(address: Any) -> Address:
    """The same fields the BasicCompanyData importer fills (premises goes before the first line)."""
    if not address:
        return {}
    if not isinstance(address, dict):
        raise RecordError(f"registered_office_address is not an object: {address!r}")

    def get(key: str) -> str | None:
        return text(address.get(key), key)

    po_box = get("po_box")
    street = join([join([get("premises"), get("address_line_1")], " "), get("address_line_2")])
    city = get("locality")
    postal_code = get("postal_code")
    address_text = join(
        [po_box and f"PO Box {po_box}", street, city, get("region"), postal_code, get("country")]
    )
    return {"street": street, "city": city, "postal_code": postal_code, "address_text": address_text}


def _filing(obj: dict[str, Any], data: dict[str, Any], published: datetime | None) -> FilingEvent:
    uri = text(obj.get("resource_uri"), "resource_uri") or ""
    parts = uri.strip("/").split("/")
    if len(parts) < 2 or parts[0] != "company":
        raise RecordError(f"filing-history resource_uri does not name a company: {uri!r}")
    transaction = text(data.get("transaction_id"), "transaction_id") or text(
        obj.get("resource_id"), "resource_id"
    )
    if transaction is None:
        raise RecordError("filing-history event without a transaction id")
    summary = join(
        [
            text(data.get("type"), "type"),
            text(data.get("date"), "date"),
            text(data.get("description"), "description"),
        ],
        " ",
    )
    return FilingEvent(parts[1].upper(), transaction, f"{summary or 'filing'} [{transaction}]", published)


def _timestamp(value: Any) -> datetime | None:
    raw = text(value, "published_at")
    if raw is None:
        return None
    try:
        return datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise RecordError(f"published_at is not a timestamp: {raw!r}") from None


SOURCE = register(StreamSource())
