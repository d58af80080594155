"""Benchmark: time to score all 32 scoring cards on one end-of-game sheet (goal: <= 2 ms, one core).

Run:  python benchmarks/bench_rules.py [--sheets 200] [--rounds 5]

Sheets are generated deterministically (seeded numpy Generator): a printed side A-D, then
random blobs of terrain grown until 80-95 % of the map is filled, with a few monsters,
heroes and destroyed spaces, so every card has work to do.  Sheets are scored round robin,
so each call analyses its sheet afresh (the per-sheet cache never hides the work).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from rules import Sheet
from rules.cards import CARDS, score_all

N = 11
TERRAINS = np.array(list("FFFVVVPPWWMHX"))


def end_of_game_sheet(rng: np.random.Generator) -> Sheet:
    """A plausible, varied, mostly filled sheet (not necessarily reachable by legal play)."""
    side = str(rng.choice(["A", "B", "C", "D"]))
    blank = Sheet.blank(side)
    grid = [list(row) for row in blank.rows]
    target = rng.uniform(0.80, 0.95) * N * N
    filled = sum(ch != "." for row in grid for ch in row)
    while filled < target:
        terrain = str(rng.choice(TERRAINS))
        r, c = (int(v) for v in rng.integers(0, N, size=2))
        for _ in range(int(rng.integers(1, 6))):  # a small random walk, like a drawn shape
            if grid[r][c] == ".":
                grid[r][c] = terrain
                filled += 1
            dr, dc = ((0, 1), (1, 0), (0, -1), (-1, 0))[int(rng.integers(0, 4))]
            r, c = min(max(r + dr, 0), N - 1), min(max(c + dc, 0), N - 1)
    return Sheet(["".join(row) for row in grid], side=side, coins=int(rng.integers(0, 10)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=200, help="distinct sheets (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the sheets (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    sheets = [end_of_game_sheet(rng) for _ in range(args.sheets)]
    score_all(sheets[0])  # warm up imports and the card table
    times = []
    total = 0
    for _ in range(args.rounds):
        for sheet in sheets:
            t0 = time.perf_counter_ns()
            results = score_all(sheet)
            times.append(time.perf_counter_ns() - t0)
            total += sum(r.points for r in results.values())
    med = statistics.median(times) / 1e6
    p90 = statistics.quantiles(times, n=10)[-1] / 1e6
    print(
        f"score all {len(CARDS)} cards: median {med:.3f} ms per sheet, p90 {p90:.3f} ms "
        f"({len(times)} scorings of {len(sheets)} sheets, goal <= 2 ms; checksum {total})"
    )


if __name__ == "__main__":
    main()
