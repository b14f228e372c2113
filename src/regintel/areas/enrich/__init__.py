"""Asynchronous enrichment jobs (spec 4.4, issue 22): a list of identifiers in, their company records out,
computed by `regintel worker` from the jobs table and visible only to the key that asked. docs/enrich.md.

The accounts area calls `privacy.withdraw` when a natural person is withheld or lifted."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("privacy",)
