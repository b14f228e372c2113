"""The registry of import sources: `regintel import <id> PATH_OR_URL`."""

from __future__ import annotations

from regintel.ingest.base import Source

SOURCES: dict[str, Source] = {}


def register(source: Source) -> Source:
    SOURCES[source.info.id] = source
    return source


def get_source(name: str) -> Source:
    _load_all()
    return SOURCES[name]


def all_sources() -> list[Source]:
    _load_all()
    return [SOURCES[k] for k in sorted(SOURCES)]


def _load_all() -> None:
    """Import every source module so each registers itself (a plain registry, no plugin system)."""
    import importlib
    import pkgutil

    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
