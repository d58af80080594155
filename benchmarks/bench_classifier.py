"""Inference time of the classifier for one sheet on one core.

    python benchmarks/bench_classifier.py [--repeat 200] [--models DIR]

Reports the median time of (a) the cell net alone on the 121 cells of one sheet, one batched
onnxruntime run with intra_op_num_threads=1 (goal <= 10 ms), (b) the whole ``classify_sheet`` (white
balance, cell net, per-sheet vote, 14 coins, 220 edge strips). The patches are cut from one rendered
synthetic photo so the per-sheet vote has realistic work to do.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from scanner.classify import classify_sheet
from scanner.nets import load_models, white_balance


def _patches() -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], str]:
    from models.synth.generate import make_sample
    from scanner.rectify import rectify
    from scanner.sample import cell_patches, coin_patches, edge_strips

    s = make_sample(7_500_000, tier="phone", split="eval")
    canonical = rectify(s.image, s.corners)
    return cell_patches(canonical), coin_patches(canonical), edge_strips(canonical)._asdict(), s.sheet.side


def _median_ms(fn, repeat: int) -> float:
    for _ in range(5):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--models", type=Path, default=None,
                    help="model directory (default: the committed models)")
    args = ap.parse_args()
    models = load_models(args.models, threads=1)
    cells, coins, strips, side = _patches()
    flat = white_balance(cells).reshape(-1, *cells.shape[2:])
    net_ms = _median_ms(lambda: models.cell.run(flat), args.repeat)
    def everything() -> None:
        classify_sheet(cells, side, coin_patches=coins, edge_strips=strips, models=models)

    all_ms = _median_ms(everything, args.repeat)
    cells_only_ms = _median_ms(lambda: classify_sheet(cells, side, models=models), args.repeat)
    print(f"cell net, 121 cells, 1 thread:           {net_ms:6.2f} ms  (goal <= 10 ms)")
    print(f"classify_sheet, cells only:              {cells_only_ms:6.2f} ms")
    print(f"classify_sheet, cells + coins + edges:   {all_ms:6.2f} ms")


if __name__ == "__main__":
    main()
