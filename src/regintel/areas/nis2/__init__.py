"""NIS2 scoping, obligations, priority and sweeps (docs/nis2.md); the rules are in `regintel.domain.nis2`.

The regulated-registers importers call `designations.replace_source`."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("designations",)
