"""Security area: company domains, passive security posture, cyber score, brand signals (docs/security-posture.md)."""
