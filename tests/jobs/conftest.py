"""Fixtures for the worker tests: a real signature-checking receiver and a worker on the test database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from regintel.jobs.worker import Worker
from tests.jobs.support import FAST
from tests.webhook_receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    rec = Receiver()
    yield rec
    rec.close()


@pytest.fixture
def make_worker(engine, settings):  # type: ignore[no-untyped-def]
    def make(**overrides: object) -> Worker:
        return Worker(engine, settings.model_copy(update=FAST | overrides))

    return make
