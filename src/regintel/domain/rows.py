"""`Row`: what a domain function needs of a database row, a value per column name.

SQLAlchemy's `RowMapping` is a `Mapping[str | column, Any]` (a column object is a key too), so it is not
a `Mapping[str, Any]` to the type checker; a dict built by hand is not a `RowMapping`. Domain functions
that read rows by name take this protocol, which both satisfy, and import nothing of SQLAlchemy.
"""

from __future__ import annotations

from typing import Any, Protocol


class Row(Protocol):
    def __getitem__(self, key: str, /) -> Any: ...
