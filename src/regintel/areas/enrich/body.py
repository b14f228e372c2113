"""The body of `POST /enrich/jobs`: a JSON list of identifiers or a CSV upload (`multipart/form-data`).

The body is read with a size cap (413 beyond `upload.MAX_BYTES`, before and while it arrives), so a huge
upload is refused without being stored; a multipart body is parsed by Starlette's parser (python-multipart)
from the capped bytes, with one file and few fields allowed; the CSV is parsed in a worker thread."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException, MultiPartParser

from regintel.areas.enrich import sections, upload
from regintel.areas.enrich.schemas import JobIn
from regintel.areas.enrich.service import MAX_IDENTIFIERS, Options
from regintel.areas.people import service as people
from regintel.errors import ValidationFailed

FORM_FIELDS = {"file", "country", "encoding", "sections", "purpose"}
JSON_TYPES = ("", "application/json")


async def _capped(request: Request) -> bytes:
    too_large = HTTPException(413, f"The body is larger than {upload.MAX_BYTES // 2**20} MiB: split the file")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > upload.MAX_BYTES:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > upload.MAX_BYTES:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def _field(message: str, field: str) -> ValidationFailed:
    return ValidationFailed(message, details=[{"field": field, "in": "body", "message": message}])


def options(given: list[str] | None, purpose: str | None, allowed: list[str]) -> Options:
    """The sections (422 naming an unknown one) and the purpose gate, as the REST routes apply it: a
    declared purpose of the configured list (422 for another), or the key's natural-persons addendum."""
    names = sections.parse(given)
    try:
        personal = people.check_purpose(purpose, allowed)
    except ValidationFailed as exc:
        raise ValidationFailed(
            exc.message,
            details=[
                {"field": "purpose", "in": "body", "message": "not a declared purpose", "allowed": allowed}
            ],
        ) from None
    return Options(names, purpose.strip().lower() if purpose else None, personal)


Read = tuple[list[Any], str | None, dict[str, Any], Options]


async def _form(request: Request, body: bytes, allowed: list[str]) -> Read:
    async def stream() -> AsyncGenerator[bytes, None]:
        yield body

    try:
        form = await MultiPartParser(
            request.headers, stream(), max_files=1, max_fields=len(FORM_FIELDS) + len(sections.NAMES)
        ).parse()
    except MultiPartException as exc:
        raise _field(f"Malformed multipart body: {exc.message}", "body") from None
    unknown = sorted(set(form.keys()) - FORM_FIELDS)
    if unknown:
        raise _field(
            f"Unknown form field(s): {', '.join(unknown)} (send `file`, `country`, `encoding`, "
            "`sections`, `purpose`)",
            unknown[0],
        )
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise _field("Send the CSV as the form field `file` (a file part)", "file")
    country, encoding = form.get("country") or None, form.get("encoding") or None
    if country is not None and (not isinstance(country, str) or len(country.strip()) != 2):
        raise _field("`country` is an ISO 3166-1 alpha-2 code", "country")
    if encoding is not None and (not isinstance(encoding, str) or len(encoding) > 40):
        raise _field("`encoding` is a character set name such as windows-1250", "encoding")
    given = [v for v in form.getlist("sections") if isinstance(v, str)]
    if len(given) != len(form.getlist("sections")) or sum(map(len, given)) > 200:
        raise _field("`sections` is text: section names separated by commas", "sections")
    purpose = form.get("purpose") or None
    if purpose is not None and (not isinstance(purpose, str) or len(purpose) > 64):
        raise _field("`purpose` is a declared purpose such as kyc", "purpose")
    opts = options([name for v in given for name in v.replace(",", " ").split()], purpose, allowed)
    data = await file.read()
    entries = await run_in_threadpool(upload.parse, data, encoding, MAX_IDENTIFIERS)
    source = {"kind": "csv", "filename": (file.filename or "")[:200] or None, "bytes": len(data)}
    return entries, country.strip() if country else None, source, opts


async def read_job(request: Request, allowed_purposes: list[str]) -> Read:
    """(entries, default country, what the input was, options) of the request, or the 4xx that says why
    not; `allowed_purposes` the configured declared purposes."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in JSON_TYPES and kind != "multipart/form-data":
        raise HTTPException(415, f"Send application/json or a multipart/form-data upload, not {kind[:60]!r}")
    body = await _capped(request)
    if kind == "multipart/form-data":
        return await _form(request, body, allowed_purposes)
    try:
        job = JobIn.model_validate_json(body)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]) from None
    opts = options(job.sections, job.purpose, allowed_purposes)
    return job.payload_items(), job.country, {"kind": "json"}, opts
