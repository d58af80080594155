"""Can the sheet tell which look-alike groups are different terrains? Issue 13's "the sheet as a constraint".

    python benchmarks/eval_sheet_constraint.py [--sheets 30] [--split eval] [--key KEY] [--families F,G]
                                               [--distinct FAR] [--models DIR]

One player draws one terrain one way and two terrains two ways, so two groups of look-alike cells
(:func:`scanner.decode.look_alike_groups`) drawn clearly differently could be made to take different
terrains. That can mend a reading only where the net reads two groups as the same terrain, and such a
pair is one of two kinds: one terrain split into two groups (the constraint must leave it alone) or two
terrains the net confuses, every house read as a forest (the constraint must part them). Per drawing
family (the cached photos of :mod:`eval_families`), over the groups of two or more drawable cells whose
true majority is a drawn terrain, this prints how many pairs of each kind there are and how well the
groups' mean cosine distance in the cell net's features tells the kinds apart (AUC: the chance that a
confused pair lies farther apart than a split one; the median distance of each), next to the AUC usually
quoted, same against different terrain over all pairs of drawn cells of a sheet, and the same over the
pairs of drawn cells the net reads as one terrain (each cell's own best guess): the confused-against-split
question cell by cell, free of the grouping's cut (a net whose features group otherwise may leave few
group pairs to count).

``--distinct FAR`` also reads the photos with a per-sheet decoder that was tried for the constraint and
not taken (README, issue 13): groups farther apart than ``FAR`` must not share a drawn terrain; the joint
best terrain of every group under that rule (summed log-probabilities, a shared terrain costing
``CLASH``) is found over each group's three likeliest terrains; a group it moves off its own best terrain
has that terrain damped (by the joint margin, at most ``DAMP``) before the usual pooling. It prints
:mod:`eval_families`' table without and with it.

``--models DIR`` reads with that model directory (e.g. a leave-one-family-out run) instead of the
committed models.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import eval_families as ef
import numpy as np

import scanner.classify as classify
from models import dataset as ds
from models.synth.style import ALL_FAMILIES, SPLITS
from rules import Sheet
from rules.sides import printed_side
from scanner.classify import classify_cells
from scanner.constants import LOG_FLOOR, TERRAIN_CLASSES
from scanner.decode import _unit, look_alike_groups
from scanner.nets import Models, default_models, load_models, paper_gain, white_balance

#: The terrains a player draws one way (empty cells, heroes and destroyed cells look many ways).
DRAWN = tuple(TERRAIN_CLASSES.index(name) for name in ("forest", "village", "farm", "water", "monster"))
CLASH = 50.0  # log-probability cost of two distant groups sharing a drawn terrain (near a hard rule)
DAMP = 4.6  # most a moved group's own best terrain is damped, in log-probability (x 0.01)
MOST = 6  # least sure groups searched jointly (3**6 assignments)


def auc(positive: np.ndarray, negative: np.ndarray) -> float:
    """Chance that a positive score exceeds a negative one (ties count half); nan when either is empty."""
    if positive.size == 0 or negative.size == 0:
        return float("nan")
    greater = (positive[:, None] > negative[None]).mean()
    ties = (positive[:, None] == negative[None]).mean()
    return float(greater + ties / 2)


def distinct_terrains(probs: np.ndarray, features: np.ndarray, groups: Sequence[Sequence[int]],
                      far: float) -> np.ndarray:
    """The decoder tried (see the module doc): ``probs`` with moved groups' own best terrain damped."""
    big = [np.asarray(g) for g in groups if len(g) >= 2]
    if len(big) < 2:
        return probs
    unit = _unit(features)
    centre = np.stack([unit[g].mean(axis=0) for g in big])
    apart = (1.0 - centre @ centre.T) > far
    np.fill_diagonal(apart, False)
    evidence = np.stack([np.log(np.maximum(probs[g], LOG_FLOOR)).sum(axis=0) for g in big])
    top = evidence.argmax(axis=1)
    drawn = np.isin(np.arange(probs.shape[1]), DRAWN)
    options = [o[evidence[g, o] >= evidence[g, top[g]] - CLASH]
               for g, o in enumerate(np.argsort(-evidence, axis=1)[:, :3])]
    margin = evidence[np.arange(len(big)), top] - np.sort(evidence, axis=1)[:, -2]
    free = sorted((g for g in range(len(big)) if len(options[g]) > 1), key=lambda g: margin[g])[:MOST]
    if not free or not apart.any():
        return probs
    combos = np.array(list(itertools.product(*(options[g] for g in free))))
    labels = np.tile(top, (len(combos), 1))
    labels[:, free] = combos
    shared = (labels[:, :, None] == labels[:, None, :]) & drawn[labels][:, :, None] & apart[None]
    score = evidence[np.arange(len(big))[None], labels].sum(axis=1) - CLASH * shared.sum(axis=(1, 2)) / 2
    best = labels[score.argmax()]
    out = probs.copy()
    for j, g in enumerate(free):
        if best[g] != top[g]:
            rows = big[g]
            out[rows, top[g]] *= np.exp(-min(score.max() - score[combos[:, j] == top[g]].max(), DAMP))
            out[rows] /= out[rows].sum(axis=1, keepdims=True)
    return out


def pair_distances(
    models: Models, x: dict[str, object]
) -> tuple[list[float], list[float], list[bool], list[float], list[bool]]:
    """One photo's group-pair distances (confused, split) and its drawn-cell pairs (same terrain,
    feature similarity, read as one terrain by the cells' own best guesses)."""
    truth = Sheet.parse(str(x["truth"]))
    printed = printed_side(truth.side)
    drawable = np.ones(121, bool)
    for r, c in printed.mountains | printed.wasteland:
        drawable[r * 11 + c] = False
    cells = np.asarray(x["cells"])
    probs, _stars, features = classify_cells(models, white_balance(cells, gain=paper_gain(cells)))
    y = np.array([ds.CLASS_OF.get(truth[i // 11, i % 11].value, -1) for i in range(121)])
    groups = [list(g) for g in look_alike_groups(features, drawable)]
    truly = [np.bincount(y[g], minlength=len(TERRAIN_CLASSES)).argmax() for g in groups]
    read = [np.log(np.maximum(probs[g], LOG_FLOOR)).sum(axis=0).argmax() for g in groups]
    unit = _unit(features)
    centre = np.stack([unit[g].mean(axis=0) for g in groups]) if groups else np.zeros((0, unit.shape[1]))
    dist = 1.0 - centre @ centre.T
    confused, split = [], []
    for a, b in itertools.combinations(range(len(groups)), 2):
        if truly[a] == 0 or truly[b] == 0:
            continue
        if truly[a] == truly[b]:
            split.append(float(dist[a, b]))
        elif read[a] == read[b]:
            confused.append(float(dist[a, b]))
    drawn = np.flatnonzero(y > 0)
    upper = np.triu_indices(drawn.size, 1)
    same = (y[drawn][:, None] == y[drawn][None])[upper]
    similar = (unit[drawn] @ unit[drawn].T)[upper]
    guess = probs[drawn].argmax(axis=1)
    alike = (guess[:, None] == guess[None])[upper]
    return confused, split, same.tolist(), similar.tolist(), alike.tolist()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", type=int, default=30, help="photos per family")
    ap.add_argument("--split", default="eval", choices=SPLITS)
    ap.add_argument("--families", default="graphite,glyph,mixed,doodle")
    ap.add_argument("--key", default=None, help="cache folder name (default: the renderer's fingerprint)")
    ap.add_argument("--distinct", type=float, default=None, metavar="FAR",
                    help="also read with the decoder tried, groups farther than FAR apart parted")
    ap.add_argument("--models", type=Path, default=None,
                    help="model directory (default: the committed models)")
    args = ap.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip() in ALL_FAMILIES]
    t0 = time.perf_counter()
    models = default_models() if args.models is None else load_models(args.models)
    base = "committed" if args.models is None else args.models.name
    inputs = {fam: [ds.sheet_inputs(seed, fam, args.split, "phone", cache=ef.CACHE, key=args.key)
                    for seed in ef.seeds(fam, args.sheets)] for fam in families}
    print(f"look-alike group pairs of drawn terrains, {args.split} split, phone tier, {args.sheets} photos "
          f"each; confused = read as one terrain, truly two; split = one terrain in two groups")
    for fam in families:
        confused, split, same, similar, alike = [], [], [], [], []
        for x in inputs[fam]:
            c, s, m, d, a = pair_distances(models, x)
            confused += c
            split += s
            same += m
            similar += d
            alike += a
        c_arr, s_arr = np.array(confused), np.array(split)
        sim, is_same, read_alike = np.array(similar), np.array(same, bool), np.array(alike, bool)
        one, two = sim[read_alike & is_same], sim[read_alike & ~is_same]
        c_mid = float(np.median(c_arr)) if c_arr.size else float("nan")
        s_mid = float(np.median(s_arr)) if s_arr.size else float("nan")
        print(f"{fam:10} confused {c_arr.size:4d} (median distance {c_mid:.2f}), split {s_arr.size:4d} "
              f"({s_mid:.2f}): AUC {auc(c_arr, s_arr):.2f}; drawn-cell pairs, same against different "
              f"terrain: AUC {auc(sim[is_same], sim[~is_same]):.3f}; of those read as one terrain, "
              f"{two.size} truly two against {one.size}: AUC {auc(one, two):.3f}")
    if args.distinct is not None:
        pooled = classify.adapt_to_sheet

        def parted(probs: np.ndarray, features: np.ndarray, drawable: np.ndarray, *,
                   groups: tuple[tuple[int, ...], ...] | None = None, temperature: float = 1.0) -> np.ndarray:
            chosen = look_alike_groups(features, drawable) if groups is None else groups
            moved = distinct_terrains(probs, features, chosen, args.distinct)
            return pooled(moved, features, drawable, groups=chosen, temperature=temperature)

        print(ef.header())
        for name, step in ((base, pooled), (f"parted {args.distinct:g}", parted)):
            classify.adapt_to_sheet = step  # type: ignore[assignment]
            for fam in families:
                t: dict[str, float] = defaultdict(float)
                for x in inputs[fam]:
                    ef.count(x, models, t)
                print(ef.row(fam, name, t))
        classify.adapt_to_sheet = pooled
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
