"""The `areas_public` import-linter contract (tools/import_contracts.py, pyproject.toml): run by lint-imports
on a package built for each test, so that a forbidden import is seen to break it and an allowed one not."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

CONFIG = """
[tool.importlinter]
root_package = "fakeapp"
contract_types = ["areas_public: tools.import_contracts.AreasPublicContract"]

[[tool.importlinter.contracts]]
name = "areas import only each other's public modules"
type = "areas_public"
areas = "fakeapp.areas"
always_public = ["service", "schemas"]
declaration = "PUBLIC_MODULES"
"""


def _package(root: Path, files: dict[str, str], config: str = CONFIG) -> None:
    base = {
        "fakeapp/__init__.py": "",
        "fakeapp/areas/__init__.py": "",
        "fakeapp/helpers.py": "",
        "fakeapp/areas/a/__init__.py": 'PUBLIC_MODULES = ("lookups",)\n',
        "fakeapp/areas/a/service.py": "",
        "fakeapp/areas/a/schemas.py": "",
        "fakeapp/areas/a/lookups.py": "from fakeapp.areas.a import queries\n",
        "fakeapp/areas/a/queries.py": "",
        "fakeapp/areas/a/tables.py": "",
        "fakeapp/areas/b/__init__.py": "",
        "fakeapp/areas/b/queries.py": "",
        # allowed: another area's package, service, schemas and declared module; its own internals;
        # what lies outside the areas
        "fakeapp/areas/b/service.py": (
            "import fakeapp.areas.a\n"
            "from fakeapp import helpers\n"
            "from fakeapp.areas.a import lookups, schemas, service\n"
            "from fakeapp.areas.b import queries\n"
        ),
    }
    for name, text in {**base, **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(textwrap.dedent(config), encoding="utf-8")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(REPO)])}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_public_modules_and_own_internals_keep_the_contract(tmp_path: Path) -> None:
    _package(tmp_path, {})
    run = _lint(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "areas import only each other's public modules KEPT" in run.stdout


@pytest.mark.parametrize(
    ("text", "imported"),
    [
        ("from fakeapp.areas.a import queries\n", "fakeapp.areas.a.queries"),
        ("from fakeapp.areas.a.tables import *\n", "fakeapp.areas.a.tables"),
        ("def f():\n    import fakeapp.areas.a.queries\n", "fakeapp.areas.a.queries"),  # on use too
    ],
)
def test_an_undeclared_module_of_another_area_breaks_it(tmp_path: Path, text: str, imported: str) -> None:
    _package(tmp_path, {"fakeapp/areas/b/report.py": text})
    run = _lint(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "BROKEN" in run.stdout
    assert f"fakeapp.areas.b.report -> {imported}" in run.stdout
    assert "fakeapp.areas.b.service" not in run.stdout  # its imports are allowed


def test_an_ignored_import_keeps_it_and_an_unmatched_ignore_is_an_error(tmp_path: Path) -> None:
    forbidden = "fakeapp.areas.b.report -> fakeapp.areas.a.queries"
    _package(
        tmp_path,
        {"fakeapp/areas/b/report.py": "from fakeapp.areas.a import queries\n"},
        CONFIG + f'ignore_imports = ["{forbidden}"]\n',
    )
    assert _lint(tmp_path).returncode == 0
    _package(tmp_path, {"fakeapp/areas/b/report.py": ""}, CONFIG + f'ignore_imports = ["{forbidden}"]\n')
    assert _lint(tmp_path).returncode != 0


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ('PUBLIC_MODULES = ["lookups"]\n', "must be a tuple of module names"),
        ("PUBLIC_MODULES = (NAME,)\n", "must be a tuple of module names"),
        ('PUBLIC_MODULES = ("lookups", "gone")\n', "PUBLIC_MODULES names no module: gone"),
    ],
)
def test_a_declaration_that_is_no_tuple_of_modules_is_an_error(
    tmp_path: Path, declaration: str, message: str
) -> None:
    _package(tmp_path, {"fakeapp/areas/a/__init__.py": declaration})
    run = _lint(tmp_path)
    assert run.returncode != 0
    assert message in run.stdout + run.stderr


def test_the_declared_modules_of_the_areas_exist() -> None:
    """Every area's PUBLIC_MODULES names modules of that area (what lint-imports checks, without it)."""
    from tools.import_contracts import declared_public

    import regintel.areas

    folder = Path(regintel.areas.__file__).parent
    declared = {
        area: declared_public(folder / area / "__init__.py", "PUBLIC_MODULES")
        for area in regintel.areas.area_names()
    }
    assert declared["ownership"] == ("entities", "relations", "ultimate")
    for area, modules in declared.items():
        for module in modules:
            found = (folder / area / f"{module}.py").exists() or (folder / area / module).is_dir()
            assert found, (area, module)
