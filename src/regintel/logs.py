"""Logging of `serve` and `worker` processes: plain lines by default, or one JSON object per line
(`REGINTEL_LOG_FORMAT=json`) for log collectors, with `request_id` and the access fields as keys."""

from __future__ import annotations

import logging

from pythonjsonlogger.json import JsonFormatter

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def setup(level: str, fmt: str) -> None:
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"levelname": "level", "name": "logger"},
                timestamp=True,
            )
        )
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
