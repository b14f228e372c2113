"""The plan's limit on the identifiers of one enrichment job (`enrich_max_identifiers`, REGINTEL_PLANS),
through HTTP: JSON bodies and CSV uploads, the default plans and a configured one, refused before anything
is queued."""

from __future__ import annotations

from sqlalchemy import func, select

from regintel.areas.enrich.service import MAX_IDENTIFIERS
from regintel.config import DEFAULT_PLANS, Plan
from regintel.db.schema import jobs
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/enrich/jobs"


def queued(engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(jobs)).scalar_one())


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def csv_of(count: int) -> bytes:
    return ("ico\n" + "".join(f"{n:08d}\n" for n in range(count))).encode()


def test_the_default_plans_limits(client, make_key, engine):
    assert {name: plan.enrich_max_identifiers for name, plan in DEFAULT_PLANS.items()} == {
        "free": 1_000,
        "pro": 25_000,
        "business": 100_000,
        "day_pass": 5_000,
        "week_pass": 25_000,
    }
    free = bearer(make_key("free"))
    assert_envelope(client.post(URL, json={"identifiers": ["31322832"] * 1_000}, headers=free), 202)
    error = assert_error(
        client.post(URL, json={"identifiers": ["31322832"] * 1_001}, headers=free), 403, "FORBIDDEN"
    )
    assert error["details"] == {"plan": "free", "limit": 1_000, "identifiers": 1_001}
    assert "at most 1,000 identifiers" in error["message"] and "1,001" in error["message"]
    upload = client.post(URL, files={"file": ("list.csv", csv_of(1_001), "text/csv")}, headers=free)
    assert assert_error(upload, 403, "FORBIDDEN")["details"]["identifiers"] == 1_001
    assert queued(engine) == 1  # only the job within the limit
    day = bearer(make_key("day_pass"))
    assert_envelope(
        client.post(URL, files={"file": ("list.csv", csv_of(5_000), "text/csv")}, headers=day), 202
    )
    assert_error(client.post(URL, json={"identifiers": ["1"] * 5_001}, headers=day), 403, "FORBIDDEN")
    business = bearer(make_key("business"))
    assert_envelope(client.post(URL, json={"identifiers": ["1"] * MAX_IDENTIFIERS}, headers=business), 202)
    # beyond the service's cap the body itself is invalid, whatever the plan
    assert_error(
        client.post(URL, json={"identifiers": ["1"] * (MAX_IDENTIFIERS + 1)}, headers=business),
        422,
        "VALIDATION_ERROR",
    )


def test_a_configured_plan(app_factory, make_key, engine):
    plans = dict(DEFAULT_PLANS) | {
        "tiny": Plan(title="Tiny", rate_per_minute=100, monthly_quota=100, enrich_max_identifiers=3),
        "unlimited": Plan(
            title="Unlimited", rate_per_minute=100, monthly_quota=100
        ),  # no limit: the service cap
        "huge": Plan(title="Huge", rate_per_minute=100, monthly_quota=100, enrich_max_identifiers=10**9),
    }
    client = app_factory(plans=plans)
    tiny = bearer(make_key("tiny"))
    assert_envelope(client.post(URL, json={"identifiers": ["31322832", "35757442", "x"]}, headers=tiny), 202)
    error = assert_error(
        client.post(URL, json={"identifiers": ["1", "2", "3", "4"]}, headers=tiny), 403, "FORBIDDEN"
    )
    assert error["details"] == {"plan": "tiny", "limit": 3, "identifiers": 4}
    assert "The Tiny plan allows at most 3 identifiers" in error["message"]
    for name in ("unlimited", "huge"):
        key = bearer(make_key(name))
        assert_envelope(client.post(URL, json={"identifiers": ["1"] * MAX_IDENTIFIERS}, headers=key), 202)
    assert queued(engine) == 3
