"""Synthetic photo throughput on one core: photos/s per tier (game + page + photo), cells/s.

Run: ``nice python benchmarks/bench_synth.py [--count N] [--contact-sheet docs/contact_sheet.jpg]``.
OpenCV is single-threaded so the figure is per core; one warm-up sample per tier fills the per-process
printed-sheet cache first. ``--contact-sheet`` also writes a grid of the first photos of every tier
(the committed ``docs/contact_sheet.jpg`` is made this way).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from models.synth.camera import TIERS, photograph
from models.synth.generate import make_sample

TILE = 300  # contact sheet tile, px
PER_TIER = (("phone", 6), ("scan", 2), ("webcam", 2), ("hard", 2))


def _tile(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    s = TILE / max(h, w)
    small = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    out = np.full((TILE, TILE, 3), 24, np.uint8)
    y, x = (TILE - small.shape[0]) // 2, (TILE - small.shape[1]) // 2
    out[y:y + small.shape[0], x:x + small.shape[1]] = small
    return out


def contact_sheet(path: Path) -> None:
    """A 4 x 3 grid of synthetic photos (seeds 100+), JPEG quality 80."""
    tiles = [_tile(make_sample(100 + i, tier=tier).image)
             for tier, n in PER_TIER for i in range(n)]
    rows = [np.hstack(tiles[i:i + 4]) for i in range(0, len(tiles), 4)]
    cv2.imwrite(str(path), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 80])
    print(f"wrote {path} ({path.stat().st_size // 1000} kB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=12, help="samples per tier")
    parser.add_argument("--contact-sheet", type=Path, help="also write a contact sheet here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"{'tier':8} {'photos/s':>9} {'cells/s':>9} {'s/photo':>8} {'camera s':>9} {'MP (mean)':>10}")
    for tier in TIERS:
        make_sample(10_000, tier=tier)
        took = camera = 0.0
        pixels = 0
        for seed in range(args.count):
            start = time.perf_counter()
            sample = make_sample(seed, tier=tier)
            took += time.perf_counter() - start
            pixels += sample.image.shape[0] * sample.image.shape[1]
            # the camera alone: photograph the same page again at the same size
            start = time.perf_counter()
            photograph(sample.page, np.random.default_rng(seed), tier=tier, size=sample.image.shape[1::-1])
            camera += time.perf_counter() - start
        rate = args.count / took
        mp = pixels / args.count / 1e6
        print(f"{tier:8} {rate:9.2f} {rate * 121:9.0f} {took / args.count:8.3f} {camera / args.count:9.3f} "
              f"{mp:10.1f}")
    if args.contact_sheet:
        contact_sheet(args.contact_sheet)


if __name__ == "__main__":
    main()
