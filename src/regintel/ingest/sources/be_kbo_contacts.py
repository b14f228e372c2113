"""KBO/BCE Open Data contact details (websites, e-mail domains) for the security area: a section source
whose parser and loader live in `regintel.areas.security.contacts` / `.importing`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.areas.security.contacts import INFO
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort
from regintel.ingest.sources import register


class KboContactsSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[RecordError | Skipped]:
        raise SourceAbort(
            "be_kbo_contacts is imported as a set (folder, zip or contact CSV), not as a stream"
        )

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.security.importing import run_contacts_import

        return run_contacts_import(engine, location, data_dir)


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, KboContactsSource()))
