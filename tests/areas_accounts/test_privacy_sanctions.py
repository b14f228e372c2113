"""A company officer who matches a sanctions list entry, withheld after a verified erase request
(`regintel privacy answer --withhold p:…`): the precomputed hit that keeps the officer's name is taken out
with the roles, so the company leaves the advanced search's `sanctioned` filter and
`/public/stats/sanctions`, the live `/companies/{ico}/sanctions` no longer screens the officer, and a new
run of the hits job does not make the hit again; `lift` puts the hit back (screening/privacy.py)."""

from __future__ import annotations

import json

from sqlalchemy import select

from regintel.areas.screening.hits import refresh_company_hits
from regintel.areas.screening.tables import company_sanction_hits
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.sections import person_key
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.screening.support import load_lists

OFFICER = "Mohammad Hassan Akhund"
KEY = person_key(OFFICER, None, None)
BANK, LUKA, PEKAREN = "31322832", "35763469", "36631124"


def _served(client, auth) -> dict[str, object]:
    sanctioned = assert_envelope(
        client.get("/api/v1/companies/advanced-search", params={"sanctioned": 1}, headers=auth)
    )
    stats = client.get("/api/v1/public/stats/sanctions", params={"mode": "sanctioned"})
    live = client.get(f"/api/v1/companies/{LUKA}/sanctions", params={"purpose": "kyc"}, headers=auth)
    assert stats.status_code == 200 and live.status_code == 200, (stats.text[:200], live.text[:200])
    return {
        "sanctioned": sorted(r["nationalId"] for r in sanctioned),
        "stats": sorted((i["national_id"], i["hit_count"]) for i in stats.json()["data"]["items"]),
        "live": [(s["name"], len(s["hits"])) for s in live.json()["data"]["subjects"]],
    }


def _stored(engine) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        h = company_sanction_hits.c
        return [tuple(r) for r in conn.execute(select(h.subject, h.subject_name).order_by(h.subject))]


def test_a_withheld_officers_sanctions_hit_is_withheld_and_lifted(client, auth, engine, cli):  # noqa: F811
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id=BANK, name="BANCO NACIONAL DE CUBA, a.s."),
        CompanyRecord(
            country="SK",
            national_id=LUKA,
            name="Zelená Lúka s.r.o.",
            roles=[RoleRecord(role="director", holder_name=OFFICER, person=PersonRecord(name=OFFICER))],
        ),
        CompanyRecord(country="SK", national_id=PEKAREN, name="Tatra Pekáreň s.r.o."),
    )
    load_lists(engine)
    refresh_company_hits(engine)
    before = _served(client, auth)
    assert before["sanctioned"] == [BANK, LUKA] and LUKA in dict(before["stats"])  # the test can fail
    assert before["live"] == [("Zelená Lúka s.r.o.", 0), (OFFICER, 1)]
    assert ("officer", OFFICER) in _stored(engine)

    request_id = _file_request(client, engine, kind="erase", person_name=OFFICER)
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{KEY}")
    after = _served(client, auth)
    assert after == {"sanctioned": [BANK], "stats": [(BANK, 1)], "live": [("Zelená Lúka s.r.o.", 0)]}
    assert _stored(engine) == [("company", "BANCO NACIONAL DE CUBA, a.s.")]

    refresh_company_hits(engine)  # the job screens the roles served: the officer is not among them
    assert _served(client, auth) == after and _stored(engine) == [("company", "BANCO NACIONAL DE CUBA, a.s.")]

    lifted = json.loads(cli("lift", f"p:{KEY}"))
    assert lifted["roles"] == 1 and lifted["sanction_hits"] == 1
    assert _served(client, auth) == before
    refresh_company_hits(engine)
    assert _served(client, auth) == before and ("officer", OFFICER) in _stored(engine)
