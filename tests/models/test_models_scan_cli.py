"""`cartoscan scan` and the photo path of `cartoscan score`: JSON (docs/INTERFACES.md §3), exit codes,
'?' refusal."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

import cli
import scanner.classify
import scanner.pipeline
from models import dataset as ds
from rules.grid import LABELS
from scanner.classify import classify_cells, classify_sheet

Photo = tuple[Path, str, ds.Sample]  # the photo file, its corners option, its truth

runner = CliRunner()


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, ds.Sample]:
    sample = ds.render(ds.SEED_BASE["bench"] + 222_222, split="eval", tier="scan")
    path = tmp_path_factory.mktemp("scan") / "sheet.jpg"
    cv2.imwrite(str(path), sample.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    corners = ",".join(f"{v:.1f}" for v in sample.corners.ravel())
    return path, corners, sample


def test_scan_json_has_the_contract_fields(photo: Photo) -> None:
    path, corners, sample = photo
    result = runner.invoke(cli.app, ["scan", str(path), "--json", "--corners", corners])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["side"] == sample.sheet.side
    assert len(out["grid"]) == 11 and all(len(row) == 11 for row in out["grid"])
    assert len(out["confidence"]) == 11 and all(len(row) == 11 for row in out["confidence"])
    assert isinstance(out["coins"], int) and isinstance(out["spent"], int) and isinstance(out["stars"], list)
    assert set(out["doubtful"]) == {LABELS[i] for i, ch in enumerate("".join(out["grid"])) if ch == "?"}
    assert len(out["corners"]) == 4 and out["orientation"] in (0, 90, 180, 270)


def test_scan_text_output_is_an_editable_sheet(photo: Photo) -> None:
    from rules import Sheet

    path, corners, _ = photo
    result = runner.invoke(cli.app, ["scan", str(path), "--corners", corners])
    assert result.exit_code == 0, result.output
    text = result.stdout.replace("?", ".")  # a person fixes the '?' cells; then it parses
    assert Sheet.parse(text).side in "ABCD"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--corners", "1,2,3"], 2),
        (["--side", "Z"], 2),
    ],
)
def test_scan_bad_options_exit_2(photo: Photo, args: list[str], code: int) -> None:
    path, _, _ = photo
    result = runner.invoke(cli.app, ["scan", str(path), *args])
    assert result.exit_code == code
    assert "Traceback" not in result.output


def test_scan_unreadable_photo_exits_3_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "not_a_photo.jpg"
    bad.write_text("hello")
    for path in (bad, tmp_path / "missing.jpg"):
        result = runner.invoke(cli.app, ["scan", str(path), "--json"])
        assert result.exit_code == 3
        assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_score_refuses_a_photo_with_doubtful_cells(photo: Photo, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _, _ = photo
    # Make every drawable cell doubtful, each class at 5 % or more (a net sure of every cell leaves no
    # alternative to weigh, and the policy rightly settles): the photo path must refuse and name them.
    def unsure(*args: Any, **kwargs: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        probs, stars, features = classify_cells(*args, **kwargs)
        return 0.6 * probs + 0.05, stars, features

    monkeypatch.setattr(scanner.classify, "classify_cells", unsure)
    monkeypatch.setattr(scanner.pipeline, "classify_sheet", functools.partial(classify_sheet, threshold=1.01))
    result = runner.invoke(cli.app, ["score", str(path), "--cards", "sentinel_wood", "--json"])
    assert result.exit_code == 4
    assert "could not be read" in result.stderr and "cartoscan scan" in result.stderr
    args = ["score", str(path), "--cards", "sentinel_wood", "--json", "--allow-doubtful"]
    guessed = runner.invoke(cli.app, args)
    assert guessed.exit_code == 0, guessed.output
    assert "sentinel_wood" in json.loads(guessed.stdout)["cards"]
