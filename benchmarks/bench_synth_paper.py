"""Rendering speed of the page renderer: pages per second on one core, printed blanks warm.

Run: ``python benchmarks/bench_synth_paper.py [--ppc 48] [--pages 60]``.  Sheets come from random
legal play (prepared before timing); the first pass over the paper variants is timed separately,
since blanks are cached per process.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from models.synth.paper import render_page
from models.synth.play import random_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppc", type=float, default=48.0)
    ap.add_argument("--pages", type=int, default=60)
    ap.add_argument("--theme", default="color")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    games = [random_game(rng) for _ in range(args.pages)]
    t0 = time.perf_counter()
    for g in games:  # warm the caches: every paper variant and side gets rendered once
        render_page(g.sheet, rng, ppc=args.ppc, theme=args.theme, pieces=g.pieces)
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for g in games:
        render_page(g.sheet, rng, ppc=args.ppc, theme=args.theme, pieces=g.pieces)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(f"cold pass: {args.pages / warm:.1f} pages/s ({warm / args.pages * 1000:.0f} ms/page)")
    print(
        f"warm pass: {args.pages / dt:.1f} pages/s ({dt / args.pages * 1000:.0f} ms/page) at ppc {args.ppc}"
    )
    print(
        f"warm pass CPU time: {args.pages / cpu:.1f} pages/s per core ({cpu / args.pages * 1000:.0f} ms/page)"
    )


if __name__ == "__main__":
    main()
