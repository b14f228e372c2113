"""Scores: financial history, credit score and grade, credit limit, risk, peers, competitors, disputes
(spec 4.4; docs/scores.md). Other areas call `service.credit_grade` and `service.risk`, and `views` (the
answers of the financial-history, credit-score and risk routes)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("views",)
