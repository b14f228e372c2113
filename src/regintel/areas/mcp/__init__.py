"""AI clients (spec 1, 4.1, 5): the MCP tool server at `/mcp` (Streamable HTTP, and `regintel mcp` over
stdio) with 13 tools over the same services the REST routes use, and the agent company brief
`GET /api/v1/agent/company-brief`. docs/mcp.md."""
