"""One router per endpoint group; `ROUTERS` is the order they are mounted in."""

from fastapi import APIRouter

from regintel import areas
from regintel.api.routers import (
    advanced_search,
    changes,
    code_lists,
    companies,
    data_sources,
    docs,
    health,
    insolvency_feeds,
    lookup,
    me,
    monitoring,
    monitoring_cases,
    public_stats_feeds,
    reconcile,
    search,
    stats,
    status,
    timeline,
    watch,
    webhooks,
)

# Routes are matched in this order, one by one: the high-volume exact lookups (spec 8) come first.
ROUTERS: list[APIRouter] = [lookup.router, companies.key_router]
ROUTERS += [
    health.router,
    me.router,
    status.router,
    docs.router,
    data_sources.router,
    code_lists.router,
    search.router,
    reconcile.router,
]
ROUTERS += [monitoring.router, monitoring_cases.router, webhooks.router, watch.router]
ROUTERS += [advanced_search.router, stats.router]  # finding companies, statistics
ROUTERS += [
    insolvency_feeds.router,
    changes.router,
    timeline.router,
]  # insolvency and change feeds, timelines

# The feature areas (regintel/areas/<area>/router.py), found by name.
ROUTERS += areas.routers()
# `/public/stats/{feed}` after the areas, whose feeds with their own filters have literal paths.
ROUTERS.append(public_stats_feeds.router)

# `/companies/{ico}` and `/companies/{country}/{national_id}` match almost anything under /companies:
# they stay last so that literal company paths of every other router win.
ROUTERS.append(companies.router)
