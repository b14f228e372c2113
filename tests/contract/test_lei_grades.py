"""The LEI record's compliance fields are memoised (areas/compliance/service.lei_fields, keyed by the rows
read ahead) and so is its credit grade (areas/scores/service.grade_of_inputs): every demo LEI's by-lei
answer through HTTP is the same with the memos as with everything derived on each call, on the first call
and on a repeated one (served from the memos)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from regintel.areas.compliance import service as compliance
from regintel.areas.scores import service as scores
from regintel.db.engine import make_engine
from tests.contract.conftest import Demo


def _answers(client: TestClient, key: str, leis: list[str]) -> dict[str, tuple[int, Any]]:
    out = {}
    for lei in leis:
        r = client.get(
            "/api/v1/companies/by-lei", params={"lei": lei}, headers={"Authorization": f"Bearer {key}"}
        )
        out[lei] = (r.status_code, r.json()["data"])
    return out


def test_demo_lei_records_same_with_and_without_the_memo(
    demo: Demo, in_process: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, key = in_process
    engine = make_engine(demo.settings.database_url, pool=False)
    with engine.connect() as conn:
        leis = [r[0] for r in conn.execute(text("SELECT lei FROM lei_records ORDER BY lei"))]
    engine.dispose()
    assert len(leis) > 500
    client = TestClient(app)
    scores.grade_of_inputs.cache_clear()
    compliance._LEI_FIELDS.clear()
    first = _answers(client, key, leis)
    grades = scores.grade_of_inputs.cache_info()  # one entry per local company; GLEIF-only LEIs have none
    assert grades.misses > 100
    kept = len(compliance._LEI_FIELDS)  # the companies whose fields follow from the rows read ahead alone
    assert kept > 100
    again = _answers(client, key, leis)
    assert len(compliance._LEI_FIELDS) == kept  # the repeats were answered from it
    with monkeypatch.context() as patch:  # the grade from its memo, the fields derived again
        patch.setattr(compliance, "_LEI_FIELDS", _Forgetful())
        grades_only = _answers(client, key, leis)
    assert scores.grade_of_inputs.cache_info().hits >= grades.misses
    monkeypatch.setattr(compliance, "_LEI_FIELDS", _Forgetful())
    monkeypatch.setattr(scores, "grade_of_inputs", scores.grade_of_inputs.__wrapped__)
    computed = _answers(client, key, leis)
    assert first == again == grades_only == computed
    assert all(status == 200 for status, _ in computed.values())
    graded = [data["creditGrade"] for _, data in computed.values() if data["creditGrade"] is not None]
    assert graded, "no demo LEI has a grade: the comparison would not cover one"


class _Forgetful(dict[Any, Any]):
    """A memo that keeps nothing: every answer derived on the call."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass
