"""NIS2 scoping, obligations, priority and sweeps (docs/nis2.md); the rules are in `regintel.domain.nis2`."""
