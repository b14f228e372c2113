"""ASGI entry point for uvicorn workers: `uvicorn regintel.api.asgi:app` (settings from the environment)."""

from regintel.api.app import create_app
from regintel.config import load_settings

app = create_app(load_settings())
