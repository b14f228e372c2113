"""Compliance (spec 4.4): the KYC/KYB summary, the due-diligence checklist, bulk compliance, the
aggregate `/full` record, supplier and supply-chain risk, filing obligations and the VAT liability check,
built from the public service functions of the scores, screening, ownership, NIS2 and public-money areas
(docs/compliance.md)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py): `debtors`
# is the debtor lists' standing of a company, which the credit score reads.
PUBLIC_MODULES = ("debtors",)
