"""Every data file the code loads is listed in data_registry.json with its SHA-256 (scikit-image style).

A game fact or the sheet geometry changing by accident fails here; after a deliberate edit run
``python tests/test_data_registry.py --update`` and commit the registry with the change.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "data_registry.json"
LOADED = ["rules/data/*.json", "scanner/*.json", "models/manifest.json"]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _registry() -> dict[str, dict[str, str]]:
    files: dict[str, dict[str, str]] = json.loads(REGISTRY.read_text(encoding="utf-8"))["files"]
    return files


@pytest.mark.parametrize("name", sorted(_registry()))
def test_listed_file_has_its_hash(name: str) -> None:
    path = ROOT / name
    assert path.is_file(), f"{name} is listed in data_registry.json but missing"
    assert _sha256(path) == _registry()[name]["sha256"], f"{name} changed: update data_registry.json"


def test_every_loaded_data_file_is_listed() -> None:
    found = {str(p.relative_to(ROOT)) for pattern in LOADED for p in ROOT.glob(pattern)}
    assert found and found <= set(_registry()), f"unlisted: {sorted(found - set(_registry()))}"


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    data = json.loads(REGISTRY.read_text(encoding="utf-8"))
    for name, entry in data["files"].items():
        entry["sha256"] = _sha256(ROOT / name)
    REGISTRY.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
