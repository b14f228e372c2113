"""`regintel privacy list|show|export|answer|lift|reapply`: the operator answers data-protection requests
(GDPR: one month from verification, `due_at`). Mounted by regintel/cli.py; the work is in
areas/accounts/privacy.py."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

privacy_app = typer.Typer(
    help="Data-protection requests (GDPR art. 15-21): list, show, export, answer, lift.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)
console = Console(width=None if sys.stdout.isatty() else 200)
notes = Console(stderr=True)  # hints, so stdout stays one JSON document


def _engine() -> Any:
    from regintel.config import load_settings
    from regintel.db.engine import make_engine
    from regintel.db.migrate import upgrade

    engine = make_engine(load_settings().database_url, pool=False)
    upgrade(engine)
    # The operator's commands read, then write: on SQLite they take the write lock first, so a writer
    # committing in between (a serve process's index jobs) makes them wait, not fail "database is locked".
    return engine.execution_options(sqlite_immediate=True)


def _print_json(data: Any) -> None:
    print(json.dumps(data, default=str, ensure_ascii=False, indent=2))


def _fail(error: Exception) -> None:
    console.print(f"[red]{error}")
    raise typer.Exit(2)


@privacy_app.command("list")
def privacy_list(
    all_: Annotated[bool, typer.Option("--all", help="Also the requests already answered")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array")] = False,
) -> None:
    """Open requests, the soonest deadline first, with the days left (negative and OVERDUE once past)."""
    from regintel.areas.accounts.privacy import list_requests

    with _engine().connect() as conn:
        rows = list_requests(conn, open_only=not all_)
    if as_json:
        _print_json(rows)
        return
    table = Table(
        "id",
        "kind",
        "email",
        "status",
        "created",
        "due",
        "days left",
        "persons named",
        title=("privacy requests" if all_ else "open privacy requests"),
    )
    for r in rows:
        left = "" if r["days_left"] is None else ("OVERDUE " if r["overdue"] else "") + str(r["days_left"])
        named = ", ".join(filter(None, [r["person_name"], *[f"p:{k}" for k in r["person_keys"]]]))
        table.add_row(
            str(r["id"]),
            r["kind"],
            r["email"],
            r["status"],
            f"{r['created_at']:%Y-%m-%d}",
            f"{r['due_at']:%Y-%m-%d}" if r["due_at"] else "(not verified)",
            left,
            named,
        )
    console.print(table)
    console.print(f"{len(rows)} request(s)")


@privacy_app.command("show")
def privacy_show(request_id: int) -> None:
    """One request (JSON) with the register persons it may be about: named by key, or with the name it gives.
    Compare birth date and companies with the requester before withholding any of them."""
    from regintel.areas.accounts.privacy import show_request
    from regintel.errors import RegintelError

    with _engine().connect() as conn:
        try:
            _print_json(show_request(conn, request_id))
        except RegintelError as error:
            _fail(error)


@privacy_app.command("answer")
def privacy_answer(
    request_id: int,
    outcome: Annotated[str, typer.Option(help="What was done or answered (kept with the request)")],
    withhold: Annotated[
        list[str] | None,
        typer.Option(
            help="erase/object: a register person key (`p:…`, from `show`) matched to the requester; "
            "repeat for several"
        ),
    ] = None,
    withhold_party: Annotated[
        list[str] | None,
        typer.Option(
            help="erase/object: the name of a natural person named as a party in court decisions or "
            "antitrust cases (`legal_record_candidates` of `show`) matched to the requester; repeat for "
            "several"
        ),
    ] = None,
    withhold_company: Annotated[
        list[str] | None,
        typer.Option(
            help="erase/object: a sole trader's register entry, COUNTRY:NATIONAL_ID, matched to the "
            "requester (the company row and what hangs on it); repeat for several"
        ),
    ] = None,
) -> None:
    """Close a verified request. With `--withhold`, the persons' register records are removed from every
    endpoint, export and feed and kept out of later imports; with `--withhold-party`, the person's name
    leaves the legal records. The request and the suppression stay recorded."""
    from regintel.areas.accounts.privacy import answer_request
    from regintel.errors import RegintelError

    with _engine().begin() as conn:
        try:
            out = answer_request(
                conn, request_id, outcome, withhold or [], withhold_party or [], withhold_company or []
            )
        except RegintelError as error:
            _fail(error)
            return
    _print_json(out)
    if out["withheld"]:
        notes.print("run `regintel search rebuild` to drop the withheld names from the search index too")


@privacy_app.command("export")
def privacy_export(
    request_id: int,
    person: Annotated[
        list[str] | None,
        typer.Option(
            help="A register person key (`p:…`, from `show`) matched to the requester; repeat for several"
        ),
    ] = None,
) -> None:
    """The answer to a verified access request as one JSON document, for the operator to send: what the
    service holds about the address, and the register records of the persons matched to the requester."""
    from regintel.areas.accounts.privacy import access_export
    from regintel.errors import RegintelError

    with _engine().connect() as conn:
        try:
            _print_json(access_export(conn, request_id, person or []))
        except RegintelError as error:
            _fail(error)


@privacy_app.command("lift")
def privacy_lift(
    person_key: Annotated[
        str,
        typer.Argument(
            help="The withheld person's key (`p:…`), a withheld party's (`lr:…`) or sole trader's (`c:…`)"
        ),
    ],
) -> None:
    """Put a withheld person's register rows back (kept aside when they were withheld) and end the
    suppression, e.g. when an objection is overruled or a match was wrong; the request record stays."""
    from datetime import UTC, datetime

    from regintel.areas.accounts.privacy import lift_party, lift_person
    from regintel.errors import RegintelError

    with _engine().begin() as conn:
        try:
            if person_key.startswith("lr:"):
                _print_json(lift_party(conn, person_key))
                return
            if person_key.startswith("c:"):
                from regintel.areas.accounts.traders import lift_company

                _print_json(lift_company(conn, person_key))
                notes.print("run `regintel search rebuild` so the search index finds the company again")
                return
            out = lift_person(conn, person_key, datetime.now(UTC))
        except RegintelError as error:
            _fail(error)
            return
    _print_json(out)
    notes.print("run `regintel search rebuild` so the search index finds the person again")


@privacy_app.command("reapply")
def privacy_reapply() -> None:
    """Withhold again what imports wrote back since it was withheld: parties of legal records (a changed
    court decision or antitrust case is stored again with the names as published) and sole traders'
    register entries. Run it after imports."""
    from datetime import UTC, datetime

    from regintel.areas.accounts.privacy import reapply_parties
    from regintel.areas.accounts.traders import reapply_companies

    with _engine().begin() as conn:
        now = datetime.now(UTC)
        _print_json({**reapply_parties(conn, now), **reapply_companies(conn, now)})
