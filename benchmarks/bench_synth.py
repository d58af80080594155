"""Synthetic photo throughput on one core: photos/s per tier (game + page + photo), cells/s.

Run: ``nice python benchmarks/bench_synth.py [--count N]``. Single-threaded OpenCV so the figure is per
core; the first sample of each tier is a warm-up (printed-sheet templates are cached per process).
"""

from __future__ import annotations

import argparse
import time

import cv2

from models.synth.camera import TIERS
from models.synth.generate import make_sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="samples per tier")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"{'tier':8} {'photos/s':>9} {'cells/s':>9} {'s/photo':>8} {'MP (mean)':>10}")
    for tier in TIERS:
        make_sample(10_000, tier=tier)
        start = time.perf_counter()
        pixels = 0
        for seed in range(args.count):
            sample = make_sample(seed, tier=tier)
            pixels += sample.image.shape[0] * sample.image.shape[1]
        took = time.perf_counter() - start
        rate = args.count / took
        mp = pixels / args.count / 1e6
        print(f"{tier:8} {rate:9.2f} {rate * 121:9.0f} {took / args.count:8.3f} {mp:10.1f}")


if __name__ == "__main__":
    main()
