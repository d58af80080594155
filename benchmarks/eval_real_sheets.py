"""How the classifier reads the real printed sheets, blank and drawn on.

    OMP_NUM_THREADS=1 python benchmarks/eval_real_sheets.py --reference DIR [--photos 10] [--drawn 0]
        [--models DIR]

The reference sheets in ``sheets/`` of the reference folder (``--reference DIR`` or
``$CARTOSCAN_REFERENCE``: the publisher's print, scans and the
printer-friendly redraw; read at run time, never copied or trained on) are photographed by the same
pinhole warp as ``bench_scanner.py`` and read by the whole pipeline. Nothing is drawn on them, so the
truth is the side's printed sheet: mountains and wasteland as printed, every other cell empty (printed
ruins included), no coin marked or spent, no star. This measures what the synthetic benchmarks cannot:
whether the real print (its coins, ruins icons, paper and grid) is read as blank.

Per sheet: photos read, cells read empty / marked ``?`` / read wrongly with confidence (of the drawable
cells), coin tracks read as 0 coins and 0 spent, tracks wrong with no coin doubtful ("coins silent"),
and readings with any star.

``--drawn N`` also draws N random legal games on every reference sheet, with the renderer's pencils in
the held-out hand of the ``params`` split (``render_page(..., blank=blank_on_image(...))``: the real
print under synthetic drawing), photographs each page with the phone-tier camera and reads it. Per
sheet: photos read, drawable cells whose top guess is right, cells marked ``?``, cells read wrongly
with confidence, coin tracks right by best guess (coins and spent), right with no coin doubtful
("coins sure": what ``score`` takes without asking), wrong with no coin doubtful, and sheets
read exactly (no ``?``, no doubt, every cell, coin and star right), and games whose score with four
random cards the best guess gets right (as ``score --allow-doubtful``). This is the real print's
end-to-end check; the drawings are still the renderer's.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import reference_images
from bench_scanner import pinhole_photo

from models.synth.camera import photograph
from models.synth.paper import render_page
from models.synth.play import random_game
from models.synth.printed import Blank, blank_on_image
from rules import Sheet
from rules.cards import CARDS, ScoringCard
from rules.grid import Cell, cell_label
from rules.season import score_cards
from rules.sides import printed_side
from scanner.failure import Failure
from scanner.locate import Location, locate_sheet
from scanner.nets import Models, default_models, load_models
from scanner.pipeline import Reading, read_photo


def _misread(truth: Sheet, read: Sheet) -> tuple[int, list[Cell], list[tuple[Cell, str]]]:
    """(drawable cells, cells read '?', (cell, what was read) of cells read as something else)."""
    printed = printed_side(truth.side)
    cells, unsure, wrong = 0, [], []
    for r in range(11):
        for c in range(11):
            if (r, c) in printed.mountains or (r, c) in printed.wasteland:
                continue
            cells += 1
            got = read[r, c].value
            if got == "?":
                unsure.append((r, c))
            elif got != truth[r, c].value:
                wrong.append(((r, c), got))
    return cells, unsure, wrong


def evaluate(photos: int, models: Models, sheets: Path, seed: int = 2024) -> None:
    rng = np.random.default_rng(seed)
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    wrong_cells: dict[str, list[str]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(sheets.glob("*.png")):
            sheet = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if sheet is None:
                continue
            side = path.name[0]
            t = rows[path.stem]
            for i in range(photos):
                image = sheet if i == 0 else pinhole_photo(sheet, rng)[0]  # the flat image first
                target = Path(tmp) / f"{path.stem}_{i}.png"
                cv2.imwrite(str(target), image)
                reading = read_photo(target, side=side, models=models)
                t["photos"] += 1
                if isinstance(reading, Failure):
                    t["failed"] += 1
                    continue
                guess = reading.guess
                cells, unsure, wrong = _misread(Sheet.blank(side), reading.sheet)
                t["cells"] += cells
                t["empty"] += cells - len(unsure) - len(wrong)
                t["unsure"] += len(unsure)
                t["wrong"] += len(wrong)
                wrong_cells[path.stem].extend(f"{cell_label(cell)}:{got}" for cell, got in wrong)
                coins_ok = guess.coins == 0 and guess.spent == 0
                t["coins_ok"] += coins_ok
                t["coins_silent"] += not coins_ok and not reading.doubtful_coins
                t["stars"] += bool(guess.stars)
                t["read"] += 1
    head = (f"{'sheet':18} {'photos':>6} {'read':>5} {'empty':>7} {'?':>6} {'wrong':>6} {'coins ok':>8} "
            f"{'coins silent':>12} {'stars':>5}")
    print(head)
    _rows_and_total(rows, _row)
    for name, misread in wrong_cells.items():
        common = sorted(set(misread), key=misread.count, reverse=True)[:8]
        print(f"  {name}: confidently wrong {len(misread)}x, most often {', '.join(common)}")


def real_blanks(sheets: Path) -> Iterator[tuple[int, Path, Blank]]:
    """Each reference sheet as a printed blank to draw on: (its index among the sorted files, so that
    seeds stay put when one is skipped, its path, the blank); a sheet whose grid is not found upright
    in the flat image is skipped with a line."""
    for k, path in enumerate(sorted(sheets.glob("*.png"))):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        flat = locate_sheet(image) if image is not None else None
        if image is None or not isinstance(flat, Location) or flat.orientation != 0:
            print(f"{path.stem}: grid not found upright in the flat image, skipped")
            continue
        printed = printed_side(path.name[0])
        yield k, path, blank_on_image(image, flat.corners, printed.mountains | printed.wasteland)


def drawn(games: int, models: Models, sheets: Path, seed: int = 2025) -> None:
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    misses: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for k, path, blank in real_blanks(sheets):
            side = path.name[0]
            t = rows[path.stem]
            for i in range(games):
                rng = np.random.default_rng([seed, k, i])
                game = random_game(rng, side=side)
                page = render_page(game.sheet, rng, pieces=game.pieces, split="params", blank=blank)
                target = Path(tmp) / f"{path.stem}_{i}.jpg"
                target.write_bytes(photograph(page, rng, tier="phone").jpeg)
                reading = read_photo(target, side=side, models=models)
                t["photos"] += 1
                if isinstance(reading, Failure):
                    continue
                t["read"] += 1
                _compare(game.sheet, reading, t, misses)
                cards = [CARDS[c] for c in rng.choice(sorted(CARDS), 4, replace=False)]
                t["score_ok"] += _scores(reading.guess, cards) == _scores(game.sheet, cards)
    print(f"{'drawn on':18} {'photos':>6} {'read':>5} {'right':>7} {'?':>6} {'wrong':>6} {'coins ok':>8} "
          f"{'coins sure':>10} {'coins silent':>12} {'exact':>5} {'score':>5}")
    _rows_and_total(rows, _drawn_row)
    print("  top guesses wrong (truth->read):", ", ".join(f"{k} {v}x" for k, v in misses.most_common(10)))


def _rows_and_total(
    rows: dict[str, dict[str, float]], row: Callable[[str, dict[str, float]], None]
) -> None:
    """Print each sheet's row, then the row of their sums."""
    total: dict[str, float] = defaultdict(float)
    for name, t in rows.items():
        for key, v in t.items():
            total[key] += v
        row(name, t)
    row("all", total)


def _compare(truth: Sheet, reading: Reading, t: dict[str, float], misses: Counter[str]) -> None:
    """Add one reading of a drawn sheet to the tallies ``t`` and its wrong top guesses to ``misses``."""
    cells, unsure, wrong = _misread(truth, reading.sheet)
    guessed_wrong = _misread(truth, reading.guess)[2]
    misses.update(f"{truth[cell].value}->{got}" for cell, got in guessed_wrong)
    t["cells"] += cells
    t["right"] += cells - len(guessed_wrong)
    t["unsure"] += len(unsure)
    t["wrong"] += len(wrong)
    guess = reading.guess
    coins_ok = guess.coins == truth.coins and guess.spent == truth.spent
    t["coins_ok"] += coins_ok
    t["coins_sure"] += coins_ok and not reading.doubtful_coins
    t["coins_silent"] += not coins_ok and not reading.doubtful_coins
    t["exact"] += (
        not unsure and not wrong and coins_ok and not reading.doubtful_coins and not reading.doubts
        and guess.stars == truth.stars
    )


def _scores(sheet: Sheet, cards: list[ScoringCard]) -> tuple[object, ...]:
    s = score_cards(sheet, cards)
    return tuple(v.points for v in s.scores.values()), s.coins, s.monsters


def _drawn_row(name: str, t: dict[str, float]) -> None:
    cells = max(t["cells"], 1)
    read = max(t["read"], 1)
    print(f"{name:18} {int(t['photos']):6d} {int(t['read']):5d} {t['right'] / cells:7.4f} "
          f"{t['unsure'] / cells:6.3f} {t['wrong'] / cells:6.3f} {t['coins_ok'] / read:8.2f} "
          f"{t['coins_sure'] / read:10.2f} {t['coins_silent'] / read:12.2f} {t['exact'] / read:5.2f} "
          f"{t['score_ok'] / read:5.2f}")


def _row(name: str, t: dict[str, float]) -> None:
    cells = max(t["cells"], 1)
    read = max(t["read"], 1)
    print(f"{name:18} {int(t['photos']):6d} {int(t['read']):5d} {t['empty'] / cells:7.3f} "
          f"{t['unsure'] / cells:6.3f} {t['wrong'] / cells:6.3f} {t['coins_ok'] / read:8.2f} "
          f"{t['coins_silent'] / read:12.2f} {t['stars'] / read:5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=10,
                    help="photos per reference sheet (the first is the flat image)")
    ap.add_argument("--drawn", type=int, default=0,
                    help="random games drawn on each reference sheet and read (0: blank sheets only)")
    ap.add_argument("--models", type=Path, default=None,
                    help="model directory (default: the committed models)")
    reference_images.add_option(ap)
    args = ap.parse_args()
    sheets = reference_images.sheets_to_measure(args.reference)
    if sheets is None:
        return
    models = load_models(args.models) if args.models else default_models()
    print(f"real blank sheets from {sheets}, {args.photos} photo(s) each, models "
          f"{args.models or 'committed'}")
    if args.photos:
        evaluate(args.photos, models, sheets)
    if args.drawn:
        print(f"\n{args.drawn} random game(s) drawn on each sheet (params-split hand), phone tier")
        drawn(args.drawn, models, sheets)


if __name__ == "__main__":
    main()
