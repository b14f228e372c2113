"""NIS2 rules (Directive (EU) 2022/2555): sector mapping (`sectors`), size class (`size`, `fx`), scoping
(`scope`), obligations (`obligations`, `transposition`) and priority (`priority`). Pure: no I/O besides
reading the package's own mapping file."""
