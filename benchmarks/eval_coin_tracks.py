"""Coin tracks alone, read at several track thresholds: what ``COIN_TRACK_THRESHOLD`` is fitted on.

    python benchmarks/eval_coin_tracks.py [--sheets 60] [--start 3000] [--split eval] [--tier phone]
                                          [--thresholds 0.8,0.85,0.9] [--bench] [--key KEY] [--models DIR]
                                          [--list] [--strips DIR]

Synthetic photos of each drawing family (``models.dataset.sheet_inputs``, cached under
``.cache/families`` like ``eval_families.py``): by default ``family_seeds(split, family, sheets,
start=start)``, a seed range of its own apart from ``eval_families``' photos (``--bench``: those
photos instead, to report on). The coin net reads each track once; ``scanner.classify.read_coin_track``
then decides it at every threshold given. Per threshold: tracks right by best guess, right with no coin
doubtful (clear: what ``score`` takes without asking), right but doubted, and wrong with no coin
doubtful (silent: the figure that must stay near zero). ``--models``: a model directory other than the
installed one (a coin net to compare). ``--list``: at the product's threshold (``COIN_TRACK_THRESHOLD``),
every track read wrong with no coin doubtful and every right one doubted, with its true and read
(coins, spent), the read states (``.`` empty, ``F`` filled, ``X`` crossed) and the net's (empty, filled,
crossed) probabilities of its marked coins and the next; ``--strips DIR``: those tracks' coin patches
as PNG strips to look at (each coin enlarged, its read state and net odds under it, doubted coins red).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
from eval_families import seeds as bench_seeds

from models import dataset as ds
from models.synth.style import ALL_FAMILIES, SPLITS
from rules import Sheet
from scanner.classify import read_coin_track, read_coins
from scanner.constants import COIN_TRACK_THRESHOLD
from scanner.decode import coins_and_spent
from scanner.nets import Models, default_models, load_models, white_balance

CACHE = ds.SHEET_CACHE


class Track(NamedTuple):
    """One photo's coin track: the coin net's reading and the truth."""

    family: str
    seed: int
    probs: np.ndarray
    features: np.ndarray
    patches: np.ndarray  # white-balanced
    truth: tuple[int, int]  # (coins, spent)


def tracks(families: Sequence[str], seeds_of: dict[str, list[int]], *, split: str, tier: str,
           key: str | None, models: Models | None = None) -> list[Track]:
    """The coin net's reading (probabilities, features, balanced patches) and the truth of each photo."""
    models = models or default_models()
    out = []
    for fam in families:
        for seed in seeds_of[fam]:
            x = ds.sheet_inputs(seed, fam, split, tier, cache=CACHE, key=key)
            truth = Sheet.parse(str(x["truth"]))
            patches = white_balance(x["coins"], x["cells"])
            probs, features = read_coins(models, patches)
            out.append(Track(fam, seed, probs, features, patches, (truth.coins, truth.spent)))
    return out


#: A read coin state as one character: empty, filled, crossed (COIN_CLASSES order).
MARKS = ".FX"


def strip(track: Track, states: np.ndarray, doubtful: np.ndarray, shown: int, scale: int = 4) -> np.ndarray:
    """The first ``shown`` coin patches side by side, enlarged, each with its read state and net odds."""
    tiles = []
    for i in range(shown):
        tile = cv2.resize(track.patches[i], None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        tile = cv2.copyMakeBorder(tile, 0, 36, 2, 2, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        e, f, x = track.probs[i]
        ink = (0, 0, 200) if doubtful[i] else (0, 0, 0)
        size = tile.shape[0]
        cv2.putText(tile, f"{MARKS[states[i]]} f{f:.2f}", (3, size - 22), cv2.FONT_HERSHEY_SIMPLEX, 0.45, ink)
        cv2.putText(tile, f"x{x:.2f} e{e:.2f}", (3, size - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.45, ink)
        tiles.append(tile)
    row = np.concatenate(tiles, axis=1)
    head = np.full((24, row.shape[1], 3), 255, np.uint8)
    got = coins_and_spent(states)
    cv2.putText(head, f"{track.family} {track.seed} true {track.truth} read {got}", (3, 17),
                cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0))
    return np.concatenate([head, row], axis=0)


def list_tracks(read: Sequence[Track], strips: Path | None) -> None:
    """Print (and with ``strips`` draw) the tracks read wrong with no doubt and the right ones doubted."""
    if strips is not None:
        strips.mkdir(parents=True, exist_ok=True)
    for t in read:
        states, _, doubtful = read_coin_track(t.probs, t.features, t.patches)
        got = coins_and_spent(states)
        ok = got == t.truth
        if ok != bool(doubtful.any()):
            continue
        shown = min(len(states), max(sum(got), sum(t.truth)) + 1)
        what = "right, doubted" if ok else "WRONG, no doubt"
        odds = " ".join(f"{e:.2f}/{f:.2f}/{x:.2f}" for e, f, x in t.probs[:shown])
        print(f"  {what:15} {t.family:10} {t.seed}: true {t.truth} read {got} "
              f"{''.join(MARKS[k] for k in states[:shown])} doubted {np.flatnonzero(doubtful).tolist()}; "
              f"net (empty/filled/crossed) {odds}")
        if strips is not None:
            name = f"{'doubted' if ok else 'silent'}-{t.family}-{t.seed}.png"
            cv2.imwrite(str(strips / name), strip(t, states, doubtful, min(len(states), shown + 1)))


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
    ap.add_argument("--list", action="store_true",
                    help=f"list the silent and the doubted right tracks at {COIN_TRACK_THRESHOLD}")
    ap.add_argument("--strips", type=Path, default=None,
                    help="with --list: write their coin strips here (PNG)")
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
        for t in read:
            states, _, doubtful = read_coin_track(t.probs, t.features, t.patches, track_threshold=threshold)
            ok = coins_and_spent(states) == t.truth
            right += ok
            clear += ok and not doubtful.any()
            silent += not ok and not doubtful.any()
        print(f"{threshold:9.2f} {right:6d} {clear:6d} {right - clear:8d} {silent:7d}")
    if args.list or args.strips:
        print(f"tracks wrong with no doubt, and right but doubted, at {COIN_TRACK_THRESHOLD}:")
        list_tracks(read, args.strips)
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
