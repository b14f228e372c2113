"""The catalogue (spec 4.1): the code lists (countries, legal forms, NACE, ...) and the data sources with
their licences.

Other areas call `code_lists.parse_country`.
"""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("code_lists",)
