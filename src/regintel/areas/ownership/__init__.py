"""Ownership (spec 4.4): relations, graph, network, ultimate owner, UK PSC connections, offshore links and
the i2/Maltego/FtM/BODS exports (docs/ownership.md).

Other areas call `relations` and `ultimate` (a company's relations and ultimate owners) and `entities`
(the entities those are made of, with the natural-persons gate)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("entities", "relations", "ultimate")
