"""Photo -> grid -> score on synthetic photos never used in training (eval drawing styles).

    python benchmarks/bench_end_to_end.py [--photos 200] [--tiers scan,phone,webcam,hard] [--models DIR ...]
                                          [--family sketch]

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
``--family`` draws every photo in one drawing family (default: the split's mix of families); ``sketch``
and ``outsider`` are the families no net trains on.
``--why`` adds a table of why photos are not scored outright, one cause each (the first that applies):
no sheet found, the A1 corner, the side or the coin track doubted (``+cells``: the '?' cells would
block the photo as well), too many readings of the '?' cells, '?' cells whose readings change a
number, or a reading that contradicts itself (``check`` findings no correct reading of a legal sheet
shows, ``rules.policy.READING_SUSPECT``) that would be scored outright otherwise.  For '?' cells
that change a number, a cell *blocks* when its own alternatives (the other cells as guessed) change a
number; the table gives how many cells block per photo, which terrain changes block most, and the
probability the scanner gives the blocking alternatives.  Each cause also counts its photos exact by
the best guess: what settling that cause could win at most.  It also counts the coin tracks read
wrong without a doubt: a photo the '?' cells keep from being scored may hide one; and, of the photos
the policy would score outright without its consistency gate, which ``check`` findings each code
raises on exact and on wrong ones (what the gate's per-code choice rests on).
``--cuts 0.02,0.05,...`` scores each photo again with only the classes at or above each cut as a '?'
cell's alternatives (``scanner.pipeline.alternatives_of``'s ``minimum``; the policy otherwise
unchanged) and prints the photos scored outright, exact and wrong, per cut.
``--true-coins`` hands the policy the true coin track (coins and spent from the truth, no coin doubt):
what a coin reader that is never wrong would give, the cells as read.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models import dataset as ds
from models.synth.style import ALL_FAMILIES, SPLITS
from rules.cards import CARDS
from rules.check import check_sheet
from rules.doubt import MAX_READINGS, score_spread
from rules.grid import cell_label
from rules.policy import READING_SUSPECT, Outcome, UncertainSheet, Verdict, decide
from rules.season import score_cards
from scanner.constants import TERRAIN_SYMBOLS
from scanner.failure import Failure
from scanner.nets import Models, default_models, load_models
from scanner.pipeline import alternatives_of, read_photo

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
    ap.add_argument("--family", default=None, choices=ALL_FAMILIES,
                    help="draw every photo in this drawing family (default: the split's mix)")
    ap.add_argument("--why", action="store_true", help="tabulate why photos are not scored outright")
    ap.add_argument("--true-coins", action="store_true", help="the true coin track in place of the read one")
    ap.add_argument("--cuts", default="", help="comma-separated smallest probabilities of an alternative "
                    "to weigh: outright exact and wrong per cut")
    args = ap.parse_args()
    tiers = args.tiers.split(",")
    dirs: list[Path | None] = list(args.models) if args.models else [None]
    all_models = [load_models(d) if d is not None else default_models() for d in dirs]
    ids = sorted(CARDS)
    cuts = [float(v) for v in args.cuts.split(",") if v]
    runs = [_Run(cuts, args.true_coins) for _ in dirs]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.photos):
            seed = SEED0 + i
            tier = tiers[i % len(tiers)]
            sample = ds.render(seed, split=args.split, tier=tier, family=args.family)
            path = Path(tmp) / f"{seed}.jpg"
            cv2.imwrite(str(path), sample.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            rng = np.random.default_rng(seed)
            cards = [CARDS[k] for k in rng.choice(ids, 4, replace=False)]
            truth = _scores(sample.sheet, cards)
            for run, models in zip(runs, all_models, strict=True):
                run.photo(path, sample, cards, truth, models, tier, seed)
    for d, run in zip(dirs, runs, strict=True):
        print(f"end to end on {args.photos} synthetic photos (seeds {SEED0}.., {args.split}-split drawing "
              f"styles{', family ' + args.family if args.family else ''}), 4 random cards each, "
              f"models {d or 'committed'}")
        run.report(tiers)
        if args.why:
            run.report_why()
        if cuts:
            run.report_cuts()


class _Run:
    """The counts of one model directory over the photos."""

    def __init__(self, cuts: list[float], true_coins: bool = False) -> None:
        self.cuts = cuts
        self.true_coins = true_coins
        self.by_cut: dict[float, list[int]] = {cut: [0, 0] for cut in cuts}  # outright exact, wrong
        self.stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.times: list[float] = []
        self.spread_times: list[float] = []
        self.wrong_examples: list[str] = []
        self.why = _Why()

    def photo(self, path: Path, sample: ds.Sample, cards: list, truth: tuple, models: Models, tier: str,
              seed: int) -> None:
        t = self.stats[tier]
        t["photos"] += 1
        t0 = time.perf_counter()
        reading = read_photo(path, models=models)
        self.times.append(time.perf_counter() - t0)
        if isinstance(reading, Failure):
            t["refused_no_sheet"] += 1
            self.why.count("no sheet found", False)
            return
        if self.true_coins:
            coins = {"coins": sample.sheet.coins, "spent": sample.sheet.spent}
            reading = dataclasses.replace(
                reading, sheet=reading.sheet.replace(**coins), guess=reading.guess.replace(**coins),
                doubtful_coins=(), doubts=tuple(d for d in reading.doubts if "coin track" not in d))
        t["located"] += 1
        guess_ok = _scores(reading.guess, cards) == truth
        t["exact_allow_doubtful"] += guess_ok
        t0 = time.perf_counter()
        verdict = decide(reading.uncertain, cards)  # what `cartoscan score` does with the photo
        self.spread_times.append(time.perf_counter() - t0)
        self.why.photo(reading, verdict, cards, guess_ok, sample.sheet)
        for cut in self.cuts:
            alternatives = alternatives_of(reading.probabilities, reading.sheet.unknown, cut)
            if decide(UncertainSheet(reading.guess, alternatives, reading.doubts), cards):
                self.by_cut[cut][0 if guess_ok else 1] += 1
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

    def report_cuts(self) -> None:
        n = max(int(sum(t["photos"] for t in self.stats.values())), 1)
        print("smallest probability of a weighed alternative: photos scored outright, exact and wrong")
        for cut, (exact, wrong) in self.by_cut.items():
            print(f"  {cut:.3f}: exact {exact} ({100 * exact / n:.1f}%), wrong {wrong}")

    def report_why(self) -> None:
        self.why.report(int(sum(t["photos"] for t in self.stats.values())))

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


def _moves(guess: Any, cell: tuple[int, int], alts: tuple, cards: list) -> bool:
    """Whether `cell`'s readings `alts` (the other cells as guessed) change a card, coin or monster figure."""
    spread = score_spread(guess, {cell: alts}, cards)
    return not (spread and spread.certain)


class _Why:
    """Why photos are not scored outright: one cause per photo, the first that applies."""

    def __init__(self) -> None:
        self.causes: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # photos, exact by guess
        self.blocking: list[int] = []  # blocking cells per photo refused for its '?' cells
        self.changes: dict[str, int] = defaultdict(int)  # guess -> alternative, per blocking cell
        self.odds: list[float] = []  # probability of each blocking cell's likeliest blocking alternative
        self.silent_coins = [0, 0]  # coin tracks read wrong without a doubt: scored outright, refused
        self.findings: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # code -> exact, wrong photos
        self.ungated = [0, 0]  # photos outright without the consistency gate: exact, wrong

    def count(self, cause: str, guess_ok: bool) -> None:
        self.causes[cause][0] += 1
        self.causes[cause][1] += guess_ok

    def photo(self, reading: Any, verdict: Verdict, cards: list, guess_ok: bool, truth: Any) -> None:
        if not reading.doubtful_coins and (reading.coins, reading.spent) != (truth.coins, truth.spent):
            self.silent_coins[0 if verdict else 1] += 1
        ungated = decide(dataclasses.replace(reading.uncertain, from_photo=False), cards)
        if ungated:  # what the gate weighs: every check finding of a photo outright without it
            self.ungated[0 if guess_ok else 1] += 1
            for code in sorted({p.code.value for p in check_sheet(reading.sheet).problems}):
                self.findings[code][0 if guess_ok else 1] += 1
        if verdict.outcome in (Outcome.SCORED, Outcome.SETTLED):
            self.count("scored outright, exact" if guess_ok else "scored outright, WRONG", guess_ok)
            return
        if reading.doubts:
            first = reading.doubts[0]
            cause = ("A1 corner doubted" if first.startswith("which corner") else
                     "side doubted" if first.startswith("printed side") else "coin track doubted")
            cells = decide(UncertainSheet(reading.guess, reading.alternatives), cards)
            self.count(cause + ("" if cells else " +cells"), guess_ok)
            return
        if ungated:
            self.count("reading contradicts itself", guess_ok)
            return
        if verdict.spread is None:
            self.count("too many readings", guess_ok)
            return
        self.count("'?' cells change a number", guess_ok)
        blocking = 0
        for cell, alts in reading.alternatives.items():
            moving = [t for t in alts[1:] if _moves(reading.guess, cell, (alts[0], t), cards)]
            if not moving:
                continue
            blocking += 1
            self.changes[f"{alts[0]}->{moving[0]}"] += 1
            p = reading.probabilities[cell]
            self.odds.append(max(float(p[TERRAIN_SYMBOLS.index(str(t))]) for t in moving))
        self.blocking.append(blocking)

    def report(self, photos: int) -> None:
        n = max(photos, 1)
        print(f"why not scored outright ({photos} photos; 'exact by guess': the best guess scores right)")
        print(f"{'cause':34} {'photos':>6} {'share':>6} {'exact by guess':>14}")
        for cause, (count, exact) in sorted(self.causes.items(), key=lambda kv: -kv[1][0]):
            print(f"{cause:34} {count:6d} {100 * count / n:5.1f}% {exact:14d}")
        print(f"coin tracks read wrong without a doubt: {self.silent_coins[0]} scored outright, "
              f"{self.silent_coins[1]} refused for other doubts")
        print(f"outright without the consistency gate: {self.ungated[0]} exact, {self.ungated[1]} wrong; "
              "their check findings (photos exact / wrong, * = blocks: rules.policy.READING_SUSPECT):")
        for code, (exact, wrong) in sorted(self.findings.items()):
            print(f"  {code}{'*' if code in READING_SUSPECT else ''}: {exact} / {wrong}")
        if self.blocking:
            spread = defaultdict(int)
            for b in self.blocking:
                spread[min(b, 5)] += 1
            print("'?' cells change a number: blocking cells per photo "
                  + ", ".join(f"{k}{'+' if k == 5 else ''}: {v}" for k, v in sorted(spread.items())))
            top = sorted(self.changes.items(), key=lambda kv: -kv[1])[:8]
            print("  blocking changes (guess->alternative): " + ", ".join(f"{k} {v}" for k, v in top))
            q = np.quantile(self.odds, [0.1, 0.25, 0.5, 0.75, 0.9])
            print("  probability of the blocking alternative, quantiles 10/25/50/75/90 %: "
                  + " ".join(f"{v:.3f}" for v in q))


if __name__ == "__main__":
    main()
