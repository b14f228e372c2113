"""Ownership edges through the shared loader: ends by national key or LEI, edges repeated in a batch,
rejects and skips, and a batch's statements that do not grow with its edges (issue 14)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import event, select

from regintel.db.schema import company_changes, lei_records, ownerships
from regintel.domain.types import CompanyKey, CompanyRecord, LeiRecord, OwnershipRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader

INFO = SourceInfo(
    id="test_owners",
    name="Test",
    publisher="Tests",
    country="SK",
    category="register",
    formats="records",
    licence="CC0",
    attribution="tests",
    url="file:",
    cadence="on-demand",
)
LEI_C = "097900BGCY0000006391"  # carried by company C itself
LEI_D = "549300TESTLEIRECORD1"  # an LEI record that links company D


def ico(index: int) -> str:
    digits = f"{1_000_000 + index:07d}"
    total = sum(int(d) * w for d, w in zip(digits, range(8, 1, -1), strict=True))
    return digits + str((11 - total % 11) % 10)


def sk(index: int) -> CompanyKey:
    return CompanyKey("SK", ico(index))


def load(engine, records, *, batch_size=2_000, rejects=None, hooks=None):
    sink = None if rejects is None else (lambda reason, raw: rejects.append((reason, raw)))
    loader = Loader(engine, INFO, batch_size=batch_size, reject=sink, on_changes=hooks)
    for record in records:
        loader.add(record)
    loader.flush()
    return loader.stats


def companies(engine, count):
    load(
        engine,
        [
            CompanyRecord("SK", ico(i), name=f"Company {i}", lei=LEI_C if i == 2 else None)
            for i in range(count)
        ],
    )
    load(engine, [LeiRecord(LEI_D, "Company 3", "ISSUED", company=sk(3))])


def edges(engine):
    with engine.connect() as conn:
        return {
            (row.parent_id, row.child_id, row.kind): (row.share_pct, row.since)
            for row in conn.execute(select(ownerships))
        }


def company_id(engine, index):
    from regintel.db.schema import companies as table

    with engine.connect() as conn:
        return conn.execute(select(table.c.id).where(table.c.national_id == ico(index))).scalar_one()


def test_edges_by_key_and_lei_with_repeats_rejects_and_skips(engine):
    companies(engine, 4)
    a, b, c, d = (company_id(engine, i) for i in range(4))
    rejects: list[tuple[str, object]] = []
    batch = [
        OwnershipRecord(parent=sk(0), child=sk(1), share_pct=30.0, since=date(2020, 1, 1)),
        OwnershipRecord(parent_lei=LEI_C, child_lei=LEI_D, kind="ultimate", share_pct=100.0),
        OwnershipRecord(parent=CompanyKey("sk", ico(1)), child_lei=LEI_C, share_pct=10.0),
        OwnershipRecord(parent=sk(0), child=sk(1), share_pct=60.0, since=date(2020, 1, 1)),  # the same edge
        OwnershipRecord(parent=sk(0), child=sk(1), share_pct=60.0, since=date(2020, 1, 1)),  # and again
        OwnershipRecord(parent=sk(0), child=sk(9)),  # not in the database
        OwnershipRecord(parent_lei="5493000000UNKNOWN000", child=sk(1)),
        OwnershipRecord(parent=sk(3), child_lei=LEI_D),  # D owning itself
    ]
    stats = load(engine, batch, rejects=rejects)
    assert (stats.inserted, stats.updated, stats.unchanged) == (3, 1, 1)
    assert (stats.skipped, stats.rejected) == (2, 1)
    assert [reason for reason, _ in rejects] == ["ownership edge from a company to itself"]
    assert edges(engine) == {
        (a, b, "direct"): (60.0, date(2020, 1, 1)),
        (c, d, "ultimate"): (100.0, None),
        (b, c, "direct"): (10.0, None),
    }
    with engine.connect() as conn:
        logged = [
            (r.company_id, r.field, r.old_value, r.new_value)
            for r in conn.execute(select(company_changes).where(company_changes.c.field.startswith("owner.")))
        ]
    assert sorted(logged, key=str) == sorted(
        [
            (b, "owner.direct", None, f"{a}:30.0"),
            (d, "owner.ultimate", None, f"{c}:100.0"),
            (c, "owner.direct", None, f"{b}:10.0"),
            (b, "owner.direct", "30.0", f"{a}:60.0"),
        ],
        key=str,
    )

    again = load(engine, batch, rejects=[])
    # In order: A→B at 30 after the stored 60, then at 60 again, then unchanged.
    assert (again.inserted, again.updated, again.unchanged, again.changes) == (0, 2, 3, 2)
    assert edges(engine)[(a, b, "direct")] == (60.0, date(2020, 1, 1))


def test_an_lei_record_without_a_company_falls_back_to_the_company_carrying_the_lei(engine):
    companies(engine, 3)
    with engine.begin() as conn:
        conn.execute(
            lei_records.update().where(lei_records.c.lei == LEI_D).values(lei=LEI_C, company_id=None)
        )
    load(engine, [OwnershipRecord(parent=sk(0), child_lei=LEI_C, share_pct=5.0)])
    assert edges(engine) == {(company_id(engine, 0), company_id(engine, 2), "direct"): (5.0, None)}


def test_a_batchs_statements_do_not_grow_with_its_edges(engine):
    companies(engine, 60)
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement)

    def run(pairs, share):
        records = [OwnershipRecord(parent=sk(p), child=sk(c), share_pct=share) for p, c in pairs]
        records += [OwnershipRecord(parent_lei=LEI_C, child=sk(c), share_pct=share) for _, c in pairs[:3]]
        statements.clear()
        event.listen(engine, "before_cursor_execute", count)
        try:
            load(engine, records, hooks=[])
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return len(statements)

    few = [(0, 1), (1, 4), (5, 6)]
    many = [(p, c) for p in range(10, 30) for c in range(30, 50)]  # 400 edges
    assert run(few, 1.0) == run(many, 1.0)  # inserted
    assert run(few, 1.0) == run(many, 1.0)  # unchanged
    assert run(few, 2.0) == run(many, 2.0)  # updated


def test_section_writers_do_not_import_the_loader_even_for_annotations():
    """lint-imports leaves out imports under TYPE_CHECKING (pyproject.toml), so the contract that keeps
    the section writers off the loader is checked here for those too."""
    import ast
    from pathlib import Path

    import regintel.ingest

    folder = Path(regintel.ingest.__file__).parent
    for name in ("batch", "sections", "statements", "insolvency", "role_increments"):
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        imported = {
            alias.name if isinstance(node, ast.Import) else f"{'.' * node.level}{node.module}.{alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        assert imported and not [i for i in imported if "ingest.loader" in i or i.startswith(".loader")], name
