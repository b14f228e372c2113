"""Regulatory feed (spec 4.7, issue 20): five regulators' publications imported from their RSS/Atom
feeds, tagged by a documented rule set, served as JSON, Atom, RSS, CSV, HTML and a Markdown digest; and
the public statistics feed `uk-psc` over the Companies House PSC entries (docs/regulatory-feed.md).

Other areas may call `service.entries` and `service.stats`."""
