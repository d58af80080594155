"""Benchmark: the worst case of :func:`rules.doubt.score_spread` under its cap (goal: well under 1 s).

Run:  python benchmarks/bench_rules_doubt.py [--sheets 5] [--cells 11] [--extra 5]

Each card is first timed alone on dense end-of-game sheets (``bench_rules.end_of_game_sheet``); the four
slowest become edicts A-D, scored for a season too.  Then `--cells` drawn cells of each sheet get two
plausible terrains each (2**11 = 2048 readings by default, :data:`rules.doubt.MAX_READINGS`), and the
whole spread is timed.

Over the cap: the four slowest cards that, with the monster penalty, lump two drawn symbols together
(``ScoringCard.sees``), and `--extra` more cells that flip between those two symbols: 2**16 readings
by default, each card and the monster penalty at most 2**11 on its own classes (fewer when the card
lumps a cell's two readings together or adds up over rows, neighbourhoods...), timed the same way.
The bound on the work: each group of cards with the same classes and units, and the monster penalty,
scores at most :data:`rules.doubt.MAX_READINGS` readings.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_rules import end_of_game_sheet

from rules.cards import CARDS
from rules.cards.model import DRAWN
from rules.doubt import MAX_READINGS, Spread, score_spread
from rules.season import MONSTER_PENALTY_SEES, score_cards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", type=int, default=5)
    ap.add_argument("--cells", type=int, default=11)
    ap.add_argument("--extra", type=int, default=5, help="cells added over the cap (0: skip that part)")
    args = ap.parse_args()
    sheets = [end_of_game_sheet(np.random.default_rng(seed)) for seed in range(args.sheets)]
    per_card = {}
    for card in CARDS.values():
        t = time.perf_counter()
        for sheet in sheets:
            for flip in "F.":  # a fresh sheet each call, as the spread makes them
                score_cards(sheet.replace({(5, 0): flip} if not sheet[5, 0].is_printed else {}), [card])
        per_card[card.id] = (time.perf_counter() - t) / (2 * len(sheets))
    slowest = sorted(per_card, key=per_card.__getitem__)[-4:]
    cards = [CARDS[i] for i in slowest]
    print(f"slowest cards: {', '.join(f'{i} {per_card[i] * 1000:.2f} ms' for i in slowest)}")
    times = []
    for seed, sheet in enumerate(sheets):
        rng = np.random.default_rng(seed)
        drawn = [cell for cell in np.ndindex(11, 11) if sheet[cell].is_known and not sheet[cell].is_printed]
        picked = [drawn[int(i)] for i in rng.choice(len(drawn), args.cells, replace=False)]
        alternatives = {cell: (sheet[cell], "." if sheet[cell] != "." else "F") for cell in picked}
        t = time.perf_counter()
        spread = score_spread(sheet, alternatives, cards, "winter", cap=max(MAX_READINGS, 2**args.cells))
        times.append(time.perf_counter() - t)
        assert spread, spread
        print(f"sheet {seed}: {spread.readings} readings in {times[-1]:.3f} s, total {spread.total}")
    print(f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s for {2**args.cells} readings "
          f"(cap {MAX_READINGS})")
    if args.extra:
        over_cap(sheets, per_card, args.cells, args.extra)


def over_cap(sheets: list, per_card: dict[str, float], cells: int, extra: int) -> None:
    """Time the projected spread: `cells` cells every part tells apart, `extra` that none does."""
    lumped = set(DRAWN) - set(MONSTER_PENALTY_SEES)
    chosen = []
    for card_id in sorted(per_card, key=per_card.__getitem__, reverse=True):
        together = lumped - set(CARDS[card_id].sees)
        if len(together) >= 2 and len(chosen) < 4:
            chosen.append(card_id)
            lumped = together
    pair = sorted(lumped)[:2]
    cards = [CARDS[i] for i in chosen]
    print(f"over the cap: {', '.join(chosen)}; {extra} extra cells flip {pair[0]}/{pair[1]}")
    times = []
    for seed, sheet in enumerate(sheets):
        rng = np.random.default_rng(seed)
        drawn = [cell for cell in np.ndindex(11, 11) if sheet[cell].is_known and not sheet[cell].is_printed]
        picked = [drawn[int(i)] for i in rng.choice(len(drawn), cells + extra, replace=False)]
        guess = sheet.replace({cell: pair[0] for cell in picked[cells:]})
        alternatives = {cell: (guess[cell], "." if guess[cell] != "." else "F") for cell in picked[:cells]}
        alternatives.update({cell: tuple(pair) for cell in picked[cells:]})
        t = time.perf_counter()
        spread = score_spread(guess, alternatives, cards, "winter")
        times.append(time.perf_counter() - t)
        assert isinstance(spread, Spread), spread
        print(f"sheet {seed}: {spread.readings} readings in {times[-1]:.3f} s, total {spread.total}"
              f"{' (a bound)' if spread.bounded else ''}")
    print(f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s for {2 ** (cells + extra)} "
          f"readings over the cap")


if __name__ == "__main__":
    main()
