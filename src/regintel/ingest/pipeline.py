"""Parsing ahead: a forked process parses the input while the importing process loads batches.

Parsing (XML, JSON, CSV, code lists, identifier checks) and loading (SQL, change detection) each
take about half an import's CPU, so on two cores they overlap. The child only reads the input and
sends parsed items in chunks through a bounded queue; every database write stays in the parent, so
batches still commit whole and a crash of either process leaves the database as a serial import
would. An exception in the parser reaches the parent as the same exception (SourceAbort stops the
import as before).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from regintel.ingest.base import Source
from regintel.ingest.inputs import Input

CHUNK = 500  # items per message: large enough that the queue costs little, small enough to stream
DEPTH = 16  # chunks in flight: bounds the memory a fast parser can run ahead by
PARSE_AHEAD_BYTES = 4 << 20  # below this a fork costs more than the overlap saves
_DONE = "done"
_ERROR = "error"

Chunk = tuple[list[Any], int]  # (items, input bytes read so far)


def worthwhile(size: int | None) -> bool:
    """Parse ahead when there is a second core, fork is available, this process has no other
    threads (forking those is unsafe) and the input is large or of unknown size."""
    return (
        (os.cpu_count() or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and (size is None or size >= PARSE_AHEAD_BYTES)
    )


def parse_here(source: Source, inp: Input) -> Iterator[Chunk]:
    """The serial path: parse in this process, in the same chunks."""
    items: list[Any] = []
    try:
        for item in source.parse(inp.stream, inp.name):
            items.append(item)
            if len(items) >= CHUNK:
                yield items, inp.counter.read_bytes
                items = []
    except Exception:
        # What was parsed before the failure is loaded first, as when items went one by one.
        if items:
            yield items, inp.counter.read_bytes
        raise
    yield items, inp.counter.read_bytes


@contextmanager
def parsed(source: Source, inp: Input, ahead: bool) -> Iterator[Iterator[Chunk]]:
    """The chunks of `inp`: parsed here, or (`ahead`) by a child forked on entry, before the caller
    starts threads of its own (a progress bar), and stopped on exit whatever happened."""
    if not ahead:
        yield parse_here(source, inp)
        return
    ctx = multiprocessing.get_context("fork")
    channel: Any = ctx.Queue(DEPTH)
    child = ctx.Process(
        target=_parse_child, args=(source, inp, channel, os.getpid()), daemon=True, name="regintel-parse"
    )
    child.start()
    try:
        yield _receive(child, channel)
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        channel.close()
        channel.join_thread()


def _receive(child: Any, channel: Any) -> Iterator[Chunk]:
    while True:
        try:
            kind, payload = channel.get(timeout=1.0)
        except queue.Empty:
            if not child.is_alive():
                raise RuntimeError(f"the parsing process died (exit code {child.exitcode})") from None
            continue
        if kind == _DONE:
            return
        if kind == _ERROR:
            raise payload
        yield payload


def _parse_child(source: Source, inp: Input, channel: Any, parent: int) -> None:
    def send(message: tuple[str, Any]) -> None:
        while True:
            try:
                channel.put(message, timeout=1.0)
                return
            except queue.Full:
                if os.getppid() != parent:  # the importer is gone: stop rather than wait forever
                    os._exit(1)

    try:
        for chunk in parse_here(source, inp):
            send(("chunk", chunk))
        send((_DONE, None))
    except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
        send((_ERROR, _portable(exc)))
    channel.close()
    channel.join_thread()


def _portable(exc: BaseException) -> BaseException:
    """`exc` if it survives pickling, else a RuntimeError carrying its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001
        return RuntimeError(f"{type(exc).__name__}: {exc}")
