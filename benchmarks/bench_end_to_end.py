"""Photo -> grid -> score on synthetic photos never used in training (eval drawing styles).

    python benchmarks/bench_end_to_end.py [--photos 200] [--tiers scan,phone,webcam,hard] [--models DIR ...]

Each photo goes through exactly what ``cartoscan score PHOTO`` does (JPEG file on disk, load, locate,
rectify, sample, classify); four random scoring cards are scored on the reading and on the truth.
A photo is *exact* when all four card scores, the coins and the monster penalty equal the truth's.
Reports per tier: located, refused (no sheet found), refused as doubtful ('?' cells, or the locator's
or coin track's doubts), exact, and silently wrong (read without '?' but scored differently: the figure
that must stay near zero); plus the exact rate when doubtful cells are guessed (``--allow-doubtful``)
and the median time.
Of the doubtful photos, *settled* ones are scored outright because no plausible reading of their '?'
cells changes any card, coin, monster or total figure (``rules.doubt.score_spread``, what ``score`` now
does); *settled exact* of those equal the truth; the refused rest report a range, and *in range* counts
those whose true total lies within it.
``--models`` (repeatable) compares model directories on the same photos (default: the committed models).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models import dataset as ds
from models.synth.style import SPLITS
from rules.cards import CARDS
from rules.doubt import MAX_READINGS
from rules.grid import cell_label
from rules.policy import Outcome, Verdict, decide
from rules.season import score_cards
from scanner.failure import Failure
from scanner.nets import Models, default_models, load_models
from scanner.pipeline import read_photo

SEED0 = ds.SEED_BASE["bench"] + 50_000


def _scores(sheet, cards) -> tuple:
    s = score_cards(sheet, cards)
    return tuple(v.points for v in s.scores.values()), s.coins, s.monsters


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=200)
    ap.add_argument("--tiers", default=",".join(ds.TIERS_ORDER))
    ap.add_argument("--split", default="eval", choices=SPLITS,
                    help="drawing styles: eval (held-out hand and pictures), params (held-out hand, "
                         "training icons and coin marks), train (styles like training's, on unseen seeds)")
    ap.add_argument("--models", type=Path, action="append", default=None,
                    help="model directory to measure (repeatable; default: the committed models)")
    args = ap.parse_args()
    tiers = args.tiers.split(",")
    dirs: list[Path | None] = list(args.models) if args.models else [None]
    all_models = [load_models(d) if d is not None else default_models() for d in dirs]
    ids = sorted(CARDS)
    runs = [_Run() for _ in dirs]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.photos):
            seed = SEED0 + i
            tier = tiers[i % len(tiers)]
            sample = ds.render(seed, split=args.split, tier=tier)
            path = Path(tmp) / f"{seed}.jpg"
            cv2.imwrite(str(path), sample.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            rng = np.random.default_rng(seed)
            cards = [CARDS[k] for k in rng.choice(ids, 4, replace=False)]
            truth = _scores(sample.sheet, cards)
            for run, models in zip(runs, all_models, strict=True):
                run.photo(path, sample, cards, truth, models, tier, seed)
    for d, run in zip(dirs, runs, strict=True):
        print(f"end to end on {args.photos} synthetic photos (seeds {SEED0}.., {args.split}-split drawing "
              f"styles), 4 random cards each, models {d or 'committed'}")
        run.report(tiers)


class _Run:
    """The counts of one model directory over the photos."""

    def __init__(self) -> None:
        self.stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.times: list[float] = []
        self.spread_times: list[float] = []
        self.wrong_examples: list[str] = []

    def photo(self, path: Path, sample: ds.Sample, cards: list, truth: tuple, models: Models, tier: str,
              seed: int) -> None:
        t = self.stats[tier]
        t["photos"] += 1
        t0 = time.perf_counter()
        reading = read_photo(path, models=models)
        self.times.append(time.perf_counter() - t0)
        if isinstance(reading, Failure):
            t["refused_no_sheet"] += 1
            return
        t["located"] += 1
        guess_ok = _scores(reading.guess, cards) == truth
        t["exact_allow_doubtful"] += guess_ok
        t0 = time.perf_counter()
        verdict = decide(reading.uncertain, cards)  # what `cartoscan score` does with the photo
        self.spread_times.append(time.perf_counter() - t0)
        if verdict.outcome is Outcome.SCORED:
            if _scores(verdict.sheet, cards) == truth:
                t["exact"] += 1
            else:
                t["wrong"] += 1
                self.example("wrong", seed, tier, sample, verdict.sheet)
            return
        t["refused_doubtful"] += 1
        t["doubtful_cells"] += len(reading.doubtful)
        self.weigh(t, reading, verdict, cards, guess_ok, sample)
        if verdict.outcome is Outcome.SETTLED and not guess_ok:
            self.example("settled wrong", seed, tier, sample, reading.guess)

    def example(self, what: str, seed: int, tier: str, sample: ds.Sample, read: Any) -> None:
        """Remember why a scored photo's score is wrong: its misread cells and coins."""
        if len(self.wrong_examples) < 12:
            diff = [f"{cell_label((r, c))}:{sample.sheet.rows[r][c]}->{read.rows[r][c]}"
                    for r in range(11) for c in range(11) if sample.sheet.rows[r][c] != read.rows[r][c]]
            self.wrong_examples.append(f"{what}: seed {seed} ({tier}): cells {diff[:6]} coins "
                                       f"{sample.sheet.coins}/{sample.sheet.spent}->{read.coins}/{read.spent}")

    def weigh(self, t: dict[str, float], reading: Any, verdict: Verdict, cards: list, guess_ok: bool,
              sample: ds.Sample) -> None:
        """Count what the policy made of a reading with doubts (side, corner, coins, or '?' cells)."""
        spread = verdict.spread
        if reading.doubts or spread is None:  # whole-sheet doubts, or too many readings of the cells
            t["over_cap"] += bool(reading.doubtful and not reading.doubts)
            return
        # Only photos whose readings are all scored together: over the cap the '?' cells are mostly a
        # misread sheet (weighed card by card), which would blur what this line says about the '?' cells.
        if spread.readings <= MAX_READINGS:
            alternatives = reading.alternatives
            t["alt_cells"] += len(alternatives)
            t["alt_truth"] += sum(sample.sheet[cell] in alts for cell, alts in alternatives.items())
            t["alt_count"] += sum(len(alts) for alts in alternatives.values())
        if verdict.outcome is Outcome.SETTLED:
            t["settled"] += 1
            t["settled_exact"] += guess_ok
        else:
            t["ranged"] += 1
            t["in_range"] += spread.total.low <= score_cards(sample.sheet, cards).total <= spread.total.high

    def report(self, tiers: list[str]) -> None:
        print(f"{'tier':8} {'photos':>6} {'located':>7} {'no sheet':>8} {'doubtful':>8} {'exact':>6} "
              f"{'wrong':>6} {'exact%':>7} {'exact% w/ guess':>15} {'settled':>7} {'sett.exact':>10} "
              f"{'ranged':>6} {'in range':>8} {'over cap':>8}")
        total: dict[str, float] = defaultdict(float)
        for tier in [*tiers, "all"]:
            t = self.stats[tier] if tier != "all" else total
            if tier != "all":
                for k, v in t.items():
                    total[k] += v
            n = max(t["photos"], 1)
            print(f"{tier:8} {int(t['photos']):6d} {int(t['located']):7d} {int(t['refused_no_sheet']):8d} "
                  f"{int(t['refused_doubtful']):8d} {int(t['exact']):6d} {int(t['wrong']):6d} "
                  f"{100 * t['exact'] / n:6.1f}% {100 * t['exact_allow_doubtful'] / n:14.1f}% "
                  f"{int(t['settled']):7d} {int(t['settled_exact']):10d} {int(t['ranged']):6d} "
                  f"{int(t['in_range']):8d} {int(t['over_cap']):8d}")
        all_ = total
        n = max(all_["photos"], 1)
        print(f"scored outright: {int(all_['exact'] + all_['wrong'])} clear + {int(all_['settled'])} settled "
              f"= {100 * (all_['exact'] + all_['wrong'] + all_['settled']) / n:.1f}% of photos "
              f"(was {100 * (all_['exact'] + all_['wrong']) / n:.1f}%); settled and exact: "
              f"{int(all_['settled_exact'])} of {int(all_['settled'])}")
        if all_["alt_cells"]:
            cells = all_["alt_cells"]
            print(f"'?' cells weighed (photos within the joint cap): {int(cells)}, "
                  f"{all_['alt_count'] / cells:.2f} readings each, "
                  f"true terrain among them: {100 * all_['alt_truth'] / cells:.1f}%")
        if self.spread_times:
            spread_ms = [v * 1000 for v in self.spread_times]
            print(f"policy decision (rules.policy.decide): median {statistics.median(spread_ms):.0f} ms, "
                  f"max {max(spread_ms):.0f} ms")
        print(f"median time per photo: {statistics.median(self.times) * 1000:.0f} ms "
              "(load + locate + rectify + sample + classify)")
        for line in self.wrong_examples:
            print(" ", line)


if __name__ == "__main__":
    main()
