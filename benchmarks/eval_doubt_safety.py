"""Are the doubts safe? Over many cached synthetic photos: confident errors, truths the policy never weighs.

    python benchmarks/eval_doubt_safety.py [--key KEY] [--models DIR]

The scoring policy (:mod:`rules.policy`) weighs, for each ``?`` cell, the readings at
``ALTERNATIVE_PROBABILITY`` or more. A decoding change that shrinks what a ``?`` cell offers (pruning) or
what is doubted must not do so by dropping the truth. Over the phone photos the decoder is judged on
(``eval_families``' cache, 190 a drawing family: the eval-split fit photos from family seed 3000, 60 a
family, the reported eval photos, 100 a family, and params, 30 a family; 1,520 photos with the
``sketch`` family, 1,330 before it), this prints, in all and by family: drawable cells; cells wrong
without a ``?`` (confident errors); ``?`` cells whose truth lies under the floor (never weighed: the
policy may settle on a wrong score); readings weighed beside the best; and sheets whose every drawable
cell is right or ``?`` with its truth weighed (fixable by cells: coins and stars aside).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import eval_families as ef

from models import dataset as ds
from models.synth.style import ALL_FAMILIES
from rules import Sheet
from scanner.classify import classify_sheet
from scanner.constants import ALTERNATIVE_PROBABILITY, TERRAIN_SYMBOLS
from scanner.nets import default_models, load_models

#: (split, photos a family, first family seed; 0: eval_families' own seeds)
SETS = (("eval", 60, 3000), ("eval", 100, 0), ("params", 30, 0))


def judge(x: dict[str, object], models: object, t: Counter[str]) -> None:
    truth = Sheet.parse(str(x["truth"]))
    reading = classify_sheet(x["cells"], truth.side, coin_patches=x["coins"],  # type: ignore[arg-type]
                             edge_strips={"horizontal": x["horizontal"], "vertical": x["vertical"]},  # type: ignore[dict-item]
                             models=models)  # type: ignore[arg-type]
    p = reading.probabilities
    fixable = True
    for r in range(11):
        for c in range(11):
            sym = truth[r, c].value
            if sym not in ds.CLASS_OF:
                continue
            k = TERRAIN_SYMBOLS.index(sym)
            unsure = reading.grid[r][c] == "?"
            t["cells"] += 1
            if not unsure and int(p[r, c].argmax()) != k:
                t["confident_errors"] += 1
                fixable = False
            if unsure:
                t["readings_beside_best"] += int((p[r, c] >= ALTERNATIVE_PROBABILITY).sum()) - 1
                if p[r, c, k] < ALTERNATIVE_PROBABILITY:
                    t["truth_under_floor"] += 1
                    fixable = False
    t["photos"] += 1
    t["fixable_by_cells"] += fixable


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--key", default="7b9152b88cee", help="eval_families' cache folder name")
    ap.add_argument("--models", type=Path, default=None, help="model directory (default: the installed one)")
    ap.add_argument("--families", default=",".join(ALL_FAMILIES),
                    help="drawing families to read (totals before the grammar family: all but grammar)")
    args = ap.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    if unknown := sorted(set(families) - set(ALL_FAMILIES)):
        raise SystemExit(f"unknown drawing families: {', '.join(unknown)}")
    models = load_models(args.models) if args.models else default_models()
    t: Counter[str] = Counter()
    by_family: dict[str, Counter[str]] = {fam: Counter() for fam in families}
    t0 = time.perf_counter()
    for split, n, start in SETS:
        for fam in families:
            seeds = ef.seeds(fam, n) if start == 0 else ds.family_seeds(split, fam, n, start=start)
            for seed in seeds:
                one: Counter[str] = Counter()
                judge(ds.sheet_inputs(seed, fam, split, "phone", cache=ef.CACHE, key=args.key), models, one)
                t.update(one)
                by_family[fam].update(one)
    print(f"{t['photos']} photos, {t['cells']} drawable cells ({time.perf_counter() - t0:.0f} s)")
    names = ("confident_errors", "truth_under_floor", "readings_beside_best", "fixable_by_cells")
    for name in names:
        print(f"  {name.replace('_', ' '):22s} {t[name]}")
    print("by family: " + " / ".join(n.replace("_", " ") for n in ("photos", *names)))
    for fam in families:
        print(f"  {fam:12s} " + " / ".join(str(by_family[fam][n]) for n in ("photos", *names)))


if __name__ == "__main__":
    main()
