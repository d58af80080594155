"""A side or A1 corner the locator doubts is never scored silently (scanner.locate.Location.doubts)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from typer.testing import CliRunner

import cli
import scanner.locate
from models import dataset as ds

runner = CliRunner()
DOUBT = "which corner is A1 is unclear (confidence 0.10); check the coin track is in the photo"


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sample = ds.render(ds.SEED_BASE["bench"] + 333_333, split="eval", tier="scan")
    path = tmp_path_factory.mktemp("doubts") / "sheet.jpg"
    cv2.imwrite(str(path), sample.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def test_a_doubted_corner_is_reported_and_refused(photo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scanner.locate.Location, "doubts", lambda self: (DOUBT,))
    scan = runner.invoke(cli.app, ["scan", str(photo), "--json"])
    assert scan.exit_code == 0, scan.output
    assert json.loads(scan.stdout)["warnings"] == [DOUBT]
    text = runner.invoke(cli.app, ["scan", str(photo)])
    assert f"# warning: {DOUBT}" in text.stdout
    refused = runner.invoke(cli.app, ["score", str(photo), "--cards", "sentinel_wood"])
    assert refused.exit_code == 4 and "A1 is unclear" in refused.stderr
    guessed = runner.invoke(cli.app, ["score", str(photo), "--cards", "sentinel_wood", "--allow-doubtful"])
    assert guessed.exit_code == 0, guessed.output


def test_a_clear_reading_has_no_warnings(photo: Path) -> None:
    scan = runner.invoke(cli.app, ["scan", str(photo), "--json"])
    assert scan.exit_code == 0, scan.output
    assert json.loads(scan.stdout)["warnings"] == []
