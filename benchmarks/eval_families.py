"""The classifier read on each drawing family apart: the leave-one-family-out table.

    python benchmarks/eval_families.py [--sheets 30] [--split eval] [--tier phone] [--models DIR ...]
                                       [--families graphite,glyph,...]

For every drawing family (:data:`models.synth.style.ALL_FAMILIES`: built-in icons in graphite, icon-font
designs, coloured fills, fills with icons, marker doodles, a mix, people's Quick, Draw! doodles, pencil
icons of designs no training hand draws, a second author's held-out pencil designs, and a third
author's pencil designs, ``studio``, whose eval split draws only the designs no training hand drew),
``--sheets`` synthetic photos of random games, drawn in that family only (``--split eval``: the held-out
hand drawing held-out pictures, including icon fonts training never used; ``params``: the held-out hand,
training pictures), one camera tier, rectified with the true corners jittered like the locator's error,
are read by ``classify_sheet`` (per-sheet decoding included) with every model directory given. Per
family and model it prints, over the drawable cells: right by best guess, reported as ``?``, reported
wrongly with confidence; over the sheets: every cell, coin and star right with no ``?`` (exact), the
same by best guess, and every cell either right or ``?`` with coins and stars right (fixable: the
player's answers to the ``?`` then give the exact score; a cell wrong without ``?`` is never asked
about), coin tracks right (coins), right with no coin doubtful (sure: what ``score`` takes without
asking) and wrong with none (silent); over the hero cells: read as hero by best guess, and other cells
read as hero.

The rendered inputs are cached under ``.cache/families`` (per source fingerprint), so several model
directories, or a second run, read the very same photos without rendering them again. A model
directory is compared on families it was trained without (leave-one-family-out) or with. With two or
more model directories (and no ``--lofo``), each after the first is also set against the first on the
same photos: the difference in cells right and in cells wrong with confidence, with a 95 % interval from
a paired bootstrap over sheets (:mod:`models.compare`). A family's errors come a whole terrain of a
sheet at a time, so a point of difference on 30 photos is often one sheet; use 100 photos a family
(``--sheets 100``) to tell two nets apart.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from models import dataset as ds
from models.compare import paired_difference
from models.synth.style import ALL_FAMILIES, HELD_OUT_FAMILIES, SPLITS
from rules import Sheet
from scanner.classify import classify_sheet
from scanner.constants import TERRAIN_SYMBOLS
from scanner.nets import load_models

CACHE = ds.SHEET_CACHE
#: Seeds of this benchmark: the bench range, apart from eval_classifier's and bench_end_to_end's.
SEED0 = ds.SEED_BASE["bench"] + 300_000


def seeds(family: str, n: int) -> list[int]:
    return [SEED0 + ds.FAMILY_STRIDE * ALL_FAMILIES.index(family) + i for i in range(n)]


def count(x: dict[str, object], models: object, t: dict[str, float]) -> None:
    truth = Sheet.parse(str(x["truth"]))
    reading = classify_sheet(x["cells"], truth.side, coin_patches=x["coins"],  # type: ignore[arg-type]
                             edge_strips={"horizontal": x["horizontal"], "vertical": x["vertical"]},  # type: ignore[dict-item]
                             models=models)  # type: ignore[arg-type]
    best = reading.probabilities.argmax(axis=-1)
    exact = guess = honest = True
    for sym, k, got in ds.drawable_outcomes(truth, reading.grid, best):
        top = TERRAIN_SYMBOLS[k]
        t["cells"] += 1
        t["right"] += top == sym
        t["unsure"] += got == "?"
        t[f"unsure {sym}"] += got == "?"
        t["wrong_sure"] += got not in ("?", sym)
        t["heroes"] += sym == "H"
        t["heroes_right"] += sym == "H" and top == "H"
        t["false_heroes"] += sym != "H" and top == "H"
        guess &= top == sym
        exact &= got == sym
        honest &= got in ("?", sym)
    coins_ok = (reading.coins, reading.spent) == (truth.coins, truth.spent)
    rest = coins_ok and reading.stars == truth.stars
    t["coins_right"] += coins_ok
    t["coins_sure"] += coins_ok and not reading.doubtful_coins
    t["coins_silent"] += not coins_ok and not reading.doubtful_coins
    t["exact"] += exact and rest and not reading.doubtful_coins
    t["guess_exact"] += guess and rest
    t["honest"] += honest and rest
    t["sheets"] += 1


def unsure_by_terrain(name: str, tallies: Sequence[dict[str, float]]) -> str:
    """One model's `?` cells per true terrain, summed over its tallies (one a family): where its doubt
    goes."""
    keys = [(sym, f"unsure {sym}") for sym in TERRAIN_SYMBOLS]
    parts = [f"{sym} {int(sum(t[k] for t in tallies if k in t))}" for sym, k in keys
             if any(k in t for t in tallies)]
    return f"{name[-14:]:>14}  " + ", ".join(parts)


def header() -> str:
    return (f"{'family':11} {'model':>14} {'sheets':>6} {'cells':>6} {'right':>7} {'?':>6} "
            f"{'sure wrong':>10} {'exact':>6} {'guess ex':>8} {'fixable':>7} {'coins':>6} "
            f"{'sure':>6} {'silent':>6} {'heroes':>9} {'false H':>7}")


def row(family: str, name: str, t: dict[str, float]) -> str:
    cells, sheets = max(t["cells"], 1), max(t["sheets"], 1)
    return (f"{family:11} {name[-14:]:>14} {int(t['sheets']):6d} {int(t['cells']):6d} "
            f"{100 * t['right'] / cells:6.2f}% {100 * t['unsure'] / cells:5.2f}% "
            f"{100 * t['wrong_sure'] / cells:9.2f}% {100 * t['exact'] / sheets:5.1f}% "
            f"{100 * t['guess_exact'] / sheets:7.1f}% {100 * t['honest'] / sheets:6.1f}% "
            f"{100 * t['coins_right'] / sheets:5.1f}% {100 * t['coins_sure'] / sheets:5.1f}% "
            f"{100 * t['coins_silent'] / sheets:5.1f}% "
            f"{int(t['heroes_right']):4d}/{int(t['heroes']):<4d} {int(t['false_heroes']):7d}")


#: Per-sheet tallies kept for the paired comparison of models (``--compare``).
PER_SHEET = ("cells", "right", "wrong_sure")


def measure(
    families: Sequence[str], n: int, *, split: str, tier: str, dirs: Sequence[Path | None],
    only: Sequence[str | None] | None = None, key: str | None = None,
    sheets: dict[tuple[str, str], list[tuple[float, ...]]] | None = None,
) -> dict[tuple[str, str], dict[str, float]]:
    """Counts per (family, model name); ``only[i]``: read model ``i`` on that family alone (and on the
    families no net trains on, :data:`models.synth.style.HELD_OUT_FAMILIES`);
    ``sheets``: filled with each sheet's :data:`PER_SHEET` counts per (family, model name), in seed order."""
    models = [load_models(d) for d in dirs]
    names = [str(d) if d is not None else "committed" for d in dirs]
    out: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for fam in families:
        for seed in seeds(fam, n):
            x = ds.sheet_inputs(seed, fam, split, tier, cache=CACHE, key=key)
            for i, (m, name) in enumerate(zip(models, names, strict=True)):
                if only is None or only[i] in (None, fam) or fam in HELD_OUT_FAMILIES:
                    t = out[(fam, name)]
                    before = [t[k] for k in PER_SHEET]
                    count(x, m, t)
                    if sheets is not None:
                        sheets.setdefault((fam, name), []).append(
                            tuple(t[k] - b for k, b in zip(PER_SHEET, before, strict=True)))
    return out


def compare_rows(
    families: Sequence[str], names: Sequence[str], sheets: dict[tuple[str, str], list[tuple[float, ...]]],
) -> list[str]:
    """Each model after the first against the first, family by family, on the same sheets: cells right
    and wrong with confidence, the difference in points and its 95 % paired bootstrap interval over
    sheets (:func:`models.compare.paired_difference`); ``*`` marks an interval that leaves out zero."""
    lines = []
    for fam in families:
        if (fam, names[0]) not in sheets:
            continue
        base = np.array(sheets[(fam, names[0])])
        for name in names[1:]:
            if (fam, name) not in sheets:
                continue
            other = np.array(sheets[(fam, name)])
            right = paired_difference(base[:, 1], other[:, 1], base[:, 0])
            wrong = paired_difference(base[:, 2], other[:, 2], base[:, 0])
            lines.append(f"{fam:11} {name[-14:]:>14} right {right}{'*' if right.clear else ' '}  "
                         f"sure wrong {wrong}{'*' if wrong.clear else ' '}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", type=int, default=30, help="photos per family")
    ap.add_argument("--split", default="eval", choices=SPLITS)
    ap.add_argument("--tier", default="phone", choices=ds.TIERS_ORDER)
    ap.add_argument("--families", default=",".join(ALL_FAMILIES))
    ap.add_argument("--models", type=Path, action="append", default=None,
                    help="model directory (repeatable; default: the committed models)")
    ap.add_argument("--lofo", type=Path, default=None,
                    help="a folder of leave-one-family-out model directories named 'without-<family>': "
                         "each read on its own held-out family only, and on the families no net trains "
                         "on (sketch, outsider)")
    ap.add_argument("--render-only", action="store_true", help="fill the cache and stop")
    ap.add_argument("--key", default=None, help="cache folder name (default: the renderer's fingerprint)")
    ap.add_argument("--by-terrain", action="store_true",
                    help="also print each model's '?' cells per true terrain, over all families read")
    args = ap.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    t0 = time.perf_counter()
    if args.render_only:
        for fam in families:
            for seed in seeds(fam, args.sheets):
                ds.sheet_inputs(seed, fam, args.split, args.tier, cache=CACHE, key=args.key)
        print(f"cached {len(families) * args.sheets} photos in {time.perf_counter() - t0:.0f} s")
        return
    dirs: list[Path | None] = list(args.models) if args.models else [None]
    only: list[str | None] = [None] * len(dirs)
    if args.lofo is not None:
        held = [f for f in families if (args.lofo / f"without-{f}").is_dir()]
        dirs += [args.lofo / f"without-{f}" for f in held]
        only += held
    per_sheet: dict[tuple[str, str], list[tuple[float, ...]]] = {}
    counts = measure(families, args.sheets, split=args.split, tier=args.tier, dirs=dirs, only=only,
                     key=args.key, sheets=per_sheet)
    print(f"drawing families, {args.split} split, {args.tier} tier, {args.sheets} photos each "
          f"(seeds from {SEED0}); cells = drawable cells; right = best guess; '?' = reported unsure; "
          f"sure wrong = reported wrongly without '?'")
    print(header())
    for fam in families:
        for d in dirs:
            name = str(d) if d is not None else "committed"
            if (fam, name) in counts:
                print(row(fam, name, counts[(fam, name)]))
    names = [str(d) if d is not None else "committed" for d in dirs]
    if args.by_terrain:
        print("'?' cells per true terrain, all families above together")
        for name in names:
            print(unsure_by_terrain(name, [t for (_, n), t in counts.items() if n == name]))
    if len(names) > 1 and args.lofo is None:
        print(f"against {names[0]}, the same photos: points of drawable cells, 95 % interval of a paired "
              "bootstrap over sheets (* leaves out zero)")
        print("\n".join(compare_rows(families, names, per_sheet)))
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
