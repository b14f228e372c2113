"""The public face (spec 4.7 and the root-level pages): company check data and badges, social images,
view counts, rankings, comparisons, HTML pages, sitemaps, CSP reports and the embeddable widget
(docs/pages.md)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py): `aggregates`
# holds the figures the statistics area stores as snapshots.
PUBLIC_MODULES = ("aggregates",)
