"""Bodies and read models of the enrichment jobs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from regintel.areas.enrich.sections import DESCRIPTIONS
from regintel.areas.enrich.service import MAX_IDENTIFIERS

SECTIONS_TEXT = (
    "Sections to add to each company found, from: "
    + "; ".join(f"`{k}` ({v})" for k, v in DESCRIPTIONS.items())
    + ". Each answer line then has `sections`: name -> `{present, reason, "
    "data}`; an unknown name is refused (422)."
)
PURPOSE_TEXT = (
    "Declared processing purpose (one of the configured list, e.g. `kyc`): lets natural persons' "
    "birth date, nationality and residence into the `ownership` section, as `purpose` does on "
    "`/ultimate-owner`"
)


# The documented names; the body is checked by `sections.parse` (422 naming an unknown one), not by the enum.
Section = Annotated[StrictStr, Field(max_length=32, json_schema_extra={"enum": list(DESCRIPTIONS)})]


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    country: Annotated[StrictStr, Field(min_length=2, max_length=2)] | None = None
    id: Annotated[StrictStr, Field(min_length=1, max_length=64)]


class JobIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    identifiers: list[Annotated[StrictStr, Field(min_length=1, max_length=64)] | Entry] = Field(
        min_length=1,
        max_length=MAX_IDENTIFIERS,
        description=f'Up to {MAX_IDENTIFIERS:,} national identifiers, each a string or `{{"country": "cz", '
        '"id": "…"}`. A malformed or unknown identifier is answered on its own line of the result.',
    )
    country: Annotated[StrictStr, Field(min_length=2, max_length=2)] | None = Field(
        default=None,
        description="Country of the identifiers given as bare strings; without it each is looked "
        "up in every market where it is well-formed",
    )
    sections: list[Section] | None = Field(
        default=None, max_length=len(DESCRIPTIONS) * 2, description=SECTIONS_TEXT
    )
    purpose: Annotated[StrictStr, Field(min_length=1, max_length=64)] | None = Field(
        default=None, description=PURPOSE_TEXT
    )

    def payload_items(self) -> list[Any]:
        return [i if isinstance(i, str) else i.model_dump(exclude_none=True) for i in self.identifiers]


class JobOut(BaseModel):
    id: int
    status: Literal["queued", "running", "done", "failed"]
    total: int = Field(description="Identifiers in the job")
    processed: int = Field(description="Identifiers answered so far")
    progress: float = Field(description="processed / total, 0-1")
    counts: dict[str, int] = Field(description="Answers by status: found, not_found, invalid, ambiguous")
    country: str | None
    attempts: int = Field(description="Runs of the job so far (a run that died is taken over and resumed)")
    error: str | None = Field(description="The last failed run's error")
    createdAt: Any
    startedAt: Any
    finishedAt: Any
    resultUrl: str | None = Field(description="Where to read the answers once the job is done")
    sections: list[str] = Field(description="The sections added to each company found")
    purpose: str | None = Field(description="The declared purpose the job was made with")
    input: dict[str, Any] = Field(
        description='What the job was made from: `{"kind": "json"}`, or `{"kind": '
        '"csv", "filename", "bytes"}` for an upload'
    )


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON schema with its `$defs` references replaced by the definitions (the body is
    documented by hand, so its models are not among the OpenAPI components)."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    inlined: dict[str, Any] = walk(schema)
    return inlined


def request_body() -> dict[str, Any]:
    """The OpenAPI request body of `POST /enrich/jobs`: JSON, or a CSV upload."""
    upload = {
        "type": "object",
        "required": ["file"],
        "additionalProperties": False,
        "properties": {
            "file": {
                "type": "string",
                "format": "binary",
                "description": "The CSV file: a header row naming an identifier column (`id`, `ico`, "
                "`national_id`, `company_number`, …) and/or `name` (with `city`, `country`)",
            },
            "country": {
                "type": "string",
                "minLength": 2,
                "maxLength": 2,
                "description": "Country of rows without one",
            },
            "encoding": {
                "type": "string",
                "maxLength": 40,
                "description": "The file's character set when it is not "
                "UTF-8 (e.g. windows-1250, iso-8859-2)",
            },
            "sections": {
                "type": "string",
                "maxLength": 200,
                "description": SECTIONS_TEXT.replace(
                    "Sections to add", "Sections, separated by commas (or the field repeated), to add"
                ),
            },
            "purpose": {"type": "string", "maxLength": 64, "description": PURPOSE_TEXT},
        },
    }
    return {
        "required": True,
        "content": {
            "application/json": {"schema": _inline(JobIn.model_json_schema())},
            "multipart/form-data": {"schema": upload},
        },
    }
