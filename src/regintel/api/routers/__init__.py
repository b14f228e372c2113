"""One router per endpoint group; `ROUTERS` is the order they are mounted in."""

from fastapi import APIRouter

from regintel.api.routers import (
    code_lists,
    companies,
    data_sources,
    docs,
    me,
    monitoring,
    monitoring_cases,
    reconcile,
    search,
    status,
    watch,
    webhooks,
)

ROUTERS: list[APIRouter] = [me.router, status.router, docs.router, data_sources.router, code_lists.router,
                            search.router, reconcile.router]
ROUTERS += [monitoring.router, monitoring_cases.router, webhooks.router, watch.router]

# `/companies/{ico}` and `/companies/{country}/{national_id}` match almost anything under /companies:
# they stay last so that literal company paths of every other router win.
ROUTERS.append(companies.router)
