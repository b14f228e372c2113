"""Writing one parsed public-money record into the area's tables, inside the import's transaction.

Each record is compared with what is stored by its content hash: the same record again writes nothing
(counted `unchanged`); a changed one replaces its rows (counted `updated`). Every party is linked to a
company when it is written (`linking.Linker`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.domain.names import normalise_name
from regintel.domain.public_money import (
    BankAccountRecord,
    ContractRecord,
    CrzContract,
    LinkDecision,
    Org,
    PayerList,
    TedNotice,
    contract_role,
    newer_answer_stored,
)
from regintel.ingest.base import SourceAbort
from regintel.ingest.loader import LoadStats

from .linking import Linker
from .queries import importer as queries
from .tables import (
    bank_accounts,
    contracts,
    ted_buyers,
    ted_lots,
    ted_notice_cpv,
    ted_winners,
)

TED_SOURCE = "ted_eforms"
TED_SOURCES = frozenset({TED_SOURCE, "ted_csv"})  # the eForms XML and the contract-award CSV export
TED_NOTICE_URL = "https://ted.europa.eu/en/notice/-/detail/{pub}"


def _link(decision: LinkDecision) -> dict[str, Any]:
    return {"company_id": decision.company_id, "match_method": decision.method, "match_score": decision.score}


def write(conn: Connection, record: Any, linker: Linker, stats: LoadStats, source: str) -> None:
    if isinstance(record, TedNotice):
        write_notice(conn, record, linker, stats, source)
    elif isinstance(record, ContractRecord | CrzContract):
        write_contracts(conn, [record], linker, stats, source)
    elif isinstance(record, BankAccountRecord):
        write_payer(conn, record, linker, stats, source)
    else:  # a source yielding something this area does not store is a programming error
        raise TypeError(f"cannot store {type(record).__name__}")


def write_many(conn: Connection, records: list[Any], linker: Linker, stats: LoadStats, source: str) -> None:
    """Records in input order; contracts of the Czech and Slovak registers go in batches."""
    if records and all(isinstance(r, ContractRecord | CrzContract) for r in records):
        write_contracts(conn, records, linker, stats, source)
        return
    for record in records:
        write(conn, record, linker, stats, source)


def _count(stats: LoadStats, existed: bool) -> None:
    if existed:
        stats.updated += 1
    else:
        stats.inserted += 1


# -- TED -------------------------------------------------------------------------------------------


def write_notice(
    conn: Connection, notice: TedNotice, linker: Linker, stats: LoadStats, source: str = TED_SOURCE
) -> None:
    digest = notice.content_hash()
    row = queries.stored_notice(conn, notice.notice_id)
    if row is not None and row.content_hash == digest:
        stats.unchanged += 1
        return
    values = _notice_values(notice, digest) | {"source": source}
    if row is None:
        pk = queries.insert_notice(conn, values)
    else:
        pk = row.id
        queries.replace_notice(conn, pk, notice.notice_id, TED_SOURCES, values)
    _notice_children(conn, pk, notice, linker, digest, source)
    _count(stats, row is not None)


def _notice_values(n: TedNotice, digest: str) -> dict[str, Any]:
    value, currency = (
        (n.total_value, n.total_currency)
        if n.total_value is not None
        else (n.estimated_value, n.estimated_currency)
    )
    return {
        "notice_id": n.notice_id,
        "version": n.version,
        "publication_number": n.publication_number,
        "form": n.form,
        "notice_type": n.notice_type,
        "subtype": n.subtype,
        "issue_date": n.issue_date,
        "language": n.language,
        "title": n.title,
        "description": n.description,
        "procedure": n.procedure,
        "nature": n.nature,
        "cpv_main": n.cpv_main,
        "country": n.country,
        "estimated_value": n.estimated_value,
        "estimated_currency": n.estimated_currency,
        "total_value": n.total_value,
        "total_currency": n.total_currency,
        "value": value,
        "currency": currency,
        "buyer_legal_type": n.buyer_legal_type,
        "content_hash": digest,
        "imported_at": datetime.now(UTC),
    }


def _notice_children(
    conn: Connection, pk: int, n: TedNotice, linker: Linker, digest: str, source: str
) -> None:
    if n.cpv_codes:
        queries.insert_rows(
            conn,
            ted_notice_cpv,
            [
                {
                    "notice_pk": pk,
                    "cpv": c[:8],
                    "division": c[:2],
                    "country": n.country,
                    "issue_date": n.issue_date,
                }
                for c in dict.fromkeys(n.cpv_codes)
            ],
        )
    lots = {lot.lot_id: lot for lot in n.lots}
    if lots:
        queries.insert_rows(
            conn,
            ted_lots,
            [
                {
                    "notice_pk": pk,
                    "lot_id": lot.lot_id,
                    "title": lot.title,
                    "cpv": lot.cpv,
                    "estimated_value": lot.estimated_value,
                    "currency": lot.currency,
                }
                for lot in lots.values()
            ],
        )
    buyers = {b.ref: b for b in n.buyers}
    if buyers:
        queries.insert_rows(conn, ted_buyers, [_org_row(pk, b, linker) for b in buyers.values()])
    awards = {(a.lot_id, a.winner.ref): a for a in n.awards}
    if not awards:
        return
    winners = []
    for a in awards.values():
        winners.append(
            _org_row(pk, a.winner, linker)
            | {
                "lot_id": a.lot_id,
                "contract_ref": a.contract_ref,
                "contract_title": a.contract_title,
                "signed_on": a.signed_on,
                "value": a.value,
                "currency": a.currency,
                "group_lead": a.group_lead,
            }
        )
    queries.insert_rows(conn, ted_winners, winners)
    buyer = n.buyers[0] if n.buyers else None
    link = ted_link(n.publication_number)
    queries.insert_rows(
        conn,
        contracts,
        [
            {
                "source": source,
                "record_key": n.notice_id,
                "party_ref": f"{w['lot_id']}:{w['org_ref']}",
                "role": "supplier",
                "party_name": w["name"],
                "party_national_id": w["national_id"],
                "party_country": w["country"],
                "company_id": w["company_id"],
                "match_method": w["match_method"],
                "match_score": w["match_score"],
                "buyer_name": buyer.name if buyer else None,
                "buyer_national_id": buyer.national_id if buyer else None,
                "buyer_country": buyer.country if buyer else None,
                "title": w["contract_title"]
                or (lots[w["lot_id"]].title if w["lot_id"] in lots else None)
                or n.title,
                "value": w["value"],
                "currency": w["currency"],
                "value_basis": "awarded" if w["value"] is not None else None,
                "signed_on": w["signed_on"],
                "published_on": n.issue_date,
                "link": link,
                "record_version": n.version,
                "record_hash": digest,
            }
            for w in winners
        ],
    )


def ted_link(pub: str | None) -> str | None:
    return TED_NOTICE_URL.format(pub=pub) if pub else None


def _org_row(pk: int, org: Org, linker: Linker) -> dict[str, Any]:
    return {
        "notice_pk": pk,
        "org_ref": org.ref,
        "name": org.name,
        "name_norm": normalise_name(org.name),
        "national_id": org.national_id,
        "country": org.country,
        "city": org.city,
        **_link(linker.link(org)),
    }


# -- Czech register of contracts -------------------------------------------------------------------


def write_contracts(
    conn: Connection, recs: list[ContractRecord | CrzContract], linker: Linker, stats: LoadStats, source: str
) -> None:
    """A batch of records, with the same outcome (and counts) as writing them one by one in order: one
    read of what is stored for the batch's contracts, one delete and one insert."""
    keys = list(dict.fromkeys(r.contract_id for r in recs))
    state: dict[str, tuple[set[str], str | None]] = {}
    for row in queries.stored_contract_rows(conn, source, keys):
        hashes, _ = state.get(row.record_key, (set(), None))
        state[row.record_key] = (hashes | {row.record_hash}, row.record_version)
    stored_keys = set(state)
    for country in {p.country for r in recs for p, _ in r.parties if p.national_id and p.country}:
        linker.prefetch(
            country,
            [p.national_id for r in recs for p, _ in r.parties if p.national_id and p.country == country],
        )
    final: dict[str, list[dict[str, Any]]] = {}
    for rec in recs:
        hashes, version = state.get(rec.contract_id, (set(), None))
        if hashes and _version(version) > _version(rec.version_id):
            stats.skip("an older version of a stored contract")
            continue
        digest = rec.content_hash()
        rows = (
            []
            if not rec.valid
            else _crz_rows(rec, linker, source, digest)
            if isinstance(rec, CrzContract)
            else _contract_rows(rec, linker, source, digest)
        )
        if hashes == {digest} or (not hashes and not rows):
            stats.unchanged += 1
            continue
        final[rec.contract_id] = rows
        state[rec.contract_id] = ({digest} if rows else set(), rec.version_id if rows else None)
        _count(stats, bool(hashes))
    gone = [k for k in final if k in stored_keys]
    queries.delete_contracts(conn, source, gone)
    rows = [row for batch in final.values() for row in batch]
    if rows:
        queries.insert_rows(conn, contracts, rows)


def _contract_rows(rec: ContractRecord, linker: Linker, source: str, digest: str) -> list[dict[str, Any]]:
    value, currency, basis = (
        (rec.value_net, "CZK", "net")
        if rec.value_net is not None
        else (rec.value_gross, "CZK", "gross")
        if rec.value_gross is not None
        else (rec.foreign_value, rec.foreign_currency, "foreign")
        if rec.foreign_value is not None
        else (None, None, None)
    )
    flagged = any(flag for _, flag in rec.parties)
    rows = []
    for party, flag in rec.parties:
        role = contract_role(flag, flagged)
        if role == "party" or not party.name:
            continue
        rows.append(
            {
                "source": source,
                "record_key": rec.contract_id,
                "party_ref": party.ref,
                "role": role,
                "party_name": party.name,
                "party_national_id": party.national_id,
                "party_country": party.country,
                **_link(linker.link(party, id_is_authoritative=True)),
                "buyer_name": rec.publisher.name,
                "buyer_national_id": rec.publisher.national_id,
                "buyer_country": rec.publisher.country,
                "title": rec.title,
                "value": value,
                "currency": currency,
                "value_basis": basis,
                "signed_on": rec.signed_on,
                "published_on": rec.published_at.date() if rec.published_at else None,
                "link": rec.link,
                "record_version": rec.version_id,
                "record_hash": digest,
            }
        )
    return rows


def _crz_rows(rec: CrzContract, linker: Linker, source: str, digest: str) -> list[dict[str, Any]]:
    """The supplier's row of a CRZ record: the total with amendments when stated, else the contract's sum."""
    if not rec.supplier.name:
        return []
    value, basis = (
        (rec.value_total, "total")
        if rec.value_total is not None
        else (rec.value, "contract")
        if rec.value is not None
        else (None, None)
    )
    party = rec.supplier
    return [
        {
            "source": source,
            "record_key": rec.contract_id,
            "party_ref": party.ref,
            "role": "supplier",
            "party_name": party.name,
            "party_national_id": party.national_id,
            "party_country": party.country,
            **_link(linker.link(party, id_is_authoritative=True)),
            "buyer_name": rec.buyer.name or None,
            "buyer_national_id": rec.buyer.national_id,
            "buyer_country": rec.buyer.country,
            "title": rec.title or rec.number,
            "value": value,
            "currency": "EUR" if value is not None else None,
            "value_basis": basis,
            "signed_on": rec.signed_on,
            "published_on": rec.published_on,
            "link": rec.link,
            "record_version": None,
            "record_hash": digest,
        }
    ]


def _version(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


# -- VAT payers and their bank accounts ------------------------------------------------------------


def write_payer(
    conn: Connection, rec: BankAccountRecord, linker: Linker, stats: LoadStats, source: str
) -> None:
    digest = rec.content_hash()
    row = queries.stored_payer(conn, rec.country, rec.vat_id)
    if row is not None and row.record_hash == digest:
        stats.unchanged += 1
        return
    if row is not None and newer_answer_stored(row.answered_on, rec.answered_on):
        stats.skip("older than the stored answer for this VAT payer")
        return
    decision = (
        linker.by_national_id(rec.country, rec.national_id)
        or linker.by_vat_id(rec.country, rec.vat_id)
        or LinkDecision(None, None, None)
    )
    values = {
        "country": rec.country,
        "vat_id": rec.vat_id,
        "national_id": rec.national_id,
        "company_id": decision.company_id,
        "match_method": decision.method,
        "match_score": decision.score,
        "status": rec.status,
        "status_since": rec.status_since,
        "tax_office": rec.tax_office,
        "name": rec.name,
        "answered_on": rec.answered_on,
        "source": source,
        "record_hash": digest,
        "imported_at": datetime.now(UTC),
    }
    if row is None:
        pk = queries.insert_payer(conn, values)
    else:
        pk = row.id
        queries.replace_payer(conn, pk, values)
    if rec.accounts:
        queries.insert_rows(
            conn,
            bank_accounts,
            [
                {
                    "payer_id": pk,
                    "iban": iban,
                    "account": written,
                    "published_from": since,
                    "published_until": until,
                }
                for iban, written, since, until in rec.accounts
            ],
        )
    _count(stats, row is not None)


def start_of_list(conn: Connection, listed: PayerList, stats: LoadStats, source: str) -> None:
    """Before a complete list's payers: a list older than the newest stored one of its source stops the
    file (replaying an old export never brings removed payers or accounts back); the payers it no longer
    names, unless a newer answer than the list stored them, are removed with their accounts (`changes`)."""
    newest = queries.newest_answer(conn, source, listed.country)
    if newest is not None and newest > listed.as_of:
        raise SourceAbort(f"the list of {listed.as_of} is older than the one imported ({newest})")
    stale = queries.payers_answered_before(conn, source, listed.country, listed.as_of)
    gone = [pk for pk, vat_id in stale if vat_id not in listed.vat_ids]
    queries.delete_payers(conn, gone)
    stats.changes += len(gone)
