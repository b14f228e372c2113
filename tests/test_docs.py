"""Documentation stays true: every setting documented, every CLI command listed."""

from __future__ import annotations

from pathlib import Path

from typer.main import get_command

from regintel.cli import app
from regintel.config import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_every_setting_is_documented():
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [name for name in Settings.model_fields if f"REGINTEL_{name.upper()}" not in text]
    assert missing == []


def test_every_cli_command_is_in_the_readme_or_docs():
    text = (ROOT / "README.md").read_text(encoding="utf-8") + (ROOT / "docs" / "cli.md").read_text(
        encoding="utf-8"
    )
    commands = get_command(app).commands  # type: ignore[attr-defined]
    missing = [name for name in commands if f"regintel {name}" not in text]
    assert missing == []


def test_readme_has_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "regintel demo && .venv/bin/regintel serve" in text
    assert "pip install -q -e '.[test]' && .venv/bin/python -m pytest" in text
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -q -e '.[test]' && .venv/bin/python -m pytest -q -p no:cacheprovider" in ci
