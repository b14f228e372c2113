"""Reports (spec 4.4, 4.5): the PDF company report, stored reports rendered by the worker, and the
due-diligence report (rule-based, optionally rewritten by a configured OpenAI-compatible model)."""
