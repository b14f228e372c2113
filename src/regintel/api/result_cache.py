"""The app's `ResultCache` (aggregates and filter reference data), created with the first request
that needs it and kept on `app.state` for the app's lifetime."""

from __future__ import annotations

import threading
from typing import Annotated

from fastapi import Depends, Request

from regintel.result_cache import ResultCache

_lock = threading.Lock()


def get_result_cache(request: Request) -> ResultCache:
    state = request.app.state
    cache = getattr(state, "result_cache", None)
    if cache is None:
        with _lock:
            cache = getattr(state, "result_cache", None)
            if cache is None:
                cache = state.result_cache = ResultCache()
    return cache


Results = Annotated[ResultCache, Depends(get_result_cache)]
