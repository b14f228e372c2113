"""Fixtures of the accounts tests: the app served by a real uvicorn on 127.0.0.1 (OAuth and OIDC flows run
over real HTTP with authlib's clients)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from regintel.api.app import create_app
from tests.areas_accounts.fakes import serve


@pytest.fixture
def base(settings) -> Iterator[str]:
    """The app on a free port, its `base_url` set to where it listens."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    with serve(create_app(settings.model_copy(update={"base_url": url})), sock) as served:
        yield served
