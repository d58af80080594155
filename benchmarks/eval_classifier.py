"""Accuracy of the committed classifier on data it never saw.

    python benchmarks/eval_classifier.py [--sheets 100] [--adapt | --no-adapt] [--decode | --no-decode]
                                         [--threshold T] [--split S] [--models DIR ...]

``--models`` (repeatable) compares model directories on the same rendered sheets (default: the
committed models).

1. Synthetic photos from the ``bench`` seed range (never used by training) drawn with eval-split drawing
   styles (``DrawStyle.random(rng, split="eval")``; ``--split params`` keeps the held-out hand but draws
   the training icons and coin marks, ``--split train`` draws training styles), all camera tiers,
   rectified with the true corners jittered like the locator's error. Reports per-tier cell accuracy on
   drawable cells (argmax, no abstention), coverage (fraction of cells not ``?``), accuracy of the
   non-``?`` cells, the exact-sheet rate (grid with no ``?``, coins, spent and stars all right), the
   "guess exact" rate (the same with every cell's most likely reading, as ``--allow-doubtful``), the
   sheets whose coins or spent coins are wrong with no coin doubtful ("coins silent": `score` would
   print them) and the per-class confusion matrix.
2. Real drawings from ``drawing/`` of the reference folder (``--reference DIR`` or ``$CARTOSCAN_REFERENCE``;
   read at run time, never copied or trained on):
   the doodles composited onto the paper of a rendered blank sheet, and cells cut from the rulebook
   images by the hand-given boxes below.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import reference_images

from models import dataset as ds
from models.synth.style import SPLITS
from scanner.classify import (
    ADAPT_DEFAULT,
    DECODE_DEFAULT,
    TERRAIN_CLASSES,
    TERRAIN_SYMBOLS,
    classify_sheet,
)
from scanner.constants import CANON_MARGIN, CANON_PPC
from scanner.nets import Models, load_models
from scanner.sample import cell_patches, coin_patches, edge_strips

#: Doodle file name stem (German) -> terrain symbol.
DOODLE_TERRAIN = {"Acker": "P", "Baum": "F", "Haus": "V", "Monster": "M", "Wasser": "W"}
#: Hand-given cell boxes (x0, y0, x1, y1) in the rulebook images, with their terrain.
RULEBOOK_CELLS = {
    "rulebook_water_monster_village.png": [
        ((50, 95, 117, 162), "W"), ((117, 95, 185, 162), "W"), ((50, 162, 117, 230), "W"),
        ((185, 162, 252, 230), "M"), ((117, 230, 185, 297), "V"), ((185, 230, 252, 297), "V"),
        ((185, 95, 252, 162), "."), ((50, 230, 117, 297), "."),
    ],
    "rulebook_forest_outline.png": [
        ((80, 476, 147, 543), "F"), ((147, 476, 213, 543), "F"), ((147, 543, 213, 610), "F"),
        ((213, 543, 280, 610), "F"), ((80, 410, 147, 476), "."), ((147, 410, 213, 476), "."),
        ((80, 543, 147, 610), "."),
    ],
    "rulebook_terrain_legend.png": [
        ((46, 54, 81, 89), "F"), ((90, 54, 125, 89), "V"), ((134, 54, 169, 89), "P"),
        ((177, 54, 212, 89), "W"), ((221, 54, 256, 89), "M"),
    ],
}
BENCH_SEED = ds.SEED_BASE["bench"]


def synthetic(
    n: int, *, adapt: bool, threshold: float | None, split: str = "eval",
    dirs: Sequence[Path | None] = (None,), decode: bool = DECODE_DEFAULT,
) -> None:
    results = _measure(n, adapt=adapt, threshold=threshold, split=split, dirs=dirs, decode=decode)
    for d, (per_tier, confusion) in zip(dirs, results, strict=True):
        print(f"synthetic photos: {n} sheets (seeds {BENCH_SEED}..{BENCH_SEED + n - 1}, {split}-split "
              f"drawing styles), adapt={adapt}, decode={decode}, models {d or 'committed'}")
        _table(per_tier, confusion)


def _measure(
    n: int, *, adapt: bool, threshold: float | None, split: str, dirs: Sequence[Path | None],
    decode: bool = DECODE_DEFAULT,
) -> list[tuple[dict[str, dict[str, float]], np.ndarray]]:
    """Per model directory: per-tier counts and the confusion matrix over the same ``n`` sheets."""
    all_models = [load_models(d) for d in dirs]
    kw = _options(adapt, threshold, decode)
    k = len(TERRAIN_CLASSES)
    results: list[tuple[dict[str, dict[str, float]], np.ndarray]] = [
        (defaultdict(lambda: defaultdict(float)), np.zeros((k, k), int)) for _ in dirs]
    for i in range(n):
        seed = BENCH_SEED + i
        tier = ds.tier_of(seed)
        sample = ds.render(seed, split=split, tier=tier)
        canonical = ds.canonical_of(sample, np.random.default_rng([seed, 77]))
        for models, (per_tier, confusion) in zip(all_models, results, strict=True):
            _count(sample, canonical, models, per_tier[tier], confusion, kw)
    return results


def _options(adapt: bool, threshold: float | None, decode: bool = DECODE_DEFAULT) -> dict:
    """The classify_sheet keywords the command line chose (threshold only when given)."""
    return {"adapt": adapt, "decode": decode, **({"threshold": threshold} if threshold is not None else {})}


def _count(sample: ds.Sample, canonical: np.ndarray, models: Models, t: dict[str, float],
           confusion: np.ndarray, kw: dict) -> None:
    reading = classify_sheet(cell_patches(canonical), sample.sheet.side,
                             coin_patches=coin_patches(canonical),
                             edge_strips=edge_strips(canonical)._asdict(), models=models,
                             **kw)
    truth = sample.sheet
    best = reading.probabilities.argmax(axis=-1)
    exact = guess = True
    for sym, k, got in ds.drawable_outcomes(truth, reading.grid, best):
        confusion[ds.CLASS_OF[sym], k] += 1
        t["cells"] += 1
        t["argmax_right"] += TERRAIN_SYMBOLS[k] == sym
        guess &= TERRAIN_SYMBOLS[k] == sym
        if got == "?":
            exact = False
        else:
            t["kept"] += 1
            t["kept_right"] += got == sym
            exact &= got == sym
    coin_ok = (reading.coins, reading.spent) == (truth.coins, truth.spent)
    t["coins_right"] += coin_ok
    t["coins_silent"] += not coin_ok and not reading.doubtful_coins
    t["stars_right"] += reading.stars == truth.stars
    t["exact"] += exact and coin_ok and reading.stars == truth.stars
    t["guess_exact"] += guess and coin_ok and reading.stars == truth.stars
    t["sheets"] += 1


def _table(per_tier: dict[str, dict[str, float]], confusion: np.ndarray) -> None:
    print(f"{'tier':8} {'sheets':>6} {'cells':>6} {'cell acc':>9} {'coverage':>9} {'kept acc':>9} "
          f"{'exact sheet':>11} {'guess exact':>11} {'coins ok':>8} {'coins silent':>12} {'stars ok':>8}")
    total: dict[str, float] = defaultdict(float)
    for tier in ds.TIERS_ORDER:
        if tier not in per_tier:
            continue
        t = per_tier[tier]
        for key, v in t.items():
            total[key] += v
        _row(tier, t)
    _row("all", total)
    print("\nconfusion (rows truth, columns argmax):")
    print(" " * 10 + "".join(f"{c[:7]:>8}" for c in TERRAIN_CLASSES))
    for i, name in enumerate(TERRAIN_CLASSES):
        print(f"{name:10}" + "".join(f"{v:8d}" for v in confusion[i]))


def _row(name: str, t: dict[str, float]) -> None:
    cells = max(t["cells"], 1)
    print(f"{name:8} {int(t['sheets']):6d} {int(t['cells']):6d} {t['argmax_right'] / cells:9.4f} "
          f"{t['kept'] / cells:9.4f} {t['kept_right'] / max(t['kept'], 1):9.4f} "
          f"{t['exact'] / max(t['sheets'], 1):11.3f} {t['guess_exact'] / max(t['sheets'], 1):11.3f} "
          f"{t['coins_right'] / max(t['sheets'], 1):8.3f} "
          f"{t['coins_silent'] / max(t['sheets'], 1):12.3f} {t['stars_right'] / max(t['sheets'], 1):8.3f}")


def _blank_canonical() -> np.ndarray:
    """Canonical image of a rendered, photographed (scan tier) blank side-A sheet: real project paper."""
    sample = ds.render(BENCH_SEED + 99_999, split="eval", tier="scan", blank=True)
    return ds.canonical_of(sample, None)


def _paste(canonical: np.ndarray, r: int, c: int, cell_img: np.ndarray) -> None:
    o = round(CANON_MARGIN * CANON_PPC)
    y, x = o + r * CANON_PPC, o + c * CANON_PPC
    size = (CANON_PPC, CANON_PPC)
    canonical[y : y + CANON_PPC, x : x + CANON_PPC] = cv2.resize(cell_img, size, interpolation=cv2.INTER_AREA)


def _composite(rgba: np.ndarray, paper: np.ndarray, scale: float) -> np.ndarray:
    """Doodle (RGBA, transparent background) multiplied onto a paper cell, scaled to ``scale`` of it."""
    size = paper.shape[0]
    inner = max(4, round(size * scale))
    d = cv2.resize(rgba, (inner, inner), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = d[..., 3:] / 255.0
    out = paper.astype(np.float32).copy()
    o = (size - inner) // 2
    region = out[o : o + inner, o : o + inner]
    # Pigment on paper darkens: multiply the paper by the ink colour where the doodle is opaque.
    region[:] = region * (1 - alpha) + region * (d[..., :3] / 255.0) * alpha
    return out.astype(np.uint8)


def reference(
    drawings: Path, *, adapt: bool, threshold: float | None, decode: bool = DECODE_DEFAULT,
    directory: Path | None = None,
) -> None:
    models = load_models(directory)
    kw = _options(adapt, threshold, decode)
    blank = _blank_canonical()
    o = round(CANON_MARGIN * CANON_PPC)
    paper_cell = blank[o + 0 * CANON_PPC : o + CANON_PPC, o : o + CANON_PPC].copy()  # A1 is empty on side A
    # Doodles: 10 drawings, each on a free cell of one blank sheet, at two drawing sizes.
    free = [(r, c) for r in range(0, 11, 2) for c in range(0, 11, 2)][:10]
    print(f"\nreal drawings (read at run time from the reference folder; never trained on), models "
          f"{directory or 'committed'}:")
    for scale in (0.6, 0.8):
        canonical = blank.copy()
        truth = {}
        files = sorted((drawings / "doodles").glob("*.png"))
        for (r, c), f in zip(free, files, strict=False):
            rgba = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
            if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
                continue
            stem = f.stem.split("_")[-1].rstrip("0123456789")
            _paste(canonical, r, c, _composite(rgba, paper_cell, scale))
            truth[(r, c)] = (DOODLE_TERRAIN[stem], f.name)
        _report(f"doodles at {scale:.0%} of a cell", canonical, truth, models, kw)
    for name, boxes in RULEBOOK_CELLS.items():
        img = cv2.imread(str(drawings / name))
        if img is None:
            continue
        canonical = blank.copy()
        truth = {}
        for (r, c), ((x0, y0, x1, y1), sym) in zip(free, boxes, strict=False):
            _paste(canonical, r, c, img[y0:y1, x0:x1])
            truth[(r, c)] = (sym, f"{name}[{x0},{y0},{x1},{y1}]")
        _report(name, canonical, truth, models, kw)


def _report(title: str, canonical: np.ndarray, truth: dict, models: Models, kw: dict) -> None:
    reading = classify_sheet(cell_patches(canonical), "A", models=models, **kw)
    best = reading.probabilities.argmax(axis=-1)
    right = sum(TERRAIN_SYMBOLS[best[r, c]] == sym for (r, c), (sym, _) in truth.items())
    kept = [(r, c) for (r, c) in truth if reading.grid[r][c] != "?"]
    kept_right = sum(reading.grid[r][c] == truth[(r, c)][0] for r, c in kept)
    print(f"  {title}: argmax {right}/{len(truth)} right; {len(kept)} not '?', of which {kept_right} right")
    for (r, c), (sym, what) in truth.items():
        got = TERRAIN_SYMBOLS[best[r, c]]
        if got != sym or reading.grid[r][c] == "?":
            print(f"    {what}: truth {sym}, argmax {got} ({reading.probabilities[r, c].max():.2f}), "
                  f"reported {reading.grid[r][c]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", type=int, default=100)
    ap.add_argument("--adapt", action=argparse.BooleanOptionalAction, default=ADAPT_DEFAULT,
                    help="the per-sheet vote (default: as scanner.classify)")
    ap.add_argument("--decode", action=argparse.BooleanOptionalAction, default=DECODE_DEFAULT,
                    help="coin track as a prefix with the ink check, cells corrected by their outlined "
                         "pieces, heroes and stars read as attack patterns (default: as classify)")
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--split", default="eval", choices=SPLITS,
                    help="drawing styles: eval (held-out hand and pictures), params (held-out hand, "
                         "training icons and coin marks), train (styles like training's, on unseen seeds)")
    ap.add_argument("--no-reference", action="store_true", help="skip the real drawings")
    ap.add_argument("--models", type=Path, action="append", default=None,
                    help="model directory to evaluate (repeatable; default: the committed models)")
    reference_images.add_option(ap)
    args = ap.parse_args()
    dirs: list[Path | None] = list(args.models) if args.models else [None]
    synthetic(args.sheets, adapt=args.adapt, threshold=args.threshold, split=args.split, dirs=dirs,
              decode=args.decode)
    drawings = None if args.no_reference else reference_images.folder(args.reference, "drawing")
    if drawings is not None:
        for d in dirs:
            reference(drawings, adapt=args.adapt, threshold=args.threshold, decode=args.decode, directory=d)


if __name__ == "__main__":
    main()
