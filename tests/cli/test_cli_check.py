"""``cartoscan check`` and ``cartoscan game``: JSON and exit statuses (docs/INTERFACES.md §3, `check`,
`game`)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cli import app
from models.synth.play import season_sheets
from rules import Sheet
from rules.cards import find_card
from rules.season import game_score

runner = CliRunner()
EDICTS = "sentinel_wood,canal_lake,great_city,borderlands"


def _write(tmp_path: Path, name: str, sheet: Sheet) -> str:
    path = tmp_path / name
    path.write_text(sheet.to_text(), encoding="utf-8")
    return str(path)


def test_check_a_legal_sheet(tmp_path: Path) -> None:
    _, sheets = season_sheets(3)
    result = runner.invoke(app, ["check", _write(tmp_path, "w.sheet", sheets[3]), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"ok": True, "problems": []}


def test_check_reports_every_problem_with_exit_4(tmp_path: Path) -> None:
    """Header problem (coins + spent > 14) and grid problems, all at once (docs/INTERFACES.md §3, `check`)."""
    rows = ["..........."] * 11
    rows[2] = "..?........"
    text = "side: custom\ncoins: 10\nspent: 5\nstars: A1\n" + "\n".join(rows) + "\n"
    path = tmp_path / "bad.sheet"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 4, result.output
    out = json.loads(result.stdout)
    assert out["ok"] is False
    codes = {p["code"] for p in out["problems"]}
    assert {"unreadable", "coins_exceed", "star_without_hero"} <= codes
    assert all(set(p) >= {"code", "cells", "message"} for p in out["problems"])


def test_check_before(tmp_path: Path) -> None:
    _, sheets = season_sheets(5)
    spring, summer = (_write(tmp_path, f"{i}.sheet", s) for i, s in enumerate(sheets[:2]))
    ok = runner.invoke(app, ["check", summer, "--before", spring, "--season", "summer", "--json"])
    assert ok.exit_code == 0, ok.output
    back = runner.invoke(app, ["check", spring, "--before", summer, "--json"])
    assert back.exit_code == 4
    assert "season_regression" in {p["code"] for p in json.loads(back.stdout)["problems"]}


def test_check_usage_and_unreadable_photo(tmp_path: Path) -> None:
    photo = tmp_path / "x.jpg"
    photo.write_bytes(b"not an image")
    assert runner.invoke(app, ["check", str(photo)]).exit_code == 3
    assert runner.invoke(app, ["check", str(tmp_path / "none.sheet")]).exit_code == 2
    _, sheets = season_sheets(1)
    path = _write(tmp_path, "a.sheet", sheets[0])
    assert runner.invoke(app, ["check", path, "--edition", "dragons"]).exit_code == 2


def test_game_json(tmp_path: Path) -> None:
    """docs/INTERFACES.md §3, `game`: seasons, total, problems; --solo adds the rating and title."""
    _, sheets = season_sheets(11)
    paths = [_write(tmp_path, f"{i}.sheet", s) for i, s in enumerate(sheets)]
    result = runner.invoke(app, ["game", *paths, "--cards", EDICTS, "--json", "--solo"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    expected = game_score(sheets, [find_card(c) for c in EDICTS.split(",")])
    assert [s["name"] for s in out["seasons"]] == ["spring", "summer", "fall", "winter"]
    assert out["total"] == expected.total == sum(s["total"] for s in out["seasons"])
    assert out["problems"] == []
    assert out["solo_rating"] == expected.solo_rating and out["title"] == expected.title


def test_game_problems_between_seasons(tmp_path: Path) -> None:
    """A season's sheet that loses a filled space is a problem (exit 4), and the scores still print."""
    _, sheets = season_sheets(12)
    summer = sheets[1]
    drawn = next(c for c in sorted(sheets[0].cells_of("F", "V", "P", "W")))
    fall = sheets[2].replace({drawn: "."})
    winter = sheets[3].replace({drawn: "."})
    paths = [_write(tmp_path, f"{i}.sheet", s) for i, s in enumerate([sheets[0], summer, fall, winter])]
    result = runner.invoke(app, ["game", *paths, "--cards", EDICTS, "--json"])
    assert result.exit_code == 4, result.output
    out = json.loads(result.stdout)
    assert any(p["code"] == "season_regression" and p["season"] == "fall" for p in out["problems"])
    assert len(out["seasons"]) == 4


def test_game_needs_four_sheets(tmp_path: Path) -> None:
    _, sheets = season_sheets(2)
    paths = [_write(tmp_path, f"{i}.sheet", s) for i, s in enumerate(sheets[:3])]
    result = runner.invoke(app, ["game", *paths, "--cards", EDICTS])
    assert result.exit_code == 2
