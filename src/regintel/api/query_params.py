"""Query parameters that several search-like routes share: the query text, the page, and the page size
given as `limit` or `per_page`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request

from regintel.errors import ValidationFailed

Q = Annotated[str, Query(min_length=1, max_length=200, description="Name, part of a name, or an identifier")]
Page = Annotated[int, Query(ge=1, le=50, description="Page number, from 1")]


def not_blank(q: str, field: str = "q") -> str:
    """`min_length` lets a query of spaces through; it would match nothing or everything."""
    if not q.strip():
        raise ValidationFailed(
            f"Query `{field}` is blank", details=[{"field": field, "in": "query", "message": "blank"}]
        )
    return q


def page_size(request: Request, limit: int, per_page: int | None) -> int:
    """`per_page` is accepted beside `limit`: the answer calls the page size `meta.per_page`, and a client
    paging through with the name it was given must not be refused. Two different values are."""
    if per_page is None:
        return limit
    if "limit" in request.query_params and limit != per_page:
        raise ValidationFailed(
            "Give `limit` or `per_page`, not two different values",
            details=[{"field": "per_page", "in": "query", "message": "conflicts with limit"}],
        )
    return per_page
