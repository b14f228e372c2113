"""The counter file counted on the event loop only when that cannot wait (db/counters.py `WouldWait`):
another process's write lock, another thread's turn, or the checkpoint turn send the call to a thread,
having counted nothing, and the WAL stays bounded though the loop's connection never checkpoints."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from regintel.db.counters import SQLiteCounterStorage, WouldWait


def _storage(tmp_path: Path) -> SQLiteCounterStorage:
    return SQLiteCounterStorage(f"regintel+sqlite:///{tmp_path / 'counters.db'}")


def _count(storage: SQLiteCounterStorage, wait: bool) -> None:
    with storage.transaction(wait):
        storage.incr("ip/1", 60)
        storage.incr("key/1", 60)
        storage.incr("quota/1/2026-12", 86_400)


def test_another_processes_write_lock_makes_it_wait_elsewhere_having_counted_nothing(tmp_path: Path):
    storage = _storage(tmp_path)
    other = sqlite3.connect(tmp_path / "counters.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(WouldWait):
        _count(storage, wait=False)
    assert time.monotonic() - started < 1  # refused at once, not after the 30 s busy timeout
    other.execute("ROLLBACK")
    assert storage.get("ip/1") == 0
    _count(storage, wait=False)
    assert [storage.get(k) for k in ("ip/1", "key/1", "quota/1/2026-12")] == [1, 1, 1]


def test_another_threads_turn_makes_it_wait_elsewhere(tmp_path: Path):
    storage = _storage(tmp_path)
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with storage.transaction(wait=True):
            storage.incr("ip/1", 60)
            inside.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(10)
    with pytest.raises(WouldWait):
        _count(storage, wait=False)
    release.set()
    holder.join()
    assert storage.get("ip/1") == 1 and storage.get("key/1") == 0
    _count(storage, wait=True)  # the waiting path counts the same call
    assert storage.get("ip/1") == 2 and storage.get("key/1") == 1


def test_one_call_in_checkpoint_every_goes_to_a_thread(tmp_path: Path):
    storage = _storage(tmp_path)
    declined = 0
    for _ in range(4 * storage.CHECKPOINT_EVERY):
        try:
            _count(storage, wait=False)
        except WouldWait:
            declined += 1
    assert declined == 4
    assert storage.get("key/1") == 4 * storage.CHECKPOINT_EVERY - 4


def test_the_wal_stays_bounded_when_nearly_every_call_is_inline(tmp_path: Path):
    storage = _storage(tmp_path)
    wal = tmp_path / "counters.db-wal"
    # As api/deps.py does: inline on this thread, the declined calls in another thread (a worker).
    for n in range(12_000):
        try:
            with storage.transaction(wait=False):
                storage.incr(f"ip/{n % 500}", 60)
                storage.incr(f"key/{n % 700}", 60)
                storage.incr(f"quota/{n % 900}/2026-12", 86_400)
        except WouldWait:
            worker = threading.Thread(target=_count, args=(storage, True))
            worker.start()
            worker.join()
    # 12,000 commits of three rows spread over many pages write tens of MB of WAL frames when nothing
    # checkpoints; the waiting calls' connections checkpoint once the WAL passes 1,000 pages.
    assert wal.stat().st_size < 12 * 2**20, wal.stat().st_size


def test_a_request_waits_in_a_thread_while_another_process_holds_the_counter_file(client, make_key, settings):
    raw = make_key("free")
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"}).status_code == 200
    other = sqlite3.connect(settings.data_dir / "counters.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(0.5, lambda: other.execute("COMMIT"))
    timer.start()
    try:
        resp = client.get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"})
    finally:
        timer.join()
    assert resp.status_code == 200
    assert resp.json()["data"]["usage"]["used"] == 2  # counted once, after the lock was given back
    assert resp.headers["X-Quota-Remaining"] == str(resp.json()["data"]["usage"]["limit"] - 2)
