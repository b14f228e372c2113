"""Asynchronous enrichment jobs (spec 4.4, issue 22): a list of identifiers in, their company records out,
computed by `regintel worker` from the jobs table and visible only to the key that asked. docs/enrich.md."""
