"""The `regintel` command: serve, db, keys, openapi, import, demo, synth, search, stats, worker, mcp."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine

from regintel.areas.accounts.cli import privacy_app
from regintel.config import Settings, load_settings
from regintel.db.engine import begin_write, make_engine

# Markdown: docstrings wrapped at 110 columns read as paragraphs, not as broken lines.
app = typer.Typer(
    help="regintel: European company registry intelligence service.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)
db_app = typer.Typer(help="Database schema.", no_args_is_help=True, rich_markup_mode="markdown")
keys_app = typer.Typer(help="API keys.", no_args_is_help=True, rich_markup_mode="markdown")
stats_app = typer.Typer(
    help="The statistics endpoints' precomputed aggregates.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)
app.add_typer(db_app, name="db")
app.add_typer(keys_app, name="keys")
app.add_typer(stats_app, name="stats")
app.add_typer(privacy_app, name="privacy")  # areas/accounts/cli.py: the operator answers privacy requests
# Off a terminal (a pipe, a log, CI) Rich assumes 80 columns and cut table cells to "gleif_…".
console = Console(width=None if sys.stdout.isatty() else 200)


@app.command()
def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: Annotated[
        int | None, typer.Option(help="API processes; default REGINTEL_WORKERS, else one per CPU core")
    ] = None,
    reload: bool = False,
    log_level: str | None = None,
) -> None:
    """Serve the API with uvicorn (upgrades the schema first unless REGINTEL_AUTO_MIGRATE=0). The log
    level defaults to REGINTEL_LOG_LEVEL; requests are logged at INFO by `regintel.access`, with any
    `api_key` parameter masked (uvicorn's own access log, which would print keys, is off)."""
    import shutil
    import socket
    import tempfile

    import uvicorn

    from regintel.api.http_protocol import HttpProtocol
    from regintel.db.migrate import upgrade
    from regintel.ingest.seed import seed_reference_data

    settings = load_settings()
    workers = 1 if reload else (workers or settings.workers or os.cpu_count() or 1)
    try:  # a busy port, said plainly before any worker starts (uvicorn would exit with code 3)
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        console.print(
            f"[red]cannot listen on {host}:{port}: {exc.strerror}; is another server running "
            "there? Choose another with --port"
        )
        raise typer.Exit(2) from None
    if settings.auto_migrate:
        engine = make_engine(settings.database_url, pool=False)
        upgrade(engine)
        seed_reference_data(engine)
    level = (log_level or settings.log_level).lower()
    os.environ["REGINTEL_LOG_LEVEL"] = level.upper()  # read by each worker process in regintel.api.asgi
    if workers > 1:  # Prometheus figures summed over the worker processes (api/metrics.py)
        metrics_dir = tempfile.mkdtemp(prefix="regintel-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    console.print(
        f"regintel on http://{shown}:{port} with {workers} worker process(es): interactive docs at "
        f"http://{shown}:{port}/api/v1/public/swagger; most operations need a key "
        "(`regintel keys create --name me`)",
        soft_wrap=True,
    )
    try:
        # uvicorn kills a worker that does not answer its supervisor's ping within the health-check timeout
        # (5 s by default) and starts another: on a busy small machine a worker still importing the app
        # missed it and was replaced again and again. 30 s still replaces a hung worker.
        uvicorn.run(
            "regintel.api.asgi:app",
            host=host,
            port=port,
            workers=workers,
            reload=reload,
            log_level=level,
            access_log=False,
            proxy_headers=settings.trust_forwarded_for,
            timeout_worker_healthcheck=30,
            http=HttpProtocol,
        )
    finally:
        if workers > 1:
            shutil.rmtree(metrics_dir, ignore_errors=True)


@db_app.command("upgrade")
def db_upgrade(revision: str = "heads") -> None:
    """Apply migrations up to REVISION (default: all heads)."""
    from regintel.db.migrate import current_revision, upgrade
    from regintel.ingest.seed import seed_reference_data

    engine = make_engine(load_settings().database_url, pool=False)
    upgrade(engine, revision)
    seed_reference_data(engine)
    console.print(f"schema at revision {current_revision(engine)}")


@keys_app.command("create")
def keys_create(
    name: Annotated[str, typer.Option(help="A label for the key")],
    plan: Annotated[str | None, typer.Option(help="Plan name from the settings")] = None,
) -> None:
    """Create a key and print it once; only its hash is stored."""
    from regintel.db.keys import create_key
    from regintel.db.migrate import upgrade

    settings = load_settings()
    plan = (plan or settings.default_plan).lower()
    if plan not in settings.plans:
        console.print(f"[red]unknown plan {plan!r}; plans: {', '.join(settings.plans)}")
        raise typer.Exit(2)
    engine = make_engine(settings.database_url, pool=False)
    upgrade(engine)
    with begin_write(engine) as conn:
        key, raw = create_key(conn, name, plan, duration_days=settings.plans[plan].duration_days)
    console.print(f"key id {key.id} ({key.name}, plan {key.plan}); store it now, it is not shown again:")
    print(raw)


@keys_app.command("list")
def keys_list() -> None:
    """List keys (never the keys themselves)."""
    from regintel.db.keys import list_keys

    engine = make_engine(load_settings().database_url, pool=False)
    table = Table("id", "name", "plan", "prefix", "created", "expires", "revoked")
    with engine.connect() as conn:
        for k in list_keys(conn):
            table.add_row(
                str(k.id),
                k.name,
                k.plan,
                k.prefix,
                f"{k.created_at:%Y-%m-%d %H:%M}",
                f"{k.expires_at:%Y-%m-%d %H:%M}" if k.expires_at else "",
                f"{k.revoked_at:%Y-%m-%d %H:%M}" if k.revoked_at else "",
            )
    console.print(table)


@keys_app.command("revoke")
def keys_revoke(key_id: int) -> None:
    """Revoke a key by id; it answers 401 from then on."""
    from regintel.db.keys import revoke_key

    engine = make_engine(load_settings().database_url, pool=False)
    with begin_write(engine) as conn:
        key = revoke_key(conn, key_id)
    console.print(f"revoked key {key.id} ({key.name}) at {key.revoked_at:%Y-%m-%d %H:%M:%S}")


@app.command()
def openapi() -> None:
    """Print the OpenAPI 3.1 document as JSON."""
    from regintel.api.app import create_app

    settings = load_settings()
    sys.stdout.write(json.dumps(create_app(settings).openapi(), indent=2, ensure_ascii=False) + "\n")


@app.command("import")
def import_cmd(
    source: Annotated[str, typer.Argument(help="Source id, see `regintel sources`")],
    location: Annotated[str, typer.Argument(help="File path (.gz and .zip accepted) or URL")],
    batch_size: int = 2_000,
) -> None:
    """Import a register file: streamed, batched, idempotent, with a change log and a reject file."""
    from regintel.db.migrate import upgrade
    from regintel.ingest.base import SourceAbort
    from regintel.ingest.runner import run_import
    from regintel.ingest.sources import all_sources, get_source

    settings = load_settings()
    try:
        src = get_source(source)
    except KeyError:
        console.print(
            f"[red]unknown source {source!r}; sources: {', '.join(s.info.id for s in all_sources())}"
        )
        raise typer.Exit(2) from None
    engine = make_engine(settings.database_url, pool=False)
    upgrade(engine)
    try:
        run_id, stats, rejects = run_import(
            engine, src, location, settings.data_dir, progress=True, batch_size=batch_size
        )
    except SourceAbort as exc:
        console.print(f"[red]import aborted: {exc}")
        raise typer.Exit(1) from None
    table = Table(
        "read",
        "inserted",
        "updated",
        "unchanged",
        "skipped",
        "rejected",
        "changes",
        title=f"{source} run {run_id}",
    )
    s = stats
    table.add_row(
        *(str(v) for v in (s.read, s.inserted, s.updated, s.unchanged, s.skipped, s.rejected, s.changes))
    )
    console.print(table)
    summary = stats.as_dict()
    for reason, n in summary["skip_reasons"].items():
        console.print(f"  skipped {n}: {reason}")
    for reason, n in summary["reject_reasons"].items():
        console.print(f"  rejected {n}: {reason}")
    if rejects:
        console.print(f"rejected rows with reasons: {rejects}")
    _refresh_search(engine, settings)
    _refresh_stats(engine)


# Real lists (see data/demo/LICENCES.md), so that screening answers on a demo install instead of 501.
DEMO_LISTS = [
    ("sanctions_eu_fsf", "eu_fsf_xml_1_1_sample.xml"),
    ("sanctions_uk", "uk_sanctions_list_sample.xml"),
    ("sanctions_un", "un_sc_consolidated_list_2026-02-27.xml"),
]


def _demo_sanctions(engine: Engine) -> None:
    from importlib import resources

    from regintel.areas.screening.importer import import_list

    for list_id, name in DEMO_LISTS:
        with resources.as_file(resources.files("regintel") / "data" / "demo" / name) as path:
            stats = import_list(engine, list_id, path)
        console.print(f"sanctions list {list_id}: {stats.read} entries read, {stats.inserted} new")


def _run_queued_jobs(engine: Engine, settings: Settings) -> None:
    """Run what the imports queued (sanctions hits, peer groups …) here rather than leave it to a
    `regintel worker` the demo user may not start."""
    from regintel import areas
    from regintel.jobs.runner import run_due

    areas.load_jobs()
    started, ran = time.perf_counter(), 0
    while (batch := run_due(engine, settings, "demo", limit=20)) > 0:
        ran += batch
    console.print(f"queued jobs run: {ran} ({time.perf_counter() - started:.1f} s)")


def _refresh_search(engine: Engine, settings: Settings) -> None:
    """Leave the search index current with what was just written, and finish the `search.index` jobs
    the run's batches queued, so no worker has to be running for it."""
    from regintel.jobs.search_index import finish

    started = time.perf_counter()
    outcome = finish(engine, settings)
    console.print(f"search index {outcome} ({time.perf_counter() - started:.1f} s)")


def _refresh_stats(engine: Engine, stale_only: bool = True) -> None:
    """Leave the statistics snapshots current with what was just written, so that no request has to
    aggregate the whole database."""
    from regintel.areas.stats.snapshots import AGGREGATES, refresh

    started = time.perf_counter()
    written = refresh(engine, stale_only=stale_only)
    rest = len(AGGREGATES) - len(written)
    console.print(
        f"statistics snapshots: {len(written)} computed"
        + (
            f", {rest} left as they are (already current, or answering 501 until their data source "
            "is imported)"
            if rest
            else ""
        )
        + f" ({time.perf_counter() - started:.1f} s)"
    )


@stats_app.command("refresh")
def stats_refresh(
    stale_only: Annotated[
        bool, typer.Option(help="Only those not computed for the current data version")
    ] = False,
) -> None:
    """Compute the statistics endpoints' whole-database aggregates and store them for the current data
    version (imports, `demo`, `synth` and the worker do this by themselves)."""
    from regintel.db.migrate import upgrade

    engine = make_engine(load_settings().database_url, pool=False)
    upgrade(engine)
    _refresh_stats(engine, stale_only)


@app.command("sources")
def sources_cmd() -> None:
    """List the import sources with their formats and licences."""
    from regintel.ingest.sources import all_sources

    table = Table("id", "country", "formats", "licence", "publisher")
    for src in all_sources():
        i = src.info
        table.add_row(i.id, i.country or "", i.formats, i.licence, i.publisher)
    console.print(table)


@app.command()
def worker(once: Annotated[bool, typer.Option(help="Deliver what is due now, then exit")] = False) -> None:
    """Deliver the webhook and e-mail outbox (at least once, signed, retried with back-off) until SIGTERM.
    PostgreSQL: run as many as needed; SQLite: run one."""
    import logging

    from regintel.db.migrate import upgrade
    from regintel.jobs.worker import run_worker

    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    engine = make_engine(settings.database_url)
    upgrade(engine)
    done = run_worker(engine, settings, once=once)
    if once:
        console.print(f"worked through {done} deliveries and e-mails")


@app.command("mcp")
def mcp_cmd(
    api_key: Annotated[
        str | None,
        typer.Option(
            envvar="REGINTEL_API_KEY", help="Act for this API key: its monitoring list, limits and quota"
        ),
    ] = None,
) -> None:
    """Serve the MCP tools over stdio for a local client (the same 13 tools as `/mcp`)."""
    from regintel.areas.mcp import stdio
    from regintel.errors import RegintelError

    try:
        stdio.run(load_settings(), api_key)
    except RegintelError as exc:
        Console(stderr=True).print(f"[red]{exc.code}: {exc.message}[/red]")
        raise typer.Exit(1) from None


search_app = typer.Typer(
    help="The name/address search index (derived from the database).",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)
app.add_typer(search_app, name="search")


@search_app.command("rebuild")
def search_rebuild(
    renormalise: Annotated[
        bool, typer.Option(help="First recompute name_norm/address_norm with the current normaliser")
    ] = False,
) -> None:
    """Build the search index from the database and swap it in atomically (readers keep working)."""
    from regintel.db.migrate import upgrade
    from regintel.search import get_backend, index_transaction
    from regintel.search.maintenance import renormalise as recompute

    settings = load_settings()
    engine = make_engine(settings.database_url, pool=False)
    upgrade(engine)
    if renormalise:
        console.print(f"renormalised: {recompute(engine)}")
    backend = get_backend(engine, settings)
    started = time.perf_counter()
    with index_transaction(engine) as conn:
        count = backend.rebuild(conn)
    console.print(
        f"{backend.name} index rebuilt: {count:,} documents in {time.perf_counter() - started:.1f} s"
    )


@search_app.command("status")
def search_status() -> None:
    """Show the search backend, its document count and the newest change it has seen."""
    from regintel.search import get_backend

    settings = load_settings()
    engine = make_engine(settings.database_url, pool=False)
    with engine.connect() as conn:
        status = get_backend(engine, settings).status(conn)
    console.print(status)


@app.command()
def synth(
    entities: Annotated[int, typer.Option("--entities", "-n", min=1, help="How many companies to generate")],
    seed: Annotated[int, typer.Option(help="Same seed and count give the same rows")] = 42,
    append: Annotated[
        bool,
        typer.Option(
            help="Add to a database that already holds companies (continues an earlier synth run "
            "with the same seed; also resumes an interrupted one)"
        ),
    ] = False,
    workers: Annotated[int | None, typer.Option(help="Generator processes (default: one per core)")] = None,
    as_of: Annotated[
        str, typer.Option(help="Reference date of the data (ISO); statements end the year before")
    ] = "2026-01-01",
    search: Annotated[bool, typer.Option(help="Bring the search index up to date afterwards")] = True,
    stats: Annotated[bool, typer.Option(help="Precompute the statistics snapshots afterwards")] = True,
) -> None:
    """Generate deterministic synthetic companies in all 23 markets, with valid national ids, VAT ids,
    LEIs and IBANs, people and roles, ownership chains with cycles and annual statements (bulk path)."""
    from datetime import date

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from regintel.db.migrate import upgrade
    from regintel.synth.build import SynthRefused, build

    settings = load_settings()
    engine = make_engine(settings.database_url, pool=False)
    upgrade(engine)
    with Progress(
        TextColumn("[bold]synth"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    ) as bar:
        task = bar.add_task("synth", total=entities)
        try:
            result = build(
                engine,
                entities,
                seed,
                as_of=date.fromisoformat(as_of),
                append=append,
                workers=workers,
                on_chunk=lambda done: bar.update(task, completed=done),
            )
        except SynthRefused as exc:
            console.print(f"[red]{exc}")
            raise typer.Exit(2) from None
    rate = result.entities / result.seconds if result.seconds else 0.0
    console.print(
        f"synthetic run {result.run_id}: {result.entities:,} companies from index {result.start:,} "
        f"in {result.seconds:.1f} s ({rate:,.0f}/s); {result.rows['companies']:,} synthetic in total"
    )
    if search:
        _refresh_search(engine, settings)
    if stats:
        _refresh_stats(engine)


@app.command()
def demo() -> None:
    """Load the bundled demo data (real open-data records of 7 registers and GLEIF, with licences)."""
    from regintel.db.migrate import upgrade
    from regintel.ingest.demo import load_demo
    from regintel.ingest.seed import seed_reference_data

    settings = load_settings()
    engine = make_engine(settings.database_url, pool=False)
    upgrade(engine)
    seed_reference_data(engine)
    table = Table(
        "source", "file", "read", "inserted", "updated", "unchanged", "skipped", "rejected", title="demo data"
    )
    reasons: dict[str, int] = {}
    for source, name, s in load_demo(engine, settings.data_dir, progress=True):
        table.add_row(
            source,
            name,
            *(str(v) for v in (s.read, s.inserted, s.updated, s.unchanged, s.skipped, s.rejected)),
        )
        for reason, n in s.as_dict()["reject_reasons"].items():
            reasons[f"{source}: {reason}"] = reasons.get(f"{source}: {reason}", 0) + n
    console.print(table)
    if reasons:
        console.print(
            f"{sum(reasons.values())} rows were rejected (each with its reason, one JSON object a line, "
            f"in {settings.data_dir / 'rejects'}):"
        )
        for reason, n in sorted(reasons.items()):
            console.print(f"  {n} {reason}")
    _demo_sanctions(engine)
    console.print("licences and attribution: GET /api/v1/public/data-sources")
    _refresh_search(engine, settings)
    _refresh_stats(engine)
    _run_queued_jobs(engine, settings)
