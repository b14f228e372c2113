"""`regintel search rebuild | status` and the normalised columns they can recompute."""

from __future__ import annotations

from sqlalchemy import update
from typer.testing import CliRunner

from regintel.cli import app
from regintel.db.schema import companies
from tests.api.test_search import COMPANIES
from tests.builders import load_companies
from tests.helpers import assert_envelope


def test_rebuild_renormalise_and_status(engine, settings, monkeypatch, client, auth):
    load_companies(engine, *COMPANIES)
    with engine.begin() as conn:  # as if an older normaliser had written these
        conn.execute(
            update(companies).where(companies.c.national_id == "31322832").values(name_norm="slovnaft a s")
        )
    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("REGINTEL_DATA_DIR", str(settings.data_dir))
    runner = CliRunner()
    result = runner.invoke(app, ["search", "rebuild", "--renormalise"])
    assert result.exit_code == 0, result.output
    assert "'companies': 1" in result.output and "tantivy index rebuilt: 9 documents" in result.output
    result = runner.invoke(app, ["search", "status"])
    assert result.exit_code == 0 and "ready=True" in result.output and "documents=9" in result.output
    items = assert_envelope(client.get("/api/v1/companies/search?q=slovnaft", headers=auth))
    assert items[0]["score"] == 1.0
