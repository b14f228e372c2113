"""Loader parts for what hangs off a company: identifiers, roles, financial statements, LEI data
and ownership edges. Each runs inside a batch transaction of the loader and is given its `Batch`
(ingest/batch.py), and reads and writes the batch's records in a fixed number of statements (per
900 keys), whatever the number of records."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, column, inspect, or_, select, table
from sqlalchemy.engine import Connection

from regintel.db.engine import execute_many, upsert
from regintel.db.jobs import enqueue_peer_refresh
from regintel.db.schema import (
    companies,
    company_activities,
    financial_statements,
    identifiers,
    lei_records,
    lei_relationships,
    lei_reporting_exceptions,
    ownerships,
    people,
    registration_authorities,
    roles,
)
from regintel.domain.names import normalise_name, person_name_key, spelling_key
from regintel.domain.types import (
    CompanyKey,
    CompanyRecord,
    LeiRecord,
    LeiRelationshipRecord,
    OwnershipRecord,
    PersonRecord,
    RegistrationAuthorityRecord,
    ReportingExceptionRecord,
    RoleRecord,
)
from regintel.ingest import role_increments
from regintel.ingest.batch import Batch

Key = tuple[str, str]
_INSERT_ROLES = roles.insert()
FIGURES = (
    "revenue",
    "profit",
    "total_assets",
    "equity",
    "liabilities",
    "employees",
    "current_assets",
    "current_liabilities",
    "retained_earnings",
    "ebit",
)
FIN_FIELDS = ("period_from", "period_to", "currency", *FIGURES, "statement_type", "source_record_id")


def load_identifiers(batch: Batch, records: dict[Key, CompanyRecord], ids: dict[Key, int]) -> None:
    rows = []
    for key, rec in records.items():
        if key not in ids:
            continue
        pairs = set(rec.identifiers)
        if rec.country in ("SK", "CZ"):
            pairs.add(("ico", rec.national_id))
        if rec.lei:
            pairs.add(("lei", rec.lei))
        if rec.vat_id:
            pairs.add(("ic_dph" if rec.vat_id.startswith("SK") else "vat", rec.vat_id))
        if rec.tax_id:
            pairs.add(("dic", rec.tax_id))
        rows += [{"type": t, "value": v, "company_id": ids[key], "source": batch.source.id} for t, v in pairs]
    # Through the cached executemany of `upsert` (an identifier already stored is left as it is):
    # SQLAlchemy's own executemany built each row's parameters at a third of this step's time.
    upsert(batch.conn, identifiers, rows, keys=["type", "value", "company_id"], update=[])


def activity_digits(primary: str | None, codes: Iterable[object] | None) -> tuple[str, ...]:
    """A company's rows of `company_activities`: when its register names no primary activity, the
    digits of each listed one as NACE_DIGITS derives the primary's (dots dropped), each once; nothing
    when it has a primary, which the `nace` filter reads from the company row's own index. Migration
    0035 derives the same in SQL."""
    if (primary or "").replace(".", ""):
        return ()
    out: dict[str, None] = {}
    for code in codes or ():
        if isinstance(code, str) and (digits := code.replace(".", "")):
            out.setdefault(digits)
    return tuple(out)


_DELETE_ACTIVITIES = company_activities.delete().where(
    company_activities.c.company_id.in_(bindparam("ids", expanding=True))
)
_INSERT_ACTIVITIES = company_activities.insert()


def load_activities(batch: Batch, activities: dict[int, tuple[str, ...]]) -> None:
    """Replace the activity rows of the companies whose activities the batch wrote (by company id;
    the loader passes only those it inserted or whose `nace_primary` or `nace_codes` changed, so a
    re-import writes nothing here): one DELETE per 900 companies and one executemany."""
    if not activities:
        return
    ids = sorted(activities)
    for start in range(0, len(ids), 900):
        batch.conn.execute(_DELETE_ACTIVITIES, {"ids": ids[start : start + 900]})
    rows = [{"company_id": cid, "nace_digits": digits} for cid in ids for digits in activities[cid]]
    if rows:
        execute_many(batch.conn, _INSERT_ACTIVITIES, rows)


@lru_cache(maxsize=1 << 16)
def person_key(name: str, birth_date: str | None, nationality: str | None) -> str:
    """A stable key for a natural person: registers give no person ids, so name + birth date decide."""
    basis = "|".join([person_name_key(name), birth_date or "", (nationality or "").lower()])
    return hashlib.sha256(basis.encode()).hexdigest()[:32]


def _holder_key(role: RoleRecord) -> str:
    if role.holder_company is not None:
        return f"c:{role.holder_company.country}:{role.holder_company.national_id}"
    if role.person is not None:
        return "p:" + person_key(role.person.name, role.person.birth_date, role.person.nationality)
    return "n:" + hashlib.sha256(person_name_key(role.holder_name).encode()).hexdigest()[:30]


def _role_row(role: RoleRecord) -> dict[str, Any]:
    named_only = role.person is None and role.holder_company is None
    return {
        "role": role.role,
        "holder_key": _holder_key(role),
        "holder_name": role.holder_name,
        # Only a holder known by name is looked up by it (areas/ownership: a foreign corporate PSC).
        # Umlauts and their digraphs meet: "Dräger" here, "Draeger" in a PSC entry (names.spelling_key).
        "holder_name_norm": (spelling_key(normalise_name(role.holder_name)) or None) if named_only else None,
        "holder_reg_country": role.holder_reg_country if named_only else None,
        "holder_reg_number": role.holder_reg_number if named_only else None,
        "title": role.title,
        "share_pct": role.share_pct,
        "voting_pct": role.voting_pct,
        "natures_of_control": role.natures_of_control,
        "since": role.since,
        "until": role.until,
    }


def _signature(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(str(row.get(k)) if row.get(k) is not None else None for k in role_increments.ROLE_COMPARED)


# Natural persons withheld after a data-protection request (areas/accounts/privacy.py): never loaded
# again. Named here, not imported, because ingest sits below the areas.
_withheld = table("privacy_person_suppressions", column("person_key"))


def _withheld_keys(conn: Connection, holder_keys: set[str]) -> set[str]:
    # persons are recorded by their key alone, withheld sole traders (a company holder) as `c:CC:ID`
    keys = sorted(
        {k[2:] for k in holder_keys if k.startswith("p:")} | {k for k in holder_keys if k[:2] == "c:"}
    )
    if not keys or not inspect(conn).has_table("privacy_person_suppressions"):
        return set()
    if conn.execute(select(_withheld.c.person_key).limit(1)).first() is None:
        return set()  # the usual case: nobody withheld, one cheap read instead of the key look-ups
    found: set[str] = set()
    for start in range(0, len(keys), 900):
        found.update(
            conn.execute(
                select(_withheld.c.person_key).where(_withheld.c.person_key.in_(keys[start : start + 900]))
            ).scalars()
        )
    return {k if k.startswith("c:") else f"p:{k}" for k in found}


def withheld_companies(conn: Connection, keys: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """The (country, national id) keys among `keys` of sole traders withheld after a data-protection
    request (areas/accounts/traders.py, key `c:CC:ID`): an import must not write them back."""
    if not keys or not inspect(conn).has_table("privacy_person_suppressions"):
        return set()
    if (
        conn.execute(
            select(_withheld.c.person_key).where(_withheld.c.person_key.startswith("c:")).limit(1)
        ).first()
        is None
    ):
        return set()
    wanted = {f"c:{country}:{national_id}": (country, national_id) for country, national_id in keys}
    names = sorted(wanted)
    found: set[tuple[str, str]] = set()
    for start in range(0, len(names), 900):
        found.update(
            wanted[k]
            for k in conn.execute(
                select(_withheld.c.person_key).where(_withheld.c.person_key.in_(names[start : start + 900]))
            ).scalars()
        )
    return found


def load_roles(batch: Batch, records: list[CompanyRecord], ids: dict[Key, int]) -> None:
    """Replace a company's roles from this source when, and only when, they differ (a source of
    increments, `SourceInfo.roles_increments`, has its record's roles applied on top of the stored
    ones first: `role_increments.accumulate`)."""
    todo = {
        ids[r.key.country, r.key.national_id]: r
        for r in records
        if r.roles is not None and (r.country, r.national_id) in ids
    }
    if not todo:
        return
    conn, source = batch.conn, batch.source
    current: dict[int, list[dict[str, Any]]] = {cid: [] for cid in todo}
    built = {cid: [(_role_row(role), role) for role in rec.roles or []] for cid, rec in todo.items()}
    for found in conn.execute(
        select(roles).where(roles.c.company_id.in_(list(todo)), roles.c.source == source.id)
    ).mappings():
        current[found["company_id"]].append(dict(found))
    increments = source.roles_increments
    holder_keys = {row["holder_key"] for pairs in built.values() for row, _ in pairs}
    if increments:
        holder_keys |= {row["holder_key"] for rows in current.values() for row in rows}
    withheld = _withheld_keys(conn, holder_keys)
    replaced: list[tuple[int, list[tuple[dict[str, Any], RoleRecord | None]]]] = []
    for cid, pairs in built.items():
        kept = [(row, role) for row, role in pairs if row["holder_key"] not in withheld]
        if increments:
            stored = [row for row in current[cid] if row["holder_key"] not in withheld]
            new_rows = role_increments.accumulate(stored, kept)
        else:
            new_rows = {(row["role"], row["holder_key"]): (row, role) for row, role in kept}
        old_sig = sorted(map(_signature, current[cid]), key=str)
        new_sig = sorted((_signature(r) for r, _ in new_rows.values()), key=str)
        if old_sig != new_sig:
            replaced.append((cid, list(new_rows.values())))
    if not replaced:
        return
    # People and holder companies of the whole batch in a few statements, not one per role.
    all_roles = [role for _, chosen in replaced for _, role in chosen if role is not None]
    person_ids = _person_ids(conn, source.id, [r.person for r in all_roles if r.person is not None])
    holder_ids = _company_ids(conn, {r.holder_company for r in all_roles if r.holder_company is not None})
    conn.execute(
        roles.delete().where(
            roles.c.company_id.in_([cid for cid, _ in replaced]), roles.c.source == source.id
        )
    )
    inserts = []
    for cid, chosen in replaced:
        rows = []
        for found_row, role in chosen:
            row = {**found_row, "company_id": cid, "source": source.id}
            if role is not None:  # None: a stored row that increments carried over, with its ids
                p = role.person
                row["person_id"] = (
                    person_ids.get(person_key(p.name, p.birth_date, p.nationality)) if p else None
                )
                row["holder_company_id"] = (
                    holder_ids.get(role.holder_company) if role.holder_company else None
                )
            rows.append(row)
        inserts += rows
        batch.change(cid, "roles", _summary(current[cid]), _summary(rows))
    execute_many(conn, _INSERT_ROLES, inserts)


def _summary(rows: list[dict[str, Any]]) -> str:
    return "; ".join(sorted(f"{r['role']}: {r['holder_name']}" for r in rows))


def _person_ids(conn: Connection, source: str, persons: list[PersonRecord]) -> dict[str, int]:
    """Insert the people not yet known (first source wins) and return person_key -> id."""
    rows = {}
    for p in persons:
        key = person_key(p.name, p.birth_date, p.nationality)
        rows[key] = {
            "person_key": key,
            "name": p.name,
            "name_norm": normalise_name(p.name),
            "birth_date": p.birth_date,
            "nationality": p.nationality,
            "country_of_residence": p.country_of_residence,
            "source": source,
        }
    if not rows:
        return {}
    upsert(conn, people, list(rows.values()), keys=["person_key"], update=[])
    keys = sorted(rows)
    found: dict[str, int] = {}
    for start in range(0, len(keys), 900):
        found.update(
            conn.execute(
                select(people.c.person_key, people.c.id).where(
                    people.c.person_key.in_(keys[start : start + 900])
                )
            ).all()
        )
    return found


def company_ids_by_key(conn: Connection, keys: set[Key]) -> dict[Key, int]:
    """Company ids of (country, national id) keys as stored (upper-case country, normalised id), in
    one query per 900 national ids."""
    out: dict[Key, int] = {}
    national_ids = sorted({k[1] for k in keys})
    for start in range(0, len(national_ids), 900):
        rows = conn.execute(
            select(companies.c.id, companies.c.country, companies.c.national_id).where(
                companies.c.national_id.in_(national_ids[start : start + 900])
            )
        )
        out.update({(r.country, r.national_id): r.id for r in rows if (r.country, r.national_id) in keys})
    return out


def load_financials(batch: Batch, records: list[CompanyRecord], ids: dict[Key, int]) -> None:
    todo = [
        (ids[(r.country, r.national_id)], f)
        for r in records
        if (r.country, r.national_id) in ids
        for f in r.financials
    ]
    if not todo:
        return
    conn, source = batch.conn, batch.source.id
    cids = sorted({cid for cid, _ in todo})
    existing = {
        (row["company_id"], row["year"]): row
        for row in conn.execute(
            select(financial_statements).where(
                financial_statements.c.company_id.in_(cids), financial_statements.c.source == source
            )
        ).mappings()
    }
    rows = []
    for cid, fin in todo:
        row = {f: getattr(fin, f) for f in FIN_FIELDS}
        old = existing.get((cid, fin.year))
        diff = [f for f in FIN_FIELDS if old is None or not equal_values(old[f], row[f])]
        if not diff:
            continue
        for f in diff:
            # A figure the statement does not carry is no change worth a log row.
            if f in FIGURES and (row[f] is not None or (old is not None and old[f] is not None)):
                batch.change(cid, f"financials.{fin.year}.{f}", old[f] if old else None, row[f])
        rows.append({"company_id": cid, "year": fin.year, "source": source, **row})
    upsert(conn, financial_statements, rows, keys=["company_id", "year", "source"])
    if rows:
        enqueue_peer_refresh(conn, batch.now)  # the peer quartiles read every latest statement


def equal_values(old: Any, new: Any) -> bool:
    """Whether a stored value and a record's are the same (numbers as decimals, the rest as text)."""
    if old is None or new is None:
        return old is new
    if isinstance(new, (Decimal, float, int)) and not isinstance(new, bool):
        return Decimal(str(old)) == Decimal(str(new))
    return str(old) == str(new)


LEI_FIELDS = (
    "legal_name",
    "registration_status",
    "entity_status",
    "entity_category",
    "legal_form",
    "ra_code",
    "ra_entity_id",
    "country",
    "jurisdiction",
    "city",
    "managing_lou",
    "validation_sources",
    "conformity_flag",
    "initial_registration",
    "last_update",
    "next_renewal",
)


def load_lei(batch: Batch, records: list[LeiRecord]) -> None:
    if not records:
        return
    conn, stats = batch.conn, batch.stats
    by_lei = {r.lei: r for r in records}
    existing = {
        row["lei"]: row
        for row in conn.execute(select(lei_records).where(lei_records.c.lei.in_(list(by_lei)))).mappings()
    }
    company_ids = _company_ids(conn, {r.company for r in records if r.company is not None})
    rows = []
    for lei, rec in by_lei.items():
        row = {f: getattr(rec, f) for f in LEI_FIELDS}
        row["company_id"] = company_ids.get(rec.company) if rec.company is not None else None
        old = existing.get(lei)
        if old is not None and _older(rec.last_update, old["last_update"]):
            stats.skip("LEI record older than the one already loaded")
            continue
        if old is not None and all(_equal_ts(old[f], row[f]) for f in (*LEI_FIELDS, "company_id")):
            stats.unchanged += 1
            continue
        if old is None:
            stats.inserted += 1
        else:
            stats.updated += 1
        rows.append({"lei": lei, "source": batch.source.id, **row})
    upsert(conn, lei_records, rows, keys=["lei"])


def _older(incoming: datetime | None, stored: datetime | None) -> bool:
    """True when a record's update time is before the stored one (a replayed older file)."""
    if incoming is None or stored is None:
        return False
    as_utc = [
        t.replace(tzinfo=None) if t.tzinfo is None else t.astimezone(UTC).replace(tzinfo=None)
        for t in (incoming, stored)
    ]
    return as_utc[0] < as_utc[1]


def _company_ids(conn: Connection, keys: set[CompanyKey]) -> dict[CompanyKey, int]:
    """Company ids for many keys in one query per chunk (a golden copy links millions of LEIs)."""
    wanted = {(k.country.upper(), k.national_id): k for k in keys}
    national_ids = sorted({k.national_id for k in keys})
    found: dict[CompanyKey, int] = {}
    for start in range(0, len(national_ids), 900):
        query = select(companies.c.id, companies.c.country, companies.c.national_id).where(
            companies.c.national_id.in_(national_ids[start : start + 900])
        )
        for row in conn.execute(query):
            if (key := wanted.get((row.country, row.national_id))) is not None:
                found[key] = row.id
    return found


def _equal_ts(old: Any, new: Any) -> bool:
    if isinstance(old, datetime) and isinstance(new, datetime):
        return (
            old.replace(tzinfo=None) == new.astimezone(new.tzinfo).replace(tzinfo=None)
            if new.tzinfo
            else old.replace(tzinfo=None) == new
        )
    return equal_values(old, new)


def load_lei_relationships(batch: Batch, records: list[LeiRelationshipRecord]) -> None:
    if not records:
        return
    conn, stats = batch.conn, batch.stats
    fields = ("status", "registration_status", "share_pct", "start_date", "end_date")
    keys = {(r.child_lei, r.parent_lei, r.kind): r for r in records}
    cond = or_(
        *[
            and_(
                lei_relationships.c.child_lei == c,
                lei_relationships.c.parent_lei == p,
                lei_relationships.c.kind == k,
            )
            for c, p, k in keys
        ]
    )
    existing = {
        (r["child_lei"], r["parent_lei"], r["kind"]): r
        for r in conn.execute(select(lei_relationships).where(cond)).mappings()
    }
    rows = []
    for key, rec in keys.items():
        row = {f: getattr(rec, f) for f in fields}
        old = existing.get(key)
        if old is not None and all(equal_values(old[f], row[f]) for f in fields):
            stats.unchanged += 1
            continue
        stats.inserted += old is None
        stats.updated += old is not None
        rows.append(
            {"child_lei": key[0], "parent_lei": key[1], "kind": key[2], "source": batch.source.id, **row}
        )
    upsert(conn, lei_relationships, rows, keys=["child_lei", "parent_lei", "kind"])


def load_reporting_exceptions(batch: Batch, records: list[ReportingExceptionRecord]) -> None:
    rows = [
        {
            "lei": r.lei,
            "category": r.category,
            "reason": r.reason,
            "reference": r.reference,
            "source": batch.source.id,
        }
        for r in records
    ]
    if not rows:
        return
    conn, stats = batch.conn, batch.stats
    before = {
        (r.lei, r.category, r.reason, r.reference)
        for r in conn.execute(
            select(lei_reporting_exceptions).where(
                lei_reporting_exceptions.c.lei.in_([r["lei"] for r in rows])
            )
        )
    }
    for row in rows:
        same = (row["lei"], row["category"], row["reason"], row["reference"]) in before
        stats.unchanged += same
        stats.updated += not same
    upsert(conn, lei_reporting_exceptions, rows, keys=["lei", "category"])


def _ids_by_lei(conn: Connection, leis: set[str]) -> dict[str, int]:
    """Company ids of LEIs: the company the LEI record links, else a company that carries the LEI
    (the lowest id when several do)."""
    ordered = sorted(leis)
    found: dict[str, int] = {}
    for start in range(0, len(ordered), 900):
        query = select(lei_records.c.lei, lei_records.c.company_id).where(
            lei_records.c.lei.in_(ordered[start : start + 900]), lei_records.c.company_id.is_not(None)
        )
        found.update((row.lei, row.company_id) for row in conn.execute(query))
    rest = sorted(leis - set(found))
    for start in range(0, len(rest), 900):
        query = (
            select(companies.c.lei, companies.c.id)
            .where(companies.c.lei.in_(rest[start : start + 900]))
            .order_by(companies.c.id.desc())
        )
        found.update((row.lei, row.id) for row in conn.execute(query))  # the lowest id comes last
    return found


OwnershipKey = tuple[int, int, str]  # parent id, child id, kind
OWNERSHIP_FIELDS = ("share_pct", "since", "until")


def _stored_ownerships(conn: Connection, source: str, keys: set[OwnershipKey]) -> dict[OwnershipKey, Any]:
    """The stored edges of this source among `keys`, read by parents and children 450 pairs at a time
    (the unique index leads with parent and child); pairs no key names are dropped."""
    ordered = sorted(keys)
    found: dict[OwnershipKey, Any] = {}
    for start in range(0, len(ordered), 450):
        chunk = ordered[start : start + 450]
        query = select(ownerships).where(
            ownerships.c.parent_id.in_(sorted({k[0] for k in chunk})),
            ownerships.c.child_id.in_(sorted({k[1] for k in chunk})),
            ownerships.c.source == source,
        )
        for row in conn.execute(query).mappings():
            key = (row["parent_id"], row["child_id"], row["kind"])
            if key in keys:
                found[key] = {f: row[f] for f in OWNERSHIP_FIELDS}
    return found


def _end(
    end: CompanyKey | None, lei: str | None, by_key: dict[Key, int], by_lei: dict[str, int]
) -> int | None:
    """The company id of one end of an edge: by its national key when it has one, else by its LEI."""
    if end is not None:
        return by_key.get((end.country.upper(), end.national_id))
    return by_lei.get(lei) if lei else None


def load_ownerships(batch: Batch, records: list[OwnershipRecord]) -> None:
    """Company-to-company edges: both ends resolved for the whole batch (by national key or LEI),
    the stored edges read in one go, the new and changed ones written by one upsert. Records are
    taken in order, so a later record of the same edge in the batch is compared with the earlier."""
    if not records:
        return
    conn, stats, source = batch.conn, batch.stats, batch.source.id
    keys = {(k.country.upper(), k.national_id) for r in records for k in (r.parent, r.child) if k is not None}
    leis = {
        lei
        for r in records
        for end, lei in ((r.parent, r.parent_lei), (r.child, r.child_lei))
        if end is None and lei
    }
    by_key = company_ids_by_key(conn, keys)
    by_lei = _ids_by_lei(conn, leis)
    edges: list[tuple[OwnershipRecord, OwnershipKey]] = []
    for rec in records:
        parent = _end(rec.parent, rec.parent_lei, by_key, by_lei)
        child = _end(rec.child, rec.child_lei, by_key, by_lei)
        if parent is None or child is None:
            # Not an error: the other end may be a company we do not hold (an LEI of a foreign fund)
            # or not hold yet; a later import of the relationships draws the edge once both are in.
            stats.skip("ownership end not in the database")
            continue
        if parent == child:
            batch.reject("ownership edge from a company to itself", rec.child_lei or rec.child)
            continue
        edges.append((rec, (parent, child, rec.kind)))
    state = _stored_ownerships(conn, source, {key for _, key in edges})
    written: dict[OwnershipKey, dict[str, Any]] = {}
    for rec, key in edges:
        old = state.get(key)
        row = {"share_pct": rec.share_pct, "since": rec.since, "until": rec.until}
        if old is not None and all(equal_values(old[k], v) for k, v in row.items()):
            stats.unchanged += 1
            continue
        stats.inserted += old is None
        stats.updated += old is not None
        parent, child, kind = key
        old_share = None if old is None else old["share_pct"]
        batch.change(child, f"owner.{kind}", old_share, f"{parent}:{rec.share_pct}")
        # A later record of the same edge is compared with this one as the stored row reads back.
        state[key] = row | {"share_pct": None if rec.share_pct is None else float(rec.share_pct)}
        written[key] = {"parent_id": parent, "child_id": child, "kind": kind, "source": source, **row}
    rows = [written[key] for key in sorted(written)]
    upsert(conn, ownerships, rows, keys=["parent_id", "child_id", "kind", "source"])


RA_FIELDS = ("country", "jurisdiction", "register_name", "register_name_local", "organisation", "website")


def load_registration_authorities(batch: Batch, records: list[RegistrationAuthorityRecord]) -> None:
    """Reference data (GLEIF's RA list): upsert by code, counting only real differences."""
    if not records:
        return
    conn, stats = batch.conn, batch.stats
    by_code = {r.code: r for r in records}
    existing = {
        row["code"]: row
        for row in conn.execute(
            select(registration_authorities).where(registration_authorities.c.code.in_(list(by_code)))
        ).mappings()
    }
    rows = []
    for code, rec in by_code.items():
        row = {f: getattr(rec, f) for f in RA_FIELDS}
        old = existing.get(code)
        if old is not None and all(old[f] == row[f] for f in RA_FIELDS):
            stats.unchanged += 1
            continue
        stats.inserted += old is None
        stats.updated += old is not None
        rows.append({"code": code, **row})
    upsert(conn, registration_authorities, rows, keys=["code"])
