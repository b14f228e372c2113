"""Security area: company domains, passive security posture, cyber score, brand signals.

See docs/security-posture.md.

The pages area reads `signals.rules` (the technology fingerprints).
"""

# Modules other areas may import besides `service` and `schemas` (tools/import_contracts.py).
PUBLIC_MODULES = ("signals",)
