"""Authentication per spec 5 and DESIGN.md section 3."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from regintel.db.keys import find_key_by_raw, hash_key, revoke_key
from regintel.db.schema import api_keys
from tests.helpers import assert_envelope, assert_error


def test_missing_key(client):
    assert_error(client.get("/api/v1/me"), 401, "UNAUTHORIZED")


def test_bearer_and_query_key(client, api_key):
    assert_envelope(client.get("/api/v1/me", headers={"Authorization": f"Bearer {api_key}"}))
    assert_envelope(client.get(f"/api/v1/me?api_key={api_key}"))


def test_invalid_keys(client, api_key):
    for bad in ["ri_nope", api_key + "x", "' OR 1=1 --", "ž" * 50, "x" * 5000]:
        assert_error(client.get("/api/v1/me", params={"api_key": bad}), 401, "UNAUTHORIZED")
    assert_error(client.get("/api/v1/me", headers={"Authorization": "Basic abc"}), 401, "UNAUTHORIZED")


def test_key_is_stored_only_as_hash(engine, api_key):
    with engine.connect() as conn:
        stored = [r.key_hash for r in conn.execute(api_keys.select())]
    assert stored == [hash_key(api_key)]
    assert api_key.startswith("ri_") and len(api_key) == 43


def test_revoked_key(client, engine, api_key):
    with engine.begin() as conn:
        revoke_key(conn, find_key_by_raw(conn, api_key).id)
    err = assert_error(client.get(f"/api/v1/me?api_key={api_key}"), 401, "UNAUTHORIZED")
    assert "revoked" in err["message"]


def test_expired_key(client, make_key):
    raw = make_key("free", expires_at=datetime.now(UTC) - timedelta(seconds=1))
    err = assert_error(client.get(f"/api/v1/me?api_key={raw}"), 401, "UNAUTHORIZED")
    assert "expired" in err["message"]


def test_me_fields(client, make_key):
    raw = make_key("free", name="analyst")
    data = assert_envelope(client.get(f"/api/v1/me?api_key={raw}"))
    assert data["name"] == "analyst"
    assert data["plan"] == "free"
    assert data["rate_limit"] == {"requests": 120, "window_seconds": 60}
    assert data["usage"]["period"] == "month"
    assert data["usage"]["used"] == 1 and data["usage"]["limit"] == 1000
    assert data["expires_at"] is None
    data = assert_envelope(client.get(f"/api/v1/me?api_key={raw}"))
    assert data["usage"]["used"] == 2


def test_revocation_takes_effect_within_the_key_cache_time(app_factory, engine, make_key):
    import time

    client = app_factory(key_cache_seconds=0.5)
    raw = make_key("free")
    assert_envelope(client.get(f"/api/v1/me?api_key={raw}"))
    with engine.begin() as conn:
        revoke_key(conn, find_key_by_raw(conn, raw).id)
    time.sleep(0.6)
    assert_error(client.get(f"/api/v1/me?api_key={raw}"), 401, "UNAUTHORIZED")


def test_a_missing_or_unknown_key_answers_401_before_a_bad_parameter_422(client, api_key):
    bad_inputs = (
        "/api/v1/companies/lookup?id=31322832&country=toolong",
        "/api/v1/companies/by-lei?lei=x",
        "/api/v1/companies/by-identifier?type=colour&value=1",
    )
    for url in bad_inputs:
        assert_error(client.get(url), 401, "UNAUTHORIZED")
        assert_error(client.get(url, headers={"Authorization": "Bearer ri_nope"}), 401, "UNAUTHORIZED")
        assert_error(client.get(url, headers={"Authorization": f"Bearer {api_key}"}), 422, "VALIDATION_ERROR")
