"""regintel: European company registry intelligence."""

__version__ = "0.1.0"
