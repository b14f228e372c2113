"""Values for the Postman collection's variables, read from the served database (issue 16: "Run
collection" on a demo install must be green, so `:ico` and `?q=` cannot stay empty).

Only identifiers the database holds are used: companies of a market whose `{ico}` routes resolve them
(Slovak or Czech, preferring ones with an LEI), a person of the people index, a code list entry and a
bank code. A key `"<path> <name>"` gives a value for one operation only, where a name means different
things (`{key}` is a person on one path and a ranking on others); such a value is sent even when the
parameter is optional (`/companies/lookup` takes `id` or `ico`). A placeholder inside a segment
(`{key}.json`) is a collection variable shared by every request, so the plain name holds its value.
An empty database gives no values."""

from __future__ import annotations

from sqlalchemy import Connection, text

from regintel.areas.compliance.availability import unavailable_sections
from regintel.areas.pages.service import RANKINGS

# `{ico}` routes look an identifier up among the markets whose identifier is a bare number.
_ICO_MARKETS = {"a": "SK", "b": "CZ"}
_V1 = "/api/v1"


def sample_values(conn: Connection) -> dict[str, str]:
    """Parameter name (or `"<path> <name>"`) → a value that exists in this database."""
    values: dict[str, str] = {}
    companies = conn.execute(
        text(
            "SELECT country, national_id, name, lei, address_text FROM companies WHERE country IN (:a, :b) "
            "ORDER BY lei IS NULL, country DESC, national_id LIMIT 2"
        ),
        _ICO_MARKETS,
    ).all()
    if companies:
        country, national_id, name, lei, address = companies[0]
        cc = country.lower()
        first_word = next((w for w in str(name).split() if len(w) >= 3), str(name))
        values.update(
            country=cc,
            cc=cc,
            ico=national_id,
            national_id=national_id,
            q=first_word,
            prefix=first_word[:3],
            address=address or first_word,
            value=national_id,
        )
        values[f"{_V1}/companies/lookup id"] = national_id
        values[f"{_V1}/reconcile/preview id"] = f"{country}:{national_id}"
        pair = ",".join(f"{c.lower()}:{n}" for c, n, *_ in companies)
        if len(companies) == 2:
            values[f"{_V1}/public/compare.json companies"] = pair
            values[f"{_V1}/public/compare-companies.json companies"] = pair
        if lei:
            values["lei"] = lei
    entry = conn.execute(
        text("SELECT list_name, code FROM code_list_items WHERE list_name = 'nace' ORDER BY code LIMIT 1")
    ).first()
    if entry is not None:
        values["listName"] = entry[0]
        values[f"{_V1}/code-lists/{{listName}}/{{code}} code"] = entry[1]
    bank = conn.execute(
        text("SELECT code FROM code_list_items WHERE list_name = 'bank-codes' ORDER BY code LIMIT 1")
    ).first()
    if bank is not None and ":" in bank[0]:
        bank_country, values["code"] = bank[0].split(":", 1)  # `{code}.json` of /public/bank-code
        values[f"{_V1}/public/bank-code/{{country}}/{{code}}.json country"] = bank_country.lower()
    person = conn.execute(text("SELECT person_key FROM people ORDER BY id LIMIT 1")).first()
    if person is not None:
        values[f"{_V1}/companies/person/{{key}} key"] = person[0]
    values["key"] = sorted(RANKINGS)[0]  # `{key}.json` of /public/rankings and /rebricky/{key}
    return values


def unavailable_paths(conn: Connection, values: dict[str, str]) -> dict[str, str]:
    """Path → why it answers 501 `NOT_IMPLEMENTED` for the sample company of `values` on this server."""
    if "ico" not in values:
        return {}
    row = (
        conn.execute(
            text(
                "SELECT id, country, national_id, name FROM companies WHERE country = :c AND national_id = :n"
            ),
            {"c": values["country"].upper(), "n": values["ico"]},
        )
        .mappings()
        .first()
    )
    if row is None:
        return {}
    found = unavailable_sections(conn, dict(row))
    return {f"{_V1}/companies/{{ico}}/{s}": why for s, why in found.items()}
