"""One router per endpoint group; `ROUTERS` is the order they are mounted in."""

from fastapi import APIRouter

from regintel import areas
from regintel.api.routers import (
    docs,
    health,
    me,
    status,
)
from regintel.areas.catalogue import code_list_routes, data_source_routes
from regintel.areas.companies import lookup_routes, record_routes, timeline_routes
from regintel.areas.feeds import change_routes, insolvency_routes
from regintel.areas.monitoring import case_routes, subscription_routes, watch_routes, webhook_routes
from regintel.areas.people import people_routes
from regintel.areas.search import advanced_routes, reconcile_routes, search_routes
from regintel.areas.stats import feed_routes, stats_routes

# Routes are matched in this order, one by one: the high-volume exact lookups (spec 8) come first.
ROUTERS: list[APIRouter] = [lookup_routes.router, record_routes.key_router]
# Then the keyed paths of spec 8's volume (`/me`, search and autocomplete: each route before a request's
# own costs a regex match), all literal paths, so their place shadows nothing.
ROUTERS += [
    me.router,
    search_routes.router,
    health.router,
    status.router,
    docs.router,
    data_source_routes.router,
    code_list_routes.router,
    people_routes.router,
    reconcile_routes.router,
]
ROUTERS += [subscription_routes.router, case_routes.router, webhook_routes.router, watch_routes.router]
ROUTERS += [advanced_routes.router, stats_routes.router]  # finding companies, statistics
ROUTERS += [
    insolvency_routes.router,
    change_routes.router,
    timeline_routes.router,
]  # insolvency and change feeds, timelines

# The feature areas (regintel/areas/<area>/router.py), found by name.
ROUTERS += areas.routers()
# `/public/stats/{feed}` after the areas, whose feeds with their own filters have literal paths.
ROUTERS.append(feed_routes.router)

# `/companies/{ico}` and `/companies/{country}/{national_id}` match almost anything under /companies:
# they stay last so that literal company paths of every other router win.
ROUTERS.append(record_routes.router)
