"""Accounts (spec 4.8, issue 23): e-mail magic-link sign-in, cookie sessions with CSRF protection, the
account's API keys and watches, and the natural-persons addendum (docs/accounts.md).

The MCP server reads `oauth.SCOPE` (the scope its access tokens carry)."""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("oauth",)
