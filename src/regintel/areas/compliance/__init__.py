"""Compliance (spec 4.4): the KYC/KYB summary, the due-diligence checklist, bulk compliance, the
aggregate `/full` record, supplier and supply-chain risk, filing obligations and the VAT liability check,
built from the public service functions of the scores, screening, ownership, NIS2 and public-money areas
(docs/compliance.md)."""
