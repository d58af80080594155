"""`cartoscan batch`: every input gets a line, failures included, and the batch goes on."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli import app
from rules import Sheet, Terrain
from rules.cards import find_card
from rules.season import score_season

runner = CliRunner()
CARDS = "sentinel_wood,canal_lake,wildholds,borderlands"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    good = Sheet.blank("A").replace(cells={(0, c): Terrain.FOREST for c in range(11)}, coins=2)
    (tmp_path / "a_good.sheet").write_text(good.to_text(), encoding="utf-8")
    (tmp_path / "b_bad.sheet").write_text("side: A\nFFF\n", encoding="utf-8")
    (tmp_path / "c_broken.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "notes.txt").write_text("not a photo or sheet: listed as a failed input", encoding="utf-8")
    return tmp_path


def _lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_every_input_is_reported_and_failures_do_not_stop_the_batch(folder: Path, tmp_path: Path) -> None:
    out_csv = tmp_path / "out.csv"
    result = runner.invoke(
        app, ["batch", str(folder), "--cards", CARDS, "--season", "winter", "--csv", str(out_csv)]
    )
    assert result.exit_code == 2  # the most severe failure: a malformed sheet; all are still reported
    rows = _lines(result.stdout)
    names = ["a_good.sheet", "b_bad.sheet", "c_broken.jpg", "notes.txt"]  # every file, none skipped
    assert [Path(r["input"]).name for r in rows] == names
    good, bad, broken, notes = rows
    assert (notes["ok"], notes["status"]) == (False, 3) and "not an image file" in notes["error"]
    sheet = Sheet.parse((folder / "a_good.sheet").read_text(encoding="utf-8"))
    cards = [find_card(c) for c in CARDS.split(",")]
    assert good["ok"] and good["season"]["total"] == score_season(sheet, cards, "winter").total
    assert good["cards"]["sentinel_wood"] == find_card("sentinel_wood").score(sheet).points
    assert (bad["ok"], bad["status"]) == (False, 2) and "b_bad.sheet" in bad["error"]
    assert (broken["ok"], broken["status"]) == (False, 3)
    with out_csv.open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert [Path(r["input"]).name for r in table] == names  # out.csv, in the same folder, is no input
    assert table[0]["season_total"] == str(good["total"]) and table[1]["error"] == bad["error"]
    assert [r["status"] for r in table] == ["0", "2", "3", "3"] and table[0]["season"] == "winter"


def test_all_good_exits_zero(folder: Path) -> None:
    result = runner.invoke(app, ["batch", str(folder / "a_good.sheet"), "--cards", CARDS])
    assert result.exit_code == 0, result.output
    assert [r["ok"] for r in _lines(result.stdout)] == [True]


def test_bad_options_are_usage_errors(folder: Path, tmp_path: Path) -> None:
    assert runner.invoke(app, ["batch", str(folder), "--cards", "no_such_card"]).exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(app, ["batch", str(empty), "--cards", CARDS]).exit_code == 2
