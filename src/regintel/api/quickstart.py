"""The calls the quickstart page shows; the page's templates turn each into curl, httpx, fetch and PHP."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode


@dataclass(frozen=True)
class Example:
    """One call: `template` is the catalogue path, `path` the filled-in one actually shown."""

    slug: str
    title: str
    text: str
    method: str
    template: str
    path: str
    keyed: bool
    query: dict[str, str] = field(default_factory=dict)
    available: bool = True

    @property
    def target(self) -> str:
        """Path plus query string, as it goes on the wire."""
        return self.path + ("?" + urlencode(self.query) if self.query else "")


# SLOVNAFT, a.s. (IČO 31322832) is in the Slovak register sample the tests use (shared/data/sk_rpo).
_EXAMPLES = [
    Example(
        "me",
        "Check your key",
        "Name, plan, rate limit, usage and expiry of the key you send.",
        "GET",
        "/api/v1/me",
        "/api/v1/me",
        keyed=True,
    ),
    Example(
        "company",
        "Look up a company",
        "A company by country and national identifier (here the "
        "Slovak IČO 31322832). An identifier found in no register answers 404 NOT_FOUND.",
        "GET",
        "/api/v1/companies/{country}/{national_id}",
        "/api/v1/companies/sk/31322832",
        keyed=True,
    ),
    Example(
        "code-lists",
        "List the code lists",
        "The reference tables; no key needed.",
        "GET",
        "/api/v1/code-lists",
        "/api/v1/code-lists",
        keyed=False,
    ),
    Example(
        "code-list-search",
        "Search a code list",
        'NACE items whose code or name contains "software", at most 5.',
        "GET",
        "/api/v1/code-lists/{listName}",
        "/api/v1/code-lists/nace",
        keyed=False,
        query={"q": "software", "limit": "5"},
    ),
    Example(
        "code-list-item",
        "Read one code",
        "One NACE item by its code.",
        "GET",
        "/api/v1/code-lists/{listName}/{code}",
        "/api/v1/code-lists/nace/62.01",
        keyed=False,
    ),
]


def _norm(path: str) -> str:
    """Placeholders compare by position only, as in shared/tools/spec_coverage.py."""
    return re.sub(r"\{[^}]+\}", "{}", path).rstrip("/") or "/"


def build_examples(operations: set[tuple[str, str]]) -> list[Example]:
    """The examples, each marked with whether this server has its operation yet."""
    have = {(method, _norm(path)) for method, path in operations}
    return [replace(e, available=(e.method, _norm(e.template)) in have) for e in _EXAMPLES]
