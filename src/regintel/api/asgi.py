"""ASGI entry point for uvicorn workers: `uvicorn regintel.api.asgi:app` (settings from the environment).

Each worker process sets up logging itself (REGINTEL_LOG_LEVEL): `regintel.access` logs every
request at INFO."""

import logging

from regintel.api.app import create_app
from regintel.config import load_settings

settings = load_settings()
logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
app = create_app(settings)
