"""The public-money area's SQL, and only here: TED notices, a company's contracts, VAT payers and their
bank accounts, what the importer reads and writes, and what the relink reads. Callers import the module
that holds what they need (`from .queries import notices`)."""
