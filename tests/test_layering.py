"""The import layering of docs/ARCHITECTURE.md, enforced by reading every module's imports (AST walk,
imports inside functions included).

rules is the ground floor (the standard library and itself only; rules.grid and rules.errors below the
rest of it); scanner imports rules; models.synth imports rules and the printed sheet's geometry
(scanner.geometry); the training code (models/*.py) imports rules, scanner and models; the front ends
(front/, cli.py, benchmarks/) import anything. Nothing below the front ends imports one, and
nothing imports the tests.

The same walk checks that pyproject.toml declares what the code imports: each third-party module
imported by the packages or cli.py comes from a distribution declared in the right place (the runtime
dependencies or the extra of the part that imports it), and each runtime dependency is imported.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("rules", "scanner", "models", "front", "cli", "benchmarks", "tests")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in `path`, relative ones resolved."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                yield node.lineno, ".".join([*base, node.module] if node.module else base)
            else:
                assert node.module is not None
                yield node.lineno, node.module


def allowed(importer: str, imported: str) -> bool:
    """Whether module `importer` may import `imported` under the layering."""
    top = imported.split(".")[0]
    if top not in PROJECT:
        # rules stays pure Python: only the standard library beside itself.
        return not importer.startswith("rules") or top in sys.stdlib_module_names or top == "__future__"
    if importer == "rules.errors":
        return False
    if importer == "rules.grid":
        return imported == "rules.errors"
    if importer.startswith("rules"):
        return top == "rules"
    if importer.startswith("scanner"):
        return top in ("rules", "scanner")
    if importer.startswith("models.synth"):
        return top == "rules" or imported.startswith("models.synth") or imported == "scanner.geometry"
    if importer.startswith("models"):
        return top in ("rules", "scanner", "models")
    if importer.startswith("front"):
        return top in ("rules", "scanner", "models", "front")
    return top not in ("tests",) or importer.startswith("tests")


LIBRARY = sorted(p for pkg in ("rules", "scanner", "models", "front") for p in (ROOT / pkg).rglob("*.py"))


def test_the_walk_sees_the_packages() -> None:
    names = {_module_name(p) for p in LIBRARY}
    assert {"rules.grid", "rules.sheet", "scanner.pipeline", "models.synth.paper", "models.train"} <= names
    assert ("rules.sheet" in {m for _, m in imports_of(ROOT / "rules" / "cards" / "view.py")})


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path: Path) -> None:
    importer = _module_name(path)
    wrong = [f"line {line}: {name}" for line, name in imports_of(path) if not allowed(importer, name)]
    assert wrong == [], f"{importer} imports across the layers"


@pytest.mark.parametrize(
    ("importer", "imported", "ok"),
    [
        ("rules.sheet", "scanner.geometry", False),
        ("rules.sheet", "numpy", False),
        ("rules.sheet", "json", True),
        ("rules.grid", "rules.sheet", False),
        ("scanner.locate", "rules.grid", True),
        ("scanner.locate", "models.synth.paper", False),
        ("models.synth.paper", "scanner.nets", False),
        ("models.synth.paper", "scanner.geometry", True),
        ("models.train", "scanner.nets", True),
        ("scanner.pipeline", "cli", False),
        ("scanner.pipeline", "front.overlay", False),
        ("front.overlay", "scanner.constants", True),
    ],
)
def test_the_rule_itself(importer: str, imported: str, ok: bool) -> None:
    assert allowed(importer, imported) is ok


# Third-party modules -> (distribution, where pyproject declares it: "runtime" or an extra's name;
# None for an optional plugin the code guards with ImportError and pyproject leaves out).
DISTRIBUTIONS: dict[str, tuple[str, str | None]] = {
    "numpy": ("numpy", "runtime"),
    "cv2": ("opencv-python-headless", "runtime"),
    "PIL": ("pillow", "runtime"),
    "onnxruntime": ("onnxruntime", "runtime"),
    "typer": ("typer", "runtime"),
    "rich": ("rich", "runtime"),
    "pillow_heif": ("pillow-heif", None),
    "torch": ("torch", "train"),
    "onnx": ("onnx", "train"),
    "onnxscript": ("onnxscript", "train"),
    "resvg_py": ("resvg-py", "train"),
    "skimage": ("scikit-image", "runtime"),
    "starlette": ("starlette", "web"),
    "uvicorn": ("uvicorn", "web"),
    "multipart": ("python-multipart", "web"),
    "httpx2": ("httpx2", "web"),
    "playwright": ("playwright", "web"),
}


def _declared() -> dict[str, set[str]]:
    """Distribution names by place ("runtime" or an extra), from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(requirements: list[str]) -> set[str]:
        return {req.split(";")[0].split("[")[0].strip().split(" ")[0].rstrip("<>=!~,0123456789.").lower()
                for req in requirements}

    out = {"runtime": names(project["dependencies"])}
    out.update({extra: names(reqs) for extra, reqs in project["optional-dependencies"].items()})
    return out


def _third_party() -> dict[str, set[str]]:
    """Imported third-party top-level module -> the project modules importing it."""
    found: dict[str, set[str]] = {}
    for path in [*LIBRARY, ROOT / "cli.py"]:
        for _, name in imports_of(path):
            top = name.split(".")[0]
            if top not in PROJECT and top not in sys.stdlib_module_names and top != "__future__":
                found.setdefault(top, set()).add(_module_name(path))
    return found


def test_what_is_imported_is_declared() -> None:
    declared = _declared()
    for module, importers in sorted(_third_party().items()):
        assert module in DISTRIBUTIONS, f"{module} (imported by {sorted(importers)}) is not in DISTRIBUTIONS"
        dist, place = DISTRIBUTIONS[module]
        if place is None:
            continue
        assert dist in declared[place], f"{module}: {dist} is not declared in pyproject ({place})"


def test_every_runtime_dependency_is_imported() -> None:
    imported = {DISTRIBUTIONS[m][0] for m in _third_party() if m in DISTRIBUTIONS}
    assert _declared()["runtime"] - imported == set()
