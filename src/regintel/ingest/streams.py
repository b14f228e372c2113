"""Byte-stream helpers: look at the first bytes of an input without losing them, and give any
readable object (a counted file, a gzip or zip member) the full `io` interface text wrappers need."""

from __future__ import annotations

import io
from typing import IO, Any

HEAD_BYTES = 1 << 16


class _Replay(io.RawIOBase):
    """The bytes already peeked at, then the rest of the stream."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        readinto = getattr(self._rest, "readinto", None)
        if readinto is not None:
            return int(readinto(buffer) or 0)
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def peek(stream: IO[bytes], size: int = HEAD_BYTES) -> tuple[bytes, IO[bytes]]:
    """The first `size` bytes and a stream that still starts at the beginning."""
    head = stream.read(size)
    return head, io.BufferedReader(_Replay(head, stream), HEAD_BYTES)


def buffered(stream: IO[bytes]) -> IO[bytes]:
    """`stream` as an `io.BufferedReader` (what `io.TextIOWrapper` and line iteration expect)."""
    return peek(stream, 0)[1]
