"""The documents keep up with the code: docs/ARCHITECTURE.md names every module of the packages, and
docs/INTERFACES.md every command the console offers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    p.relative_to(ROOT).as_posix()
    for pkg in ("rules", "scanner", "models", "front")
    for p in (ROOT / pkg).rglob("*.py")
    if p.name != "__init__.py"
)


def test_the_packages_are_found() -> None:
    assert {"rules/grid.py", "scanner/pipeline.py", "models/synth/paper.py"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_architecture_names_every_module(module: str) -> None:
    assert f"`{module}`" in (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


def test_interfaces_describe_every_command() -> None:
    import cli

    text = (ROOT / "docs" / "INTERFACES.md").read_text(encoding="utf-8")
    names = [command.name or command.callback.__name__ for command in cli.app.registered_commands
             if command.callback is not None]
    assert names and all(f"`{name}" in text for name in names), names
