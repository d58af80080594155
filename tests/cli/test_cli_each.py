"""Photos of several sheets (an organiser's table): refused as one, read sheet by sheet with --each
(issue 13), run as a user runs the command (a subprocess, real photos from ``samples/``)."""

from __future__ import annotations

import base64
import csv
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_cli_contract import CARDS, SAMPLES, cartoscan, one_error_line

LEFT, RIGHT = SAMPLES / "phone_clear_A.jpg", SAMPLES / "phone_B.jpg"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two sample photos side by side in one photo (side A left, side B right)."""
    left, right = cv2.imread(str(LEFT)), cv2.imread(str(RIGHT))
    assert left is not None and right is not None
    path = tmp_path_factory.mktemp("table") / "table.png"
    cv2.imwrite(str(path), np.hstack([left, right]))
    return path


def _json_lines(stdout: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_scan_refuses_a_photo_of_two_sheets_unless_asked(table: Path) -> None:
    status, stdout, stderr = cartoscan("scan", table, "--json")
    assert status == 3 and stdout == ""
    line = one_error_line(stderr)
    assert "2 map sheets" in line and "--each" in line


def test_scan_each_reads_every_sheet_left_to_right(table: Path) -> None:
    status, stdout, stderr = cartoscan("scan", table, "--each", "--json")
    assert status == 0, stderr
    first, second = _json_lines(stdout)
    assert (first["sheet"], first["sheets"], second["sheet"], second["sheets"]) == (1, 2, 2, 2)
    assert (first["side"], second["side"]) == ("A", "B")
    assert max(x for x, _ in first["corners"]) < 1200 < min(x for x, _ in second["corners"])
    # each sheet reads as its own photo does: every cell read in both agrees
    status, alone, _ = cartoscan("scan", LEFT, "--json")
    assert status == 0
    solo = json.loads(alone)
    rows = zip(first["grid"], solo["grid"], strict=True)
    cells = [(a, b) for ra, rb in rows for a, b in zip(ra, rb, strict=True)]
    assert all(a == b for a, b in cells if "?" not in (a, b))
    assert sum(a == b for a, b in cells) >= 118


def test_scan_each_text_is_one_sheet_per_photo_part(table: Path) -> None:
    status, stdout, stderr = cartoscan("scan", table, "--each")
    assert status == 0, stderr
    heads = [line for line in stdout.splitlines() if line.startswith("# table.png#")]
    assert [h.split(":")[0] for h in heads] == ["# table.png#1", "# table.png#2"]
    assert sum(line.startswith("side: ") for line in stdout.splitlines()) == 2


def test_scan_each_on_one_sheet_gives_one_reading() -> None:
    status, stdout, stderr = cartoscan("scan", LEFT, "--each", "--json")
    assert status == 0, stderr
    (only,) = _json_lines(stdout)
    assert (only["sheet"], only["sheets"], only["side"]) == (1, 1, "A")


def test_scan_each_does_not_take_corners(table: Path) -> None:
    status, stdout, stderr = cartoscan("scan", table, "--each", "--corners", "0,0,10,0,10,10,0,10")
    assert status == 2 and stdout == ""
    assert "--corners" in one_error_line(stderr)


def test_batch_each_gives_a_row_per_sheet(table: Path, tmp_path: Path) -> None:
    out_csv = tmp_path / "rows.csv"
    status, stdout, stderr = cartoscan(
        "batch", table, LEFT, "--each", "--cards", CARDS, "--season", "winter", "--allow-doubtful",
        "--csv", out_csv,
    )
    assert status == 0, stderr
    rows = _json_lines(stdout)
    assert [Path(r["input"]).name for r in rows] == ["table.png#1", "table.png#2", "phone_clear_A.jpg"]
    assert [r.get("sheet") for r in rows] == [1, 2, None]
    assert all(r["ok"] and r["status"] == 0 for r in rows)
    assert [r["side"] for r in rows] == ["A", "B", "A"]
    with out_csv.open(encoding="utf-8") as handle:
        table_rows = list(csv.DictReader(handle))
    assert [Path(r["input"]).name for r in table_rows] == ["table.png#1", "table.png#2", "phone_clear_A.jpg"]
    assert [r["season_total"] for r in table_rows] == [str(r["season"]["total"]) for r in rows]


def test_batch_without_each_reports_the_table_photo_as_one_failed_row(table: Path) -> None:
    status, stdout, _ = cartoscan("batch", table, "--cards", CARDS)
    assert status == 3
    (row,) = _json_lines(stdout)
    assert (row["ok"], row["status"]) == (False, 3) and "2 map sheets" in row["error"]
    assert "--each" in row["error"]  # the way to read each is named


def _photo_shown(page: str) -> np.ndarray:
    """The photo a report shows (its <img class="photo">), decoded."""
    uri = re.search(r'<img class="photo"[^>]*src="data:image/jpeg;base64,([^"]+)"', page)
    assert uri is not None
    image = cv2.imdecode(np.frombuffer(base64.b64decode(uri.group(1)), np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def test_batch_each_writes_a_report_per_sheet(table: Path, tmp_path: Path) -> None:
    folder, reports = tmp_path / "in", tmp_path / "reports"
    folder.mkdir()
    (folder / "table.png").write_bytes(table.read_bytes())
    (folder / "phone_B.sheet").write_bytes((SAMPLES / "phone_B.sheet").read_bytes())
    status, stdout, stderr = cartoscan(
        "batch", folder, LEFT, "--each", "--cards", CARDS, "--season", "winter", "--allow-doubtful",
        "--report-dir", reports,
    )
    assert status == 0, stderr
    rows = {Path(r["input"]).name: r for r in _json_lines(stdout)}
    assert set(rows) == {"phone_B.sheet", "table.png#1", "table.png#2", "phone_clear_A.jpg"}
    # a report per sheet, named as its row (the photo's stem, '#', the sheet); one-sheet inputs as before
    assert sorted(p.name for p in reports.iterdir()) == [
        "index.html", "phone_B.html", "phone_clear_A.html", "table#1.html", "table#2.html"]
    whole = cv2.imread(str(table))
    assert whole is not None
    for k, side in ((1, "A"), (2, "B")):
        page = (reports / f"table#{k}.html").read_text(encoding="utf-8")
        row = rows[f"table.png#{k}"]
        assert f"<h1>table.png#{k}</h1>" in page and f"side {side}, winter" in page
        assert f"total <strong>{row['season']['total']}</strong>" in page  # the figures of its row
        shown = _photo_shown(page)  # its own part of the table photo, not the whole table
        assert shown.shape[1] / shown.shape[0] < 0.7 * whole.shape[1] / whole.shape[0]
    index = (reports / "index.html").read_text(encoding="utf-8")
    assert 'href="table%231.html">table.png#1<' in index and 'href="table%232.html">table.png#2<' in index
    assert 'href="phone_clear_A.html">phone_clear_A.jpg<' in index


def test_batch_each_report_of_a_photo_without_a_sheet_is_a_note(tmp_path: Path) -> None:
    blank, reports = tmp_path / "blank.png", tmp_path / "reports"
    cv2.imwrite(str(blank), np.full((600, 800, 3), 200, np.uint8))
    status, stdout, stderr = cartoscan("batch", blank, "--each", "--cards", CARDS, "--report-dir", reports)
    assert status == 3, stderr
    (row,) = _json_lines(stdout)
    assert not row["ok"]
    assert sorted(p.name for p in reports.iterdir()) == ["index.html"]
    index = (reports / "index.html").read_text(encoding="utf-8")
    assert "<td>blank.png</td>" in index and row["error"].split(": ", 1)[1] in index
