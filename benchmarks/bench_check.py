"""Benchmark: rules.check on random legal games: false alarms, mutations found, decomposition time.

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_check.py [--games 1000] [--seed 0]

Games come from the renderer's game player (``models.synth.play``), each played through all four
seasons (``season_sheets``: the sheet after spring, summer, fall and winter).  Printed:

1. False alarms: the share of legal sheets with any problem, checked three ways: the winter sheet
   alone (season unknown), each season's sheet with its season, and each season's sheet against the
   one before (``--before``, as ``cartoscan game`` checks).
2. Mutations, one kind at a time, and the share found (any problem; and the problem the mutation
   should raise): of the winter sheet alone (season unknown) and against the fall sheet (``--before``,
   season winter), and of the summer sheet with its season, alone and against the spring sheet:
   ``shape``: one cell of a drawn explore shape turned into another terrain (against the fall sheet:
   a shape drawn in winter);
   ``coin``: one coin more (when the track has room);
   ``star``: one hit star moved to a space without one (Heroes games);
   ``monster``: a monster destroyed under a star written as a living monster again (Heroes games).
3. Why a lone sheet hides a broken shape or an extra coin: of the winter sheets alone whose broken
   shape is not found, how many need no more 1x1 pieces than Rift Lands / Kethra's Gates give (one a
   season: a game where that card came up each season explains them) and how many need more but a
   card none of whose shapes fits the empty spaces (or a ruins card) explains the rest; of the lone
   winter sheets, how many more coins the coin shapes that fit (each coin card once a season) allow
   than the sheet holds, against the coin shapes the game really drew.
4. Decomposition time (``explain``, the cover search) and a whole ``check_sheet`` on the winter
   sheets: median, 95th percentile and worst, in ms on one core; how many searches were cut short.
Deterministic (seeded); the figures are ratios and times within one run.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable

import numpy as np

from models.synth.play import Game, season_sheets
from rules import Sheet, Terrain
from rules.check import Code, check_sheet, coin_bounds, explain
from rules.season import Season

SEASONS = list(Season)
DRAWN = (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER)
EXPECTED = {
    "shape": {Code.UNEXPLAINED_REGION, Code.SEASON_PLACEMENT},
    "coin": {Code.COINS_EXCEED},
    "star": {Code.STAR_WITHOUT_HERO, Code.HERO_STARS_MISSING, Code.DESTROYED_WITHOUT_STAR},
    "monster": {Code.MONSTER_ON_STAR},
}

RIFT = "at most one 1x1 a season (Rift Lands / Kethra's Gates)"
FALLBACK = "more 1x1s, each a fallback: a card none of whose shapes fits, or a ruins card"


def mutate_shape(
    game: Game, sheet: Sheet, rng: np.random.Generator, before: Sheet | None = None
) -> Sheet | None:
    pieces = [
        p
        for p, t in zip(game.pieces, game.piece_terrains, strict=True)
        if t in DRAWN
        and len(p) > 1
        and all(sheet[c] is t for c in p)
        and (before is None or all(before[c] is Terrain.EMPTY for c in p))
    ]
    if not pieces:
        return None
    piece = sorted(pieces[int(rng.integers(len(pieces)))])
    cell = piece[int(rng.integers(len(piece)))]
    other = [t for t in DRAWN if t is not sheet[cell]]
    return sheet.replace({cell: other[int(rng.integers(len(other)))]})


def mutate_coin(
    game: Game, sheet: Sheet, rng: np.random.Generator, before: Sheet | None = None
) -> Sheet | None:
    return sheet.replace(coins=sheet.coins + 1) if sheet.coins + sheet.spent < 14 else None


def mutate_star(
    game: Game, sheet: Sheet, rng: np.random.Generator, before: Sheet | None = None
) -> Sheet | None:
    stars = sorted(sheet.stars)
    if not stars:
        return None
    free = sorted({(r, c) for r in range(11) for c in range(11)} - sheet.stars)
    old = stars[int(rng.integers(len(stars)))]
    new = free[int(rng.integers(len(free)))]
    return sheet.replace(stars=(sheet.stars - {old}) | {new})


def mutate_monster(
    game: Game, sheet: Sheet, rng: np.random.Generator, before: Sheet | None = None
) -> Sheet | None:
    destroyed = sorted(sheet.cells_of(Terrain.DESTROYED) & sheet.stars)
    if not destroyed:
        return None
    return sheet.replace({destroyed[int(rng.integers(len(destroyed)))]: Terrain.MONSTER})


MUTATIONS: dict[str, Callable[..., Sheet | None]] = {
    "shape": mutate_shape,
    "coin": mutate_coin,
    "star": mutate_star,
    "monster": mutate_monster,
}


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f} % ({n}/{d})" if d else "  n/a"


def _ms(values: list[float]) -> str:
    a = np.array(values) * 1000
    return f"median {np.median(a):6.1f}  p95 {np.percentile(a, 95):6.1f}  max {a.max():6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    alarms = Counter[str]()
    alarm_codes = Counter[str]()
    found = Counter[str]()
    found_code = Counter[str]()
    tried = Counter[str]()
    cover_times: list[float] = []
    check_times: list[float] = []
    partial = 0
    hidden = Counter[str]()
    coin_slack: list[int] = []
    coin_drawn: list[int] = []
    coin_room: list[int] = []
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    for g in range(args.seed, args.seed + args.games):
        game, sheets = season_sheets(g)
        winter, fall = sheets[3], sheets[2]
        edition = "heroes" if game.heroes else "base"
        t = time.perf_counter()
        ex = explain(winter, edition)
        cover_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        alone = check_sheet(winter)
        check_times.append(time.perf_counter() - t)
        partial += alone.partial
        for name, result in (
            ("winter alone", alone),
            *(
                (f"{SEASONS[i].value} with its season", check_sheet(s, season=SEASONS[i]))
                for i, s in enumerate(sheets)
            ),
            *(
                (
                    f"{SEASONS[i].value} against the season before",
                    check_sheet(s, before=sheets[i - 1], season=SEASONS[i]),
                )
                for i, s in enumerate(sheets)
                if i
            ),
        ):
            alarms[name] += not result.ok
            alarm_codes.update(f"{name}: {p.code.value}" for p in result.problems)
        del ex
        summer = sheets[1]
        for kind, mutate in MUTATIONS.items():
            for how, sheet, before, season in (
                ("winter alone", winter, None, None),
                ("winter vs fall", winter, fall, Season.WINTER),
                ("summer alone", summer, None, Season.SUMMER),
                ("summer vs spring", summer, sheets[0], Season.SUMMER),
            ):
                bad = mutate(game, sheet, rng, before)
                if bad is None or bad == sheet:
                    continue
                result = check_sheet(bad, before=before, season=season)
                tried[f"{kind} {how}"] += 1
                found[f"{kind} {how}"] += not result.ok
                found_code[f"{kind} {how}"] += bool({p.code for p in result.problems} & EXPECTED[kind])
                if kind == "shape" and how == "winter alone" and result.ok:
                    hidden[RIFT if len(explain(bad, edition).singles) <= len(SEASONS) else FALLBACK] += 1
        bounds = coin_bounds(winter, edition)
        coin_slack.append(bounds.most - (winter.coins + winter.spent))
        coin_drawn.append(sum(1 for m in game.moves if m.kind == "draw" and m.coin))
        coin_room.append(bounds.shapes)
    elapsed = time.perf_counter() - start

    n = args.games
    print(f"{n} random legal games (seeds {args.seed}..{args.seed + n - 1}), {elapsed:.0f} s")
    print("\nfalse alarms (a legal sheet with any problem):")
    for name in (
        ["winter alone"]
        + [f"{s.value} with its season" for s in SEASONS]
        + [f"{s.value} against the season before" for s in SEASONS[1:]]
    ):
        print(f"  {name:34s} {_pct(alarms[name], n)}")
    for name, count in sorted(alarm_codes.items()):
        print(f"    {name}: {count}")
    print("\nmutations found (any problem / the expected code):")
    for key in sorted(tried):
        print(
            f"  {key:22s} {_pct(found[key], tried[key])}   expected code {_pct(found_code[key], tried[key])}"
        )
    print("\nwhy a lone winter sheet hides a broken shape (of those not found):")
    missed = tried["shape winter alone"] - found["shape winter alone"]
    for reason, count in sorted(hidden.items()):
        print(f"  {reason:78s} {_pct(count, missed)}")
    slack = np.array(coin_slack)
    print(
        "lone winter sheets, coins: the most the coin shapes and mountains can pay exceeds the coins held by "
        f"median {np.median(slack):.0f} (0 on {_pct(int((slack <= 0).sum()), n)});\n"
        f"  coin shapes that fit, each coin card once a season: mean {np.mean(coin_room):.1f}; "
        f"coin shapes the game drew: mean {np.mean(coin_drawn):.1f}"
    )
    print("\nwinter sheets, one core:")
    print(f"  decomposition (explain)  {_ms(cover_times)}")
    print(f"  check_sheet (all checks) {_ms(check_times)}")
    print(f"  searches cut short (partial answers): {_pct(partial, n)}")


if __name__ == "__main__":
    main()
