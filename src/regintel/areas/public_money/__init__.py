"""Public money (spec 4.1, 4.4, 4.5, 4.7): TED notices, contracts, bank accounts, IBAN and VAT
validation, LEI and bank-code lookups (docs/public-money.md).

Other areas call `bank_accounts` (a company's accounts, IBAN checks) and `contracts` (a company's
contracts, its timeline events, the supplier totals)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("bank_accounts", "contracts")
