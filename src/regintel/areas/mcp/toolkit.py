"""What every MCP tool is made of: the `Tool` entry, the context a tool runs with, the strict argument
base model and the argument types shared by the tool modules (`tools.py`, `area_tools.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection

from regintel.api.deps import Caller
from regintel.api.result_cache import get_result_cache
from regintel.api.search_index import search_backend
from regintel.areas.companies import service as companies_svc
from regintel.areas.people.service import check_purpose
from regintel.config import Settings
from regintel.domain.identifiers import NATIONAL_IDS, parse_country
from regintel.errors import Unauthorized
from regintel.search.base import SearchBackend

MARKETS = ", ".join(NATIONAL_IDS)


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use besides its connection: the app's state (engine, settings, search index,
    caches) and the key it runs for (None over stdio without `--api-key`)."""

    state: Any
    caller: Caller | None

    @property
    def settings(self) -> Settings:
        settings: Settings = self.state.settings  # app.state is untyped; the lifespan sets a Settings
        return settings

    def _as_request(self) -> Any:
        # The search-index and result-cache accessors read only `request.app.state`.
        return SimpleNamespace(app=SimpleNamespace(state=self.state))

    def search(self) -> SearchBackend:
        return search_backend(self._as_request())

    def cache(self) -> Any:
        return get_result_cache(self._as_request())

    def key_id(self) -> int:
        if self.caller is None:
            raise Unauthorized("This tool acts for an API key: start `regintel mcp` with --api-key")
        return self.caller.key.id


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    params: type[BaseModel]
    run: Callable[[Connection, ToolContext, Any], dict[str, Any]]
    text: Callable[[dict[str, Any]], str]


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


Country = Annotated[
    str | None,
    Field(
        default=None,
        min_length=2,
        max_length=2,
        description=(f"ISO 3166-1 alpha-2 country, any case. Markets with national identifiers: {MARKETS}"),
    ),
]
NationalId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        description="National identifier (IČO, SIREN, company number, …), spaces and dots allowed",
    ),
]
Query = Annotated[
    str, Field(min_length=1, max_length=200, description="Company name, part of it, or an identifier")
]


def cc(country: str | None) -> str | None:
    return parse_country(country) if country else None


class CompanyArgs(Args):
    national_id: NationalId
    country: Country


Purpose = Annotated[
    str | None,
    Field(
        default=None,
        max_length=64,
        description=(
            "Declared processing purpose (one of the operator's list, e.g. `kyc`): adds natural persons' "
            "birth date, nationality and residence, and screens natural persons"
        ),
    ),
]


def company_row(conn: Connection, a: CompanyArgs) -> Mapping[str, Any]:
    """The company of `national_id` (+ `country`), resolved as `/companies/{ico}` resolves it."""
    return companies_svc.resolve_ico(conn, a.national_id, a.country)


def personal(ctx: ToolContext, purpose: str | None) -> bool:
    """True when `purpose` is a declared one (422 VALIDATION_ERROR for an undeclared one, as in REST)."""
    return check_purpose(purpose, ctx.settings.allowed_purposes)
