"""One router per endpoint group; `ROUTERS` is the order they are mounted in."""

from fastapi import APIRouter

from regintel.api.routers import me, status

ROUTERS: list[APIRouter] = [me.router, status.router]
