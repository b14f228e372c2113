"""The registry of import sources: `regintel import <id> PATH_OR_URL`."""

from __future__ import annotations

from regintel.ingest.base import Source

SOURCES: dict[str, Source] = {}


def register(source: Source) -> Source:
    SOURCES[source.info.id] = source
    return source


def get_source(name: str) -> Source:
    """The source of that id: its own module first (ids are module names), all of them only when it is
    not one. An API process asks this for a licence line (the bank-accounts section of a company), and
    importing every importer, with their PDF, iXBRL and HTML parsers, cost a first request 350 ms."""
    if name not in SOURCES and name in _module_names():
        import importlib

        importlib.import_module(f"{__name__}.{name}")
    if name not in SOURCES:
        _load_all()
    return SOURCES[name]


def all_sources() -> list[Source]:
    _load_all()
    return [SOURCES[k] for k in sorted(SOURCES)]


def _module_names() -> set[str]:
    import pkgutil

    return {mod.name for mod in pkgutil.iter_modules(__path__)}


def _load_all() -> None:
    """Import every source module so each registers itself (a plain registry, no plugin system)."""
    import importlib
    import pkgutil

    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
