"""How many clicks a doubtful photo needs on the page before it scores, without and with the offer to
fix the cells drawn alike in the same tap.

A person is simulated on the page's rules (``front/static/app.js``): while the one scoring policy
refuses, they tap the first framed cell (1 click) and choose its true terrain (1 click); with the offer,
the other unsure cells of its look-alike group (:func:`front.results.alike`) are offered each on its own
tick, ticked: the person unticks each one that holds something else (1 click each) and the others take
the same answer (``--one-tick``: the offer as one tick for all, as the page had it before 2026-12-06,
unticked whole, 1 click, when any of them holds something else).  A whole-sheet doubt (side, A1
corner, coins) costs one "I checked it" click, and so does a reading that contradicts itself
(``rules.policy.READING_SUSPECT``) once no unsure cell can change the score.
A doubted coin track is counted on the sheet and typed into the page's coin fields when the reading
is off (one more click). Photos: the bundled samples (truth in their ``.sheet``) and synthetic phone
photos with four random cards and a random season.  It also says how many photos then score right:
the season's two edicts, coins and monsters as on the true sheet.  A cell read wrongly without a
'?', or a coin track read wrongly without a doubt, is never asked about, so the person ends with a
wrong score they have no reason to doubt.

    python benchmarks/bench_review_clicks.py --photos 100 --split params
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import numpy as np

from front.results import alike
from rules import Sheet, SheetError
from rules.cards import CARDS
from rules.policy import UncertainSheet, decide
from rules.season import Season, score_season
from scanner.pipeline import Reading, read_image, read_photo

ROOT = Path(__file__).resolve().parents[1]


def season_figures(sheet: Sheet, cards: list, season: Season) -> tuple[int, ...]:  # type: ignore[type-arg]
    """What the person reads off the page for the season: each edict's points, coins, monsters."""
    box = score_season(sheet, cards, season)
    return (*(score.points for _, score in box.edicts.values()), box.coins, box.monsters)


def review(
    reading: Reading, truth: Sheet, cards: list, season: Season,  # type: ignore[type-arg]
    *, offer: bool, one_tick: bool = False,
) -> tuple[int, bool] | None:
    """Clicks until the policy scores the reading, and whether that score is the true sheet's (None
    when fixing cells cannot score it: a misread side)."""
    uncertain = reading.uncertain
    count = len(uncertain.doubts)  # one "I checked it" per whole-sheet doubt
    guess = uncertain.guess
    if any("coin" in doubt for doubt in uncertain.doubts) and (guess.coins, guess.spent) != (
            truth.coins, truth.spent):
        count += 1  # the person counts the coins on the sheet and types them into the page's fields
        guess = guess.replace(coins=truth.coins, spent=truth.spent)
    uncertain = UncertainSheet(guess, uncertain.alternatives, (), from_photo=True)
    while True:
        verdict = decide(uncertain, cards, season)
        if verdict:
            assert verdict.sheet is not None
            right = season_figures(verdict.sheet, cards, season) == season_figures(truth, cards, season)
            return count, right
        if verdict.suspect and (not uncertain.alternatives or (verdict.spread and verdict.spread.certain)):
            count += 1  # only the reading's contradiction is left: "I checked it on the sheet"
            uncertain = UncertainSheet(uncertain.guess, uncertain.alternatives, ())
            continue
        if not uncertain.alternatives:
            return None
        cell = min(uncertain.alternatives)
        fixes = {cell: truth[cell]}
        count += 2  # tap the cell, choose its terrain
        if offer:
            peers = alike(reading.groups, cell, list(uncertain.alternatives))
            odd = [p for p in peers if truth[p] != truth[cell]]
            # untick each look-alike that holds something else, or the one tick for all of them
            count += int(bool(odd)) if one_tick else len(odd)
            if not (one_tick and odd):
                fixes |= {p: truth[p] for p in peers if p not in odd}
        try:
            uncertain = uncertain.fix(fixes)
        except SheetError:  # the truth is printed there on another side: the side was misread
            return None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--photos", type=int, default=100, help="synthetic phone photos besides the samples")
    parser.add_argument("--split", default="params", choices=["train", "params", "eval"])
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--every", action="store_true", help="a line for every photo, not the samples only")
    parser.add_argument("--one-tick", action="store_true", help="the offer as one tick for all look-alikes")
    args = parser.parse_args()

    from models.synth.generate import make_sample

    rng = np.random.default_rng(args.seed)
    ids = sorted(CARDS)
    cases: list[tuple[str, Reading, Sheet, list, Season]] = []  # type: ignore[type-arg]
    sample_cards = [CARDS[c] for c in ("sentinel_wood", "canal_lake", "wildholds", "borderlands")]
    for photo in sorted((ROOT / "samples").glob("*.jpg")):
        reading = read_photo(photo)
        if isinstance(reading, Reading):
            truth = Sheet.parse(photo.with_suffix(".sheet").read_text(encoding="utf-8"))
            cases.append((photo.name, reading, truth, sample_cards, Season.WINTER))
    for seed in range(args.seed, args.seed + args.photos):
        sample = make_sample(seed, tier="phone", split=args.split)
        reading = read_image(sample.photo.image)
        if not isinstance(reading, Reading):
            continue
        cards = [CARDS[ids[i]] for i in rng.choice(len(ids), 4, replace=False)]
        season = list(Season)[int(rng.integers(4))]
        cases.append((f"{args.split}_{seed}", reading, sample.game.sheet, cards, season))

    rows = []
    for name, reading, truth, cards, season in cases:
        before = review(reading, truth, cards, season, offer=False)
        after = review(reading, truth, cards, season, offer=True, one_tick=args.one_tick)
        rows.append((name, len(reading.doubtful), before and before[0], after and after[0],
                     after is not None and after[1]))
    print(f"{'photo':<22} {'unsure':>6} {'before':>6} {'after':>6} {'right':>5}")
    for name, unsure, b, a, right in rows if args.every else rows[:5]:
        print(f"{name:<22} {unsure:>6} {b!s:>6} {a!s:>6} {right!s:>5}")
    doubtful = [r for r in rows if r[2] not in (0, None)]
    both = [r for r in doubtful if r[3] is not None]
    stuck = sum(1 for r in rows if r[2] is None)
    print(f"\n{len(rows)} photos read ({len(rows) - 5} synthetic, split {args.split}); "
          f"{len(doubtful)} needed a look; {stuck} cannot be scored by fixing cells")
    print(f"scored right at the end: {sum(r[4] for r in rows)} of {len(rows)}; of those that needed a "
          f"look {sum(r[4] for r in doubtful)} of {len(doubtful)}; wrong at the end "
          f"{sum(1 for r in rows if r[3] is not None and not r[4])}")
    if both:
        b = [r[2] for r in both]
        a = [r[3] for r in both]
        print(f"clicks before it scores, without the offer: mean {statistics.mean(b):.2f}, median "
              f"{statistics.median(b)}, max {max(b)}, total {sum(b)}")
        print(f"clicks before it scores, with the offer:    mean {statistics.mean(a):.2f}, median "
              f"{statistics.median(a)}, max {max(a)}, total {sum(a)} ({1 - sum(a) / sum(b):.0%} fewer)")
        print(f"photos the offer helped: {sum(1 for x, y in zip(b, a, strict=True) if y < x)}, "
              f"made worse: {sum(1 for x, y in zip(b, a, strict=True) if y > x)}")


if __name__ == "__main__":
    main()
