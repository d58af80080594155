"""The import layering of docs/ARCHITECTURE.md, enforced by reading every module's imports (AST walk,
imports inside functions included).

rules is the ground floor (the standard library and itself only; rules.grid and rules.errors below the
rest of it); scanner imports rules; models.synth imports rules and the printed sheet's geometry
(scanner.geometry); the training code (models/*.py) imports rules, scanner and models; the front ends
(front/, cli.py, benchmarks/) import anything. Nothing below the front ends imports one, and
nothing imports the tests.
"""

from __future__ import annotations

import ast
import sys
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
