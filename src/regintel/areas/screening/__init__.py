"""Sanctions screening: the lists (EU FSF, UN SC, OFAC SDN, UK, OpenSanctions FtM), explainable matching,
company hits, and the advanced-search `sanctioned` filter (docs/screening.md)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py): `privacy`
# is the withholding of natural persons' hits that the accounts area's erasure calls.
PUBLIC_MODULES = ("privacy",)
