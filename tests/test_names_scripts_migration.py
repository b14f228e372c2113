"""Migration 0032 on a database whose Cyrillic and Greek names were normalised to nothing by the older
code: they get their transliterated `name_norm` (and address), the company moves in `updated_at` so the
search index takes it up, and Latin rows are left as they are."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import text

from regintel.db.engine import make_engine
from regintel.db.migrate import alembic_config, upgrade

INSERT = (
    "INSERT INTO companies (country, national_id, name, name_norm, address_text, address_norm, source, "
    "created_at, updated_at) VALUES (:cc, :nid, :name, :norm, :address, :anorm, 'test', '2026-01-01', "
    "'2026-01-01')"
)
ROWS = [
    (
        "UA",
        "38949117",
        'ТОВАРИСТВО З ОБМЕЖЕНОЮ ВІДПОВІДАЛЬНІСТЮ "ПАРУС-ІФ"',
        "",
        "м. Київ, вул. Хрещатик",
        "",
    ),
    ("CY", "HE150", "ΕΛΛΗΝΙΚΗ ΤΡΑΠΕΖΑ ΛΤΔ", "", None, None),
    ("SK", "31322832", "Slovnaft, a.s.", "slovnaft", "Vlčie hrdlo 1", "vlcie hrdlo 1"),
]


@pytest.fixture
def engine(request, tmp_path):  # noqa: ANN001
    url = (
        request.getfixturevalue("database_url") if request.param == "pg" else f"sqlite:///{tmp_path / 'o.db'}"
    )
    engine = make_engine(url, pool=False)
    upgrade(engine)
    with engine.begin() as conn:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0012_jobs")  # as a checkout before 0032 left it (0032 revises 0012)
        for cc, nid, name, norm, address, anorm in ROWS:
            conn.execute(
                text(INSERT),
                {"cc": cc, "nid": nid, "name": name, "norm": norm, "address": address, "anorm": anorm},
            )
        conn.execute(
            text(
                "INSERT INTO people (name, name_norm, person_key, source) "
                "VALUES ('ЛУЦЬКИЙ АНДРІЙ', '', 'k1', 'test')"
            )
        )
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.mark.parametrize("engine", ["sqlite"], indirect=True)
def test_empty_names_are_recomputed(engine) -> None:  # noqa: ANN001
    _check(engine)


@pytest.mark.postgres
@pytest.mark.parametrize("engine", ["pg"], indirect=True)
def test_empty_names_are_recomputed_on_postgresql(engine) -> None:  # noqa: ANN001
    _check(engine)


def _check(engine) -> None:  # noqa: ANN001
    with engine.connect() as conn:
        rows = {
            r.national_id: r
            for r in conn.execute(
                text("SELECT national_id, name_norm, address_norm, updated_at FROM companies")
            )
        }
        assert rows["38949117"].name_norm == "parus if"
        assert rows["38949117"].address_norm == "m kiiv vul hresatik"
        assert rows["HE150"].name_norm == "ellenike trapeza"
        assert rows["31322832"].name_norm == "slovnaft"
        assert str(rows["31322832"].updated_at).startswith("2026-01-01")  # untouched
        assert not str(rows["38949117"].updated_at).startswith("2026-01-01")  # the index takes it up
        person = conn.execute(text("SELECT name_norm FROM people WHERE person_key = 'k1'")).scalar()
        assert person == "luckii andrii"
