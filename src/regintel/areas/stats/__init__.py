"""Statistics (spec 4.6): counts and breakdowns of the register, their stored snapshots per data version,
and the public statistics feeds (`/public/stats/{feed}`, whose registry other areas add to through
`api/stats_feeds.py`).

Other areas call `service.cached` and `service` figures, and `snapshots.answer` / `snapshots.refresh`.
"""
