"""Opening an import's input: a local file (optionally .gz or .zip) or an http(s) URL."""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

import httpx

from regintel.ingest.base import SourceAbort

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class Counted(io.RawIOBase):
    """A binary stream that counts the compressed bytes read, for the progress bar."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.read_bytes = 0

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = self.raw.read(len(view))
        view[: len(data)] = data
        self.read_bytes += len(data)
        return len(data)

    def readable(self) -> bool:
        return True


@dataclass
class Input:
    name: str
    stream: IO[bytes]
    size: int | None
    counter: Counted


def download(url: str, folder: Path) -> Path:
    """Stream a URL to a file (the registers publish multi-GB files; memory stays flat)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=folder, suffix="-" + Path(httpx.URL(url).path).name)
    try:
        with os.fdopen(fd, "wb") as out, httpx.stream("GET", url, timeout=60, follow_redirects=True) as r:
            if r.status_code != 200:
                raise SourceAbort(f"{url} answered HTTP {r.status_code}")
            for chunk in r.iter_bytes(1 << 20):
                out.write(chunk)
    except httpx.HTTPError as exc:
        Path(name).unlink(missing_ok=True)
        raise SourceAbort(f"cannot download {url}: {exc}") from None
    return Path(name)


@contextmanager
def open_input(location: str, download_dir: Path, *, whole_archive: bool = False) -> Iterator[Input]:
    """Yield the input stream; `.gz` is decompressed on the fly, a `.zip` gives its largest member
    (or, with `whole_archive`, the seekable archive file itself, for a source that reads a set of
    files, such as the KBO Open Data zip)."""
    downloaded: Path | None = None
    if location.startswith(("http://", "https://")):
        downloaded = download(location, download_dir)
        path = downloaded
    else:
        path = Path(location)
        if not path.is_file():
            raise SourceAbort(f"no such file: {location}")
    try:
        size = path.stat().st_size
        with open(path, "rb") as raw:
            counter = Counted(raw)
            name = path.name
            if name.endswith(".zip") or zipfile.is_zipfile(path):
                if whole_archive:
                    yield Input(name, raw, size, counter)
                    return
                with zipfile.ZipFile(raw) as archive:
                    member = max(archive.infolist(), key=lambda i: i.file_size)
                    with archive.open(member) as stream:
                        yield Input(member.filename, stream, size, counter)
                return
            if name.endswith(".gz"):
                with cast(IO[bytes], gzip.GzipFile(fileobj=io.BufferedReader(counter))) as stream:
                    yield Input(name.removesuffix(".gz"), stream, size, counter)
                return
            yield Input(name, io.BufferedReader(counter), size, counter)
    finally:
        if downloaded is not None:
            shutil.rmtree(downloaded, ignore_errors=True) if downloaded.is_dir() else downloaded.unlink(
                missing_ok=True
            )
