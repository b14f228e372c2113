"""Renderers: pure functions from data to output documents (no database, no FastAPI)."""
