"""Sanctions screening: the lists (EU FSF, UN SC, OFAC SDN, UK, OpenSanctions FtM), explainable matching,
company hits, and the advanced-search `sanctioned` filter (docs/screening.md)."""
