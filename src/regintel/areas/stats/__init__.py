"""Statistics (spec 4.6): counts and breakdowns of the register, their stored snapshots per data version,
and the public statistics feeds (`/public/stats/{feed}`, whose registry other areas add to through
`api/stats_feeds.py`).

Other areas call `service.cached` and `service` figures, and `snapshots.answer` / `snapshots.refresh`.
"""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("snapshots",)
