"""The catalogue (spec 4.1): the code lists (countries, legal forms, NACE, ...) and the data sources with
their licences.

Other areas call `code_lists.parse_country`.
"""
