"""Benchmark: the rules foundation (sheet notation, placement, season scoring), one core.

Run:  python benchmarks/bench_rules_sheet.py [--sheets 200]

Prints microseconds per call for Sheet.parse, to_text, replace, legal_placements (the renderer's
random-play step), a random legal game of 30 placements, and a full season score (4 edicts +
coins + monsters) on end-of-game sheets.  Deterministic (seeded numpy Generator).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from rules import Sheet, Terrain
from rules.cards import find_card
from rules.season import score_season
from rules.shapes import EXPLORE, legal_placements, place

EDICTS = [find_card(x) for x in ("sentinel_wood", "canal_lake", "great_city", "borderlands")]
PLAYABLE = [card for card in EXPLORE.values() if card.kind == "explore"]


def random_game(rng: np.random.Generator, placements: int = 30) -> Sheet:
    """Random legal play: a random explore card, shape option, terrain and legal spot each turn."""
    sheet = Sheet.blank(str(rng.choice(["A", "B", "C", "D"])))
    for _ in range(placements):
        card = PLAYABLE[int(rng.integers(len(PLAYABLE)))]
        option = card.shapes[int(rng.integers(len(card.shapes)))]
        spots = legal_placements(sheet, option.cells)
        if not spots:
            continue
        terrain: Terrain = card.terrains[int(rng.integers(len(card.terrains)))]
        sheet = place(sheet, spots[int(rng.integers(len(spots)))], terrain, coin=option.coin)
    return sheet


def per_call(fn: Callable[[int], object], n: int) -> float:
    start = time.perf_counter()
    for i in range(n):
        fn(i)
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=200)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    start = time.perf_counter()
    sheets = [random_game(rng) for _ in range(args.sheets)]
    game_us = (time.perf_counter() - start) / args.sheets * 1e6
    texts = [s.to_text() for s in sheets]
    n = len(sheets)
    print(f"sheets: {n}, mean filled spaces {np.mean([sum(s.filled_mask) for s in sheets]):.1f}")
    print(f"Sheet.parse          {per_call(lambda i: Sheet.parse(texts[i]), n):9.1f} us")
    print(f"Sheet.to_text        {per_call(lambda i: sheets[i].to_text(), n):9.1f} us")
    print(f"Sheet.replace (1)    {per_call(lambda i: sheets[i].replace({(0, 0): '?'}), n):9.1f} us")
    river = EXPLORE["Great River"].shapes[1].cells
    print(f"legal_placements     {per_call(lambda i: legal_placements(sheets[i], river), n):9.1f} us")
    print(f"random game (30 turns){game_us:9.1f} us")
    fresh = [Sheet.parse(t) for t in texts]  # new objects: no per-sheet cache from earlier calls
    print(f"score_season (4 cards){per_call(lambda i: score_season(fresh[i], EDICTS, 'winter'), n):9.1f} us")


if __name__ == "__main__":
    main()
