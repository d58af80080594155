"""Coin tracks alone, read at several track thresholds: what ``COIN_TRACK_THRESHOLD`` is fitted on.

    python benchmarks/eval_coin_tracks.py [--sheets 60] [--start 3000] [--split eval] [--tier phone]
                                          [--thresholds 0.8,0.85,0.9] [--bench] [--key KEY] [--models DIR]

Synthetic photos of each drawing family (``models.dataset.sheet_inputs``, cached under
``.cache/families`` like ``eval_families.py``): by default ``family_seeds(split, family, sheets,
start=start)``, a seed range of its own apart from ``eval_families``' photos (``--bench``: those
photos instead, to report on). The coin net reads each track once; ``scanner.classify.read_coin_track``
then decides it at every threshold given. Per threshold: tracks right by best guess, right with no coin
doubtful (clear: what ``score`` takes without asking), right but doubted, and wrong with no coin
doubtful (silent: the figure that must stay near zero). ``--models``: a model directory other than the
installed one (a coin net to compare).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from eval_families import seeds as bench_seeds

from models import dataset as ds
from models.synth.style import ALL_FAMILIES, SPLITS
from rules import Sheet
from scanner.classify import read_coin_track, read_coins
from scanner.constants import COIN_CLASSES
from scanner.nets import Models, default_models, load_models, white_balance

CACHE = ds.SHEET_CACHE


def tracks(families: Sequence[str], seeds_of: dict[str, list[int]], *, split: str, tier: str,
           key: str | None, models: Models | None = None,
           ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]]:
    """The coin net's reading (probabilities, features, balanced patches) and the truth of each photo."""
    models = models or default_models()
    out = []
    for fam in families:
        for seed in seeds_of[fam]:
            x = ds.sheet_inputs(seed, fam, split, tier, cache=CACHE, key=key)
            truth = Sheet.parse(str(x["truth"]))
            patches = white_balance(x["coins"], x["cells"])
            probs, features = read_coins(models, patches)
            out.append((probs, features, patches, (truth.coins, truth.spent)))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", type=int, default=60, help="photos per family")
    ap.add_argument("--start", type=int, default=3000, help="first family seed (family_seeds' start)")
    ap.add_argument("--split", default="eval", choices=SPLITS)
    ap.add_argument("--tier", default="phone", choices=ds.TIERS_ORDER)
    ap.add_argument("--families", default=",".join(ALL_FAMILIES))
    ap.add_argument("--thresholds", default="0.75,0.8,0.85,0.88,0.9,0.93")
    ap.add_argument("--bench", action="store_true", help="eval_families' photos (report, not fit)")
    ap.add_argument("--key", default=None, help="cache folder name (default: the renderer's fingerprint)")
    ap.add_argument("--models", type=Path, default=None, help="model directory (default: the installed one)")
    args = ap.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    seeds_of = {f: (bench_seeds(f, args.sheets) if args.bench
                    else ds.family_seeds(args.split, f, args.sheets, start=args.start)) for f in families}
    t0 = time.perf_counter()
    models = load_models(args.models) if args.models else None
    read = tracks(families, seeds_of, split=args.split, tier=args.tier, key=args.key, models=models)
    print(f"coin tracks, {args.split} split, {args.tier} tier, {len(read)} photos "
          f"({'eval_families seeds' if args.bench else f'family seeds from {args.start}'})")
    print(f"{'threshold':>9} {'right':>6} {'clear':>6} {'doubted':>8} {'silent':>7}")
    for threshold in (float(t) for t in args.thresholds.split(",")):
        right = clear = silent = 0
        for probs, features, patches, truth in read:
            states, _, doubtful = read_coin_track(probs, features, patches, track_threshold=threshold)
            names = [COIN_CLASSES[k] for k in states]
            ok = (names.count("filled"), names.count("crossed")) == truth
            right += ok
            clear += ok and not doubtful.any()
            silent += not ok and not doubtful.any()
        print(f"{threshold:9.2f} {right:6d} {clear:6d} {right - clear:8d} {silent:7d}")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
