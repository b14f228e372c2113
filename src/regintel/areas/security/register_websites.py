"""Websites published in a register's company records (Brønnøysund `hjemmeside`, PRH `website`) → the
domain rows of `company_domains`. The register modules parse their files and hand over, per company,
the website values it publishes; each company named has exactly those websites afterwards (a website
the register no longer lists is removed), companies the file does not name are left alone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from regintel.areas.security.contacts import ContactSet, DomainRow
from regintel.areas.security.names import NotAHost, website_host
from regintel.ingest.base import RecordError, Skipped


@dataclass(frozen=True)
class PublishedWebsites:
    national_id: str
    values: list[str]  # as published (empty: the record lists no website)
    record: str  # where in the source (the record's id and field)


def website_set(entries: Iterable[PublishedWebsites | RecordError | Skipped]) -> ContactSet:
    out = ContactSet()
    for item in entries:
        out.read += 1
        if isinstance(item, RecordError):
            out.rejects.append(item)
            continue
        if isinstance(item, Skipped):
            out.skip(item.reason)
            continue
        out.touched.add(item.national_id)
        if not item.values:
            out.skip("no website published")
        for value in item.values:
            try:
                host = website_host(value)
            except NotAHost as exc:
                out.rejects.append(
                    RecordError(
                        f"website {value!r}: {exc}", {"national_id": item.national_id, "value": value}
                    )
                )
                continue
            out.rows.append(
                DomainRow(item.national_id, host.host, host.registered_domain, "website", value, item.record)
            )
    return out
