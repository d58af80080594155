"""Benchmark: the worst case of :func:`rules.doubt.score_spread` under its cap (goal: well under 1 s).

Run:  python benchmarks/bench_rules_doubt.py [--sheets 5] [--cells 11] [--extra 5]

Each card is first timed alone on dense end-of-game sheets (``bench_rules.end_of_game_sheet``); the four
slowest become edicts A-D, scored for a season too.  Then `--cells` drawn cells of each sheet get two
plausible terrains each (2**11 = 2048 readings by default, :data:`rules.doubt.MAX_READINGS`), and the
whole spread is timed.

Over the cap: four cards over the whole map that tell village from farm but not empty from destroyed
(Greengold Plains, Deepwood, Craylund, Wildholds), `--cells` cells that are village or farm and
`--extra` more cells that are empty or destroyed: 2**16 readings by default, each card 2**11 on its
own classes (the cap), timed the same way.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_rules import end_of_game_sheet

from rules import Sheet
from rules.cards import CARDS
from rules.doubt import MAX_READINGS, Spread, score_spread
from rules.season import score_cards


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
        over_cap(sheets, args.cells, args.extra)


def over_cap(sheets: list[Sheet], cells: int, extra: int) -> None:
    """Time a spread over the cap where every card alone needs as many readings as the cap allows."""
    cards = [CARDS[i] for i in ("greengold_plains", "deepwood", "craylund", "wildholds")]
    times = []
    for seed, sheet in enumerate(sheets):
        rng = np.random.default_rng(seed)
        drawn = [cell for cell in np.ndindex(11, 11) if sheet[cell].is_known and not sheet[cell].is_printed]
        picked = [drawn[int(i)] for i in rng.choice(len(drawn), cells + extra, replace=False)]
        alternatives = {**dict.fromkeys(picked[:cells], "VP"), **dict.fromkeys(picked[cells:], "X.")}
        guess = sheet.replace({cell: alts[0] for cell, alts in alternatives.items()})
        t = time.perf_counter()
        spread = score_spread(guess, alternatives, cards, "winter")
        times.append(time.perf_counter() - t)
        assert isinstance(spread, Spread), spread
        print(f"sheet {seed}: {spread.readings} readings in {times[-1]:.3f} s, total {spread.total}"
              f"{' (a bound)' if spread.bounded else ''}")
    print(f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s for {2 ** (cells + extra)} "
          f"readings over the cap ({', '.join(card.id for card in cards)})")


if __name__ == "__main__":
    main()
