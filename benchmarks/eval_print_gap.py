"""How much worse the classifier reads the real print than the renderer's own, under the same drawings.

    OMP_NUM_THREADS=1 python benchmarks/eval_print_gap.py --reference DIR [--games 6] [--marks]
        [--models DIR --models DIR2 ...]

For every reference sheet (see ``eval_real_sheets.py``) and game k, one random legal game is drawn
twice from the same random stream, so in the same hand and the same strokes: on the real sheet
(``blank_on_image``) and on the renderer's print of the same side and theme (``render_page`` at 64 px
a cell), and with ``--marks`` a third time on the renderer's print with the real print's fine marks
(``render_page(..., print_marks=True)``: veins and specks in the paper, the ruins icon in several
looks). Every page is photographed by the phone-tier camera and read. Only the paper and print under
the drawing differ, so the gap between the columns is what the renderer's print fails to show.

Per model and print: drawable cells, cells whose best guess is wrong, empty cells read as drawn, how
many of those sit on a printed ruins icon, and the commonest wrong readings of empty cells.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import reference_images
from eval_real_sheets import _misread, real_blanks

from models.synth.camera import photograph
from models.synth.paper import render_page
from models.synth.play import random_game
from rules.sides import printed_side
from scanner.failure import Failure
from scanner.nets import Models, default_models, load_models
from scanner.pipeline import read_photo

PRINTS = ("real", "renderer", "marked")
RENDER_PPC = 64  # the renderer's print at the pitch of a sharp phone photo's master


def measure(
    games: int, models: dict[str, Models], sheets: Path, prints: tuple[str, ...] = PRINTS[:2],
    seed: int = 2025,
) -> dict[str, Counter[str]]:
    """Tallies per ``"<model> <print>"`` (``prints`` among :data:`PRINTS`): cells, wrong, empty,
    empty_drawn, ruins_drawn, failed and ``.->X`` for each terrain X read on an empty cell."""
    tallies: dict[str, Counter[str]] = {f"{m} {p}": Counter() for m in models for p in prints}
    with tempfile.TemporaryDirectory() as tmp:
        for k, path, blank in real_blanks(sheets):
            side = path.name[0]
            theme = "printfriendly" if "printfriendly" in path.stem else "color"
            printed = printed_side(side)
            for i in range(games):
                for where in prints:
                    rng = np.random.default_rng([seed, k, i])  # the same game and strokes on every print
                    game = random_game(rng, side=side)
                    if where == "real":
                        page = render_page(game.sheet, rng, pieces=game.pieces, split="params", blank=blank)
                    else:
                        page = render_page(game.sheet, rng, pieces=game.pieces, split="params",
                                           ppc=RENDER_PPC, theme=theme, print_marks=where == "marked")
                    target = Path(tmp) / f"{path.stem}_{i}_{where}.jpg"
                    target.write_bytes(photograph(page, rng, tier="phone").jpeg)
                    # printed mountains and wasteland are never "."
                    empty = sum(game.sheet[r, c].value == "." for r in range(11) for c in range(11))
                    for name, m in models.items():
                        t = tallies[f"{name} {where}"]
                        reading = read_photo(target, side=side, models=m)
                        if isinstance(reading, Failure):
                            t["failed"] += 1
                            continue
                        cells, _, wrong = _misread(game.sheet, reading.guess)
                        t["cells"] += cells
                        t["wrong"] += len(wrong)
                        t["empty"] += empty
                        for cell, got in wrong:
                            if game.sheet[cell].value == ".":
                                t["empty_drawn"] += 1
                                t["ruins_drawn"] += cell in printed.ruins
                                t[f".->{got}"] += 1
    return tallies


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=6, help="random games drawn on each sheet, once a print")
    ap.add_argument("--marks", action="store_true", help="also on the renderer's print with fine marks")
    ap.add_argument("--models", type=Path, action="append", default=None,
                    help="model directory, repeatable (default: the committed models)")
    reference_images.add_option(ap)
    args = ap.parse_args()
    sheets = reference_images.sheets_to_measure(args.reference)
    if sheets is None:
        return
    models = {str(d): load_models(d) for d in args.models} if args.models else {"committed": default_models()}
    prints = PRINTS if args.marks else PRINTS[:2]
    print(f"{args.games} game(s) a reference sheet, each drawn on the prints {', '.join(prints)} "
          f"(params-split hand, phone tier)")
    tallies = measure(args.games, models, sheets, prints)
    print(f"{'models and print':42} {'cells':>6} {'wrong':>6} {'empty':>6} {'->drawn':>7} {'ruins':>5} "
          f"{'failed':>6}  commonest")
    for key, t in tallies.items():
        common = ", ".join(f"{k} {v}" for k, v in t.most_common() if k.startswith(".->"))
        print(f"{key[-42:]:42} {t['cells']:6d} {t['wrong']:6d} {t['empty']:6d} {t['empty_drawn']:7d} "
              f"{t['ruins_drawn']:5d} {t['failed']:6d}  {common}")


if __name__ == "__main__":
    main()
