"""Operations endpoints: liveness, readiness, Prometheus metrics; JSON logs; status without a scan."""

from __future__ import annotations

import json
import logging

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from regintel import logs
from regintel.api.middleware import access_log


def test_livez_and_readyz(client: TestClient) -> None:
    assert client.get("/livez").json() == {"live": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {
        "ready": True,
        "checks": {"database": "ok", "schema": "ok"},
    }


def test_readyz_is_503_when_the_schema_is_behind(client: TestClient, engine) -> None:  # type: ignore[no-untyped-def]
    with engine.begin() as conn:  # the PostgreSQL test database is shared: put the versions back after
        applied = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        conn.execute(text("DELETE FROM alembic_version"))
        conn.execute(text("INSERT INTO alembic_version (version_num) VALUES ('0001')"))
    try:
        ready = client.get("/readyz")
    finally:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM alembic_version"))
            for version in applied:
                conn.execute(text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": version})
    assert ready.status_code == 503
    assert ready.json()["ready"] is False and ready.json()["checks"]["schema"].startswith("behind")


def test_metrics_count_requests_by_route_template_and_status(
    client: TestClient, auth: dict[str, str]
) -> None:
    client.get("/api/v1/companies/sk/31322832", headers=auth)  # 404: no such company here
    client.get("/api/v1/companies/sk/35757442", headers=auth)
    resp = client.get("/metrics")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    families = {f.name: f for f in text_string_to_metric_families(resp.text)}
    samples = [
        s
        for s in families["regintel_requests"].samples
        if s.labels.get("route") == "/api/v1/companies/{country}/{national_id}"
    ]
    assert {s.labels["status"] for s in samples} >= {"404"}
    assert "regintel_request_duration_seconds" in families
    assert "regintel_db_connections_in_use" in families and "regintel_jobs_oldest_due_seconds" in families
    docs = (
        families["regintel_search_index_documents"].samples
        if "regintel_search_index_documents" in families
        else []
    )
    assert all(s.value >= 0 for s in docs)


def test_operations_endpoints_take_no_key_and_refuse_unknown_parameters(client: TestClient) -> None:
    assert client.get("/metrics?x=1").status_code == 422
    assert client.get("/readyz").status_code == 200


def test_json_log_lines_carry_the_request_id(client: TestClient, capsys) -> None:  # type: ignore[no-untyped-def]
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        logs.setup("INFO", "json")
        resp = client.get("/livez?api_key=secret")
        lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    finally:
        root.handlers[:], _ = saved[0], root.setLevel(saved[1])
    access = [line for line in lines if line["logger"] == access_log.name]
    assert access and access[-1]["request_id"] == resp.headers["x-request-id"]
    assert access[-1]["status"] == 200 and "secret" not in json.dumps(access[-1])
    assert access[-1]["level"] == "INFO"
