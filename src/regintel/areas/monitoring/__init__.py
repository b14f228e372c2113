"""Monitoring (spec 4.3, 6.2): subscriptions on companies and their events, generic webhook subscriptions
and their deliveries, monitoring cases, and the e-mail watch.

Other areas and the jobs call `subscriptions` (create, list), `webhook_targets.resolve_for_delivery`,
`watches.normalise_email` and `watch_mail.render`; `outbox.record_monitoring` is the loader's change hook.
"""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("outbox", "subscriptions", "watch_mail", "watches", "webhook_targets")
