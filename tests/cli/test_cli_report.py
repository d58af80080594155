"""``cartoscan report`` and ``score --fix`` / ``--review``: exit codes and what they write."""

from __future__ import annotations

import json
from pathlib import Path

from golden_samples import doubtful_cells, refused_photo, truth_fixes
from typer.testing import CliRunner

from cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARDS = "sentinel_wood,canal_lake,wildholds,borderlands"


def test_report_writes_html_and_png_despite_doubts(tmp_path: Path) -> None:
    out, png = tmp_path / "a.html", tmp_path / "a.png"
    photo = refused_photo()
    args = ["report", str(SAMPLES / photo), "--cards", CARDS, "--season", "winter"]
    result = runner.invoke(app, [*args, "-o", str(out), "--png", str(png)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert photo in page and "needs a look" in page and png.stat().st_size > 10_000
    assert page.count("data:image/jpeg;base64,") == 2  # the photo and the rectified sheet, inline


def test_report_of_a_sheet_file_and_its_errors(tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    ok = runner.invoke(app, ["report", str(SAMPLES / "phone_B.sheet"), "--cards", CARDS, "-o", str(out)])
    assert ok.exit_code == 0 and "scored" in out.read_text(encoding="utf-8")
    no_png = runner.invoke(app, ["report", str(SAMPLES / "phone_B.sheet"), "--cards", CARDS, "-o", str(out),
                                 "--png", str(tmp_path / "b.png")])
    assert no_png.exit_code == 2
    bad = runner.invoke(app, ["report", str(SAMPLES / "phone_B.sheet"), "--cards", CARDS,
                              "-o", str(tmp_path / "missing" / "b.html")])
    assert bad.exit_code == 2
    not_photo = tmp_path / "x.jpg"
    not_photo.write_bytes(b"text")
    assert runner.invoke(app, ["report", str(not_photo), "--cards", CARDS, "-o", str(out)]).exit_code == 3


def test_fix_settles_the_unsure_cells_of_a_photo() -> None:
    name = refused_photo()
    args = ["score", str(SAMPLES / name), "--cards", CARDS, "--season", "winter", "--json"]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 4 and "--fix" in refused.output
    fixed = runner.invoke(app, [*args, "--fix", truth_fixes(name)])
    assert fixed.exit_code == 0, fixed.output
    assert "doubtful" not in json.loads(fixed.stdout)
    cell = doubtful_cells(name)[0]
    assert runner.invoke(app, [*args, "--fix", f"{cell}=^"]).exit_code == 2
    assert runner.invoke(app, [*args, "--fix", "Q7=W"]).exit_code == 2


def test_review_needs_a_terminal() -> None:
    result = runner.invoke(app, ["score", str(SAMPLES / "phone_B.jpg"), "--cards", CARDS, "--review"])
    assert result.exit_code == 2 and "terminal" in result.output


def test_batch_writes_a_report_per_input_and_a_ranking(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("phone_A.sheet", "phone_B.sheet", "phone_clear_A.jpg"):
        (folder / name).write_bytes((SAMPLES / name).read_bytes())
    (folder / "notes.txt").write_text("not a sheet", encoding="utf-8")
    reports = tmp_path / "reports"
    result = runner.invoke(app, ["batch", str(folder), "--cards", CARDS, "--report-dir", str(reports)])
    assert result.exit_code != 0  # notes.txt cannot be scored, the others still are
    assert sorted(p.name for p in reports.iterdir()) == [
        "index.html", "phone_A.html", "phone_B.html", "phone_clear_A.html"]
    index = (reports / "index.html").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    totals = sorted((r["total"] for r in rows if r["ok"]), reverse=True)
    assert index.index(f">{totals[0]}<") < index.index(f">{totals[-1]}<")  # best first
    assert "notes.txt" in index
