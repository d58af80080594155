"""``cartoscan score`` and ``cartoscan cards``: exit codes, JSON fields (docs/INTERFACES.md §3), stdin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from rules import Sheet
from rules.cards import CARDS, find_card
from rules.season import score_cards, score_season

runner = CliRunner()
EDICTS = "sentinel_wood,canal_lake,great_city,borderlands"


@pytest.fixture
def sheet() -> Sheet:
    return Sheet.blank("A").replace(
        {(0, 0): "F", (0, 1): "M", (1, 0): "W", (2, 0): "P", (0, 2): "V", (0, 3): "V", (10, 10): "F"}, coins=3
    )


@pytest.fixture
def sheet_file(tmp_path: Path, sheet: Sheet) -> Path:
    path = tmp_path / "alice.sheet"
    path.write_text("# Alice, game 3\n" + sheet.to_text(), encoding="utf-8")
    return path


def _cards() -> list:  # type: ignore[type-arg]
    return [find_card(x) for x in EDICTS.split(",")]


def test_json_has_contract_fields(sheet_file: Path, sheet: Sheet) -> None:
    result = runner.invoke(app, ["score", str(sheet_file), "--cards", EDICTS, "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    expected = score_cards(sheet, _cards())
    assert out["cards"] == {card.id: card.score(sheet).points for card in _cards()}
    assert out["coins"] == 3 and out["monsters"] == -1 == expected.monsters  # B2 next to the A2 monster
    assert out["total"] == expected.total and "season" not in out


def test_season_json_shape(sheet_file: Path, sheet: Sheet) -> None:
    result = runner.invoke(app, ["score", str(sheet_file), "--cards", EDICTS, "--season", "summer", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    season = out["season"]
    assert set(season) >= {"name", "edicts", "coins", "monsters", "total"}
    assert season["name"] == "summer"
    assert season["edicts"] == {
        "canal_lake": find_card("canal_lake").score(sheet).points,
        "great_city": find_card("great_city").score(sheet).points,
    }
    assert season["edict_letters"] == {"B": "canal_lake", "C": "great_city"}
    assert season["total"] == score_season(sheet, _cards(), "summer").total == out["total"]
    assert len(out["cards"]) == 4


def test_stdin_and_names_in_any_language(sheet: Sheet) -> None:
    result = runner.invoke(
        app, ["score", "-", "--cards", "Schildwald, canal lake", "--json"], input=sheet.to_text()
    )
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["cards"]) == ["sentinel_wood", "canal_lake"]


def test_table_output_names_cards_and_total(sheet_file: Path, sheet: Sheet) -> None:
    result = runner.invoke(app, ["score", str(sheet_file), "--cards", EDICTS, "--season", "spring"])
    assert result.exit_code == 0, result.output
    assert "Sentinel Wood" in result.stdout and "not scored this season" in result.stdout
    assert str(score_season(sheet, _cards(), "spring").total) in result.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (["--cards", "sentinel_wod"], None, 2, "did you mean 'Sentinel Wood'"),
        (["--cards", "silos", "--season", "monsoon"], None, 2, "unknown season"),
        (["--cards", "silos", "--season", "spring"], None, 2, "needs 4 scoring cards"),
        (["--cards", "silos,silos"], None, 2, "given twice"),
        ([], None, 2, "--cards"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    sheet_file: Path, args: list[str], stdin: str | None, code: int, message: str
) -> None:
    result = runner.invoke(app, ["score", str(sheet_file), *args], input=stdin)
    assert result.exit_code == code
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("P.......^..", "P..........", 1), "line 6 (row C): cell C9 is '.' but side A"),
        (lambda t: t.replace("coins: 3", "coins: 20"), "line 3: coins is 20"),
        (lambda t: t.replace("FMVV", "?MVV"), "unreadable space ('?'): A1"),
    ],
)
def test_bad_sheet_files_exit_2_naming_the_cell(tmp_path: Path, sheet: Sheet, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.sheet"
    path.write_text("# header comment\n" + edit(sheet.to_text()), encoding="utf-8")
    result = runner.invoke(app, ["score", str(path), "--cards", "silos", "--json"])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_missing_sheet_file_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", str(tmp_path / "nope.sheet"), "--cards", "silos"])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_unreadable_photo_exits_3(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"not an image at all")
    result = runner.invoke(app, ["score", str(photo), "--cards", "silos", "--json"])
    assert result.exit_code == 3
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_cards_command_lists_all_32() -> None:
    result = runner.invoke(app, ["cards", "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert [r["id"] for r in rows] == list(CARDS)
    assert {r["category"] for r in rows} == {"forest", "farm_water", "village", "space"}
    assert all(isinstance(r["solo_value"], int) and r["names"]["en"] for r in rows)
    table = runner.invoke(app, ["cards"], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "Sentinel Wood" in table.stdout
