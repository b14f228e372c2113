"""The API's engines do not ping a pooled connection before each request (a round trip on PostgreSQL):
when the server has dropped the connections (a restart), a read asks again once on a fresh connection,
so clients see no error; and every request after it is served too."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.conftest import BACKEND
from tests.helpers import assert_envelope

pytestmark = pytest.mark.skipif(BACKEND != "postgresql", reason="connections a server drops: PostgreSQL")

LEI = "097900BHF50000076475"


def test_reads_survive_the_server_dropping_every_pooled_connection(client, auth, engine):
    load_companies(
        engine, CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s.", lei=LEI)
    )
    paths = ["/api/v1/companies/sk/31322832", f"/api/v1/companies/by-lei?lei={LEI}"]
    for path in paths * 3:  # the pool holds connections now
        assert_envelope(client.get(path, headers=auth))
    with engine.connect() as admin:
        dropped = admin.execute(
            text(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar_one()
    assert dropped >= 1
    for path in paths * 3:
        answer = assert_envelope(client.get(path, headers=auth))
        assert answer["name"] == "SLOVNAFT, a.s."
