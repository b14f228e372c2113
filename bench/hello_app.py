"""Hello-world baselines served by uvicorn exactly like regintel, to compare regintel with.

`app` is bare ASGI (no framework, no middleware, no database): the ceiling of uvicorn on this
machine. `starlette_app` adds only Starlette routing and a JSON response, the floor of any
framework app; the gap between the two is framework cost, the rest is ours.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

BODY = b'{"hello":"world"}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})


async def _hello(request: Request) -> JSONResponse:
    return JSONResponse({"hello": "world"})


starlette_app = Starlette(routes=[Route("/", _hello)])
