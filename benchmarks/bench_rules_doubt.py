"""Benchmark: the worst case of :func:`rules.doubt.score_spread` under its cap (goal: well under 1 s).

Run:  python benchmarks/bench_rules_doubt.py [--sheets 5] [--cells 11]

Each card is first timed alone on dense end-of-game sheets (``bench_rules.end_of_game_sheet``); the four
slowest become edicts A-D, scored for a season too.  Then `--cells` drawn cells of each sheet get two
plausible terrains each (2**11 = 2048 readings by default, :data:`rules.doubt.MAX_READINGS`), and the
whole spread is timed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_rules import end_of_game_sheet

from rules.cards import CARDS
from rules.doubt import MAX_READINGS, score_spread
from rules.season import score_cards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", type=int, default=5)
    ap.add_argument("--cells", type=int, default=11)
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


if __name__ == "__main__":
    main()
