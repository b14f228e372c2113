"""Legal records (docs/legal-records.md): court decisions, antitrust cases, environmental permits (IPKZ
installations) and the Czech collection of laws, linked to companies.

The accounts area calls `privacy` (withholding a natural person named in them)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("privacy",)
