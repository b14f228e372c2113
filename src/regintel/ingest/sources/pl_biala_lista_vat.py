"""Polish VAT white list (Wykaz podatników VAT, `wl-api.mf.gov.pl`): answers of `/api/search/nip/{nip}`
(`result.subject`) and `/api/search/nips/{nips}` (`result.subjects`), one JSON document per file.

Each subject gives its VAT status (`statusVat`: Czynny = active, Zwolniony = exempt, Niezarejestrowany =
not registered), its KRS number (the national register id companies are keyed by) and the settlement
accounts it reported (art. 96b of the VAT Act), as 26-digit NRB numbers: with the PL prefix they are IBANs,
checked with schwifty. Stored beside the Czech register's accounts (docs/public-money.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime
from typing import IO, Any, cast

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from regintel.domain.identifiers import parse_national_id
from regintel.domain.public_money import BankAccountRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="pl_biala_lista_vat",
    name="Wykaz podatników VAT (biała lista)",
    publisher="Ministerstwo Finansów / Krajowa Administracja Skarbowa",
    country="PL",
    category="public_money",
    formats="wl-api.mf.gov.pl search answers (JSON)",
    licence="Public data under art. 96b of the VAT Act; no licence text is stated in the answers",
    attribution="Źródło: Wykaz podatników VAT, Ministerstwo Finansów",
    url="https://wl-api.mf.gov.pl",
    cadence="daily",
)
STATUS = {"Czynny": "active", "Zwolniony": "exempt", "Niezarejestrowany": "not_registered"}


class WhiteListSource:
    info = INFO
    suffixes: tuple[str, ...] = (".json",)  # the files of a folder import that are inputs

    def parse(self, stream: IO[bytes], name: str) -> Iterator[BankAccountRecord | RecordError | Skipped]:
        try:
            doc = json.load(stream)
        except (ValueError, UnicodeDecodeError) as exc:
            raise SourceAbort(f"{name}: not JSON: {exc}") from None
        result = doc.get("result") if isinstance(doc, dict) else None
        if not isinstance(result, dict) or not {"subject", "subjects"} & result.keys():
            code = doc.get("code") if isinstance(doc, dict) else None
            raise SourceAbort(
                f"{name}: not a white-list search answer" + (f" (error {code})" if code else "")
            )
        answered = _answered(result.get("requestDateTime"))
        subjects = result.get("subjects") if "subjects" in result else [result.get("subject")]
        for subject in subjects or []:
            if subject is None:
                yield Skipped("no subject for the number asked")
                continue
            yield _subject(subject, answered)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


def _answered(value: Any) -> date | None:
    try:
        return datetime.strptime(str(value), "%d-%m-%Y %H:%M:%S").date() if value else None
    except ValueError:
        return None


def _subject(subject: dict[str, Any], answered: date | None) -> BankAccountRecord | RecordError:
    nip, status = subject.get("nip"), STATUS.get(subject.get("statusVat") or "")
    if not nip or status is None:
        return RecordError(
            f"subject without nip or with unknown statusVat {subject.get('statusVat')!r}", subject
        )
    try:
        krs: str | None = parse_national_id("PL", subject["krs"]) if subject.get("krs") else None
    except InvalidIdentifier:
        krs = None
    accounts: list[tuple[str | None, str, date | None, date | None]] = []
    for nrb in subject.get("accountNumbers") or []:
        try:
            accounts.append((IBAN("PL" + str(nrb)).compact, str(nrb), None, None))
        except SchwiftyException:
            accounts.append((None, str(nrb), None, None))  # kept as published, marked as not an IBAN
    return BankAccountRecord(
        country="PL",
        vat_id="PL" + str(nip),
        national_id=krs,
        status=status,
        status_since=None,
        tax_office=None,
        name=subject.get("name"),
        answered_on=answered,
        accounts=tuple(accounts),
    )


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, WhiteListSource()))
