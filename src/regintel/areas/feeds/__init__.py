"""Change and insolvency feeds (spec 4.3, 4.7): the change stream of the register and the insolvency
feeds in JSON, CSV, RSS and Atom.

Other areas call `insolvency_feeds.tag_uri` and `insolvency_feeds.company_url` for feed entry ids.
"""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("insolvency_feeds",)
