"""Security area: company domains, passive security posture, cyber score, brand signals.

See docs/security-posture.md.
"""
