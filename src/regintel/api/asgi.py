"""ASGI entry point for uvicorn workers: `uvicorn regintel.api.asgi:app` (settings from the environment).

Each worker process sets up logging itself (REGINTEL_LOG_LEVEL): `regintel.access` logs every
request at INFO."""

from regintel import logs
from regintel.api.app import create_app
from regintel.config import load_settings

settings = load_settings()
logs.setup(settings.log_level, settings.log_format)
app = create_app(settings)
