"""import-linter contract types of regintel (`[tool.importlinter] contract_types` in pyproject.toml), run by
`lint-imports` in .ci/run from the repository root (which lint-imports puts on `sys.path`).

`areas_public`: areas do not import each other's internals (docs/architecture.md, "Areas"). An area's
public modules are `service` and `schemas`, and those its package names in a `PUBLIC_MODULES` tuple of
module names in `areas/<area>/__init__.py` (read from the file's syntax tree, nothing is imported). A
module of one area may import another area's package itself and its public modules (and what lies below
them); any other module of another area (its queries, tables, routers, jobs, importers, ...) is refused.
Imports from outside the areas (api, jobs, cli) are not this contract's business.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import grimp
from importlinter import Contract, ContractCheck, fields, output
from importlinter.application import contract_utils


@dataclass(frozen=True)
class Refused:
    importer: str
    imported: str
    line_numbers: tuple[int, ...]


def declared_public(init_file: Path, name: str) -> tuple[str, ...]:
    """The module names of the tuple `name = (...)` at the top level of `init_file` (empty without one).
    Anything but a tuple of string literals is an error: the declaration must be readable without running
    the package."""
    tree = ast.parse(init_file.read_text(encoding="utf-8"), filename=str(init_file))
    for node in tree.body:
        target: ast.expr | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        if not (isinstance(target, ast.Name) and target.id == name):
            continue
        if not isinstance(value, ast.Tuple) or not all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
        ):
            raise ValueError(f"{init_file}: {name} must be a tuple of module names (string literals)")
        return tuple(e.value for e in value.elts if isinstance(e, ast.Constant))
    return ()


class AreasPublicContract(Contract):
    """Configuration options:
    - areas: the package whose subpackages are the areas (`regintel.areas`);
    - always_public: module names public in every area (`service`, `schemas`);
    - declaration: the name of the tuple in an area's `__init__.py` that names its other public modules;
    - ignore_imports: import expressions left out of the check (each to be resolved, with its reason);
    - unmatched_ignore_imports_alerting: none, warn or error (default) for an ignore that matches nothing.
    """

    type_name = "areas_public"

    areas = fields.ModuleField()
    always_public = fields.ListField(subfield=fields.StringField())
    declaration = fields.StringField()
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    unmatched_ignore_imports_alerting = fields.EnumField(
        contract_utils.AlertLevel, default=contract_utils.AlertLevel.ERROR
    )

    def _public(self, graph: grimp.ImportGraph, area_names: list[str]) -> dict[str, frozenset[str]]:
        root = self.areas.name  # type: ignore[attr-defined]
        spec = importlib.util.find_spec(root.split(".")[0])
        if spec is None or spec.origin is None:
            raise ValueError(f"package {root} not found")
        folder = Path(spec.origin).parent.joinpath(*root.split(".")[1:])
        always = frozenset(self.always_public)  # type: ignore[arg-type]
        out: dict[str, frozenset[str]] = {}
        for area in area_names:
            init_file = folder / area / "__init__.py"
            if not init_file.exists():
                continue  # a plain module beside the areas, no area
            declared = declared_public(init_file, str(self.declaration))
            unknown = [m for m in declared if f"{root}.{area}.{m}" not in graph.modules]
            if unknown:
                raise ValueError(f"{root}.{area}.{self.declaration} names no module: {', '.join(unknown)}")
            out[area] = always | frozenset(declared)
        return out

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph,
            ignore_imports=self.ignore_imports,  # type: ignore[arg-type]
            unmatched_alerting=self.unmatched_ignore_imports_alerting,  # type: ignore[arg-type]
        )
        root = self.areas.name  # type: ignore[attr-defined]
        depth = root.count(".") + 1
        area_names = sorted(m.split(".")[depth] for m in graph.find_children(root))
        public = self._public(graph, area_names)
        refused: list[Refused] = []
        for importer in sorted(graph.find_descendants(root)):
            own = importer.split(".")[depth]
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                parts = imported.split(".")
                if not imported.startswith(root + ".") or len(parts) <= depth + 1:
                    continue  # outside the areas, or an area's package itself
                area, module = parts[depth], parts[depth + 1]
                if area == own or area not in public or module in public[area]:
                    continue
                details = graph.get_import_details(importer=importer, imported=imported)
                refused.append(Refused(importer, imported, tuple(d["line_number"] for d in details)))
        return ContractCheck(
            kept=not refused,
            warnings=list(removal.warnings),
            ignored_import_count=removal.ignored_import_count,
            metadata={"refused": refused},
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        refused: list[Refused] = check.metadata["refused"]
        output.print_error(
            f"Imports of another area's module that its {self.declaration} does not declare public:",
            bold=False,
        )
        output.new_line()
        for r in refused:
            output.print_error(
                f"- {r.importer} -> {r.imported} (l.{', '.join(map(str, r.line_numbers))})", bold=False
            )
        output.new_line()
        output.print(
            "Call the owning area's service functions, or declare the module public in its "
            f"{self.declaration} if it is a use-case module (docs/architecture.md, 'Areas')."
        )
