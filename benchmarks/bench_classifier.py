"""Inference time of the classifier for one sheet on one core.

    python benchmarks/bench_classifier.py [--repeat 200] [--models DIR] [--repo DIR ... [--rounds 2]]

Reports the median time of (a) each net alone on one sheet's patches, with intra_op_num_threads=1: the
cell net on the 121 cells (goal <= 10 ms), the edge net on the 220 edge strips, the coin net on the 14
coins; (b) the whole ``classify_sheet`` of the cells (white balance, cell net, per-sheet vote), and of
everything the product gives it (14 coins and 220 edge strips too: pieces, heroes, the coin track; goal
<= 15 ms). The patches are cut from one rendered synthetic photo so the per-sheet vote has realistic
work to do. Each line gives the median wall time and the median CPU time of the calling thread (the
nets run in it): on a shared machine the CPU time is the steadier figure.

Each ``--repo`` is a checkout whose code (and committed models) runs, ``PYTHONPATH=DIR``: give two (say
a checkout of an older commit and ``.``) to compare them on the very same patches, run by turns
``--rounds`` times, so that a busy machine slows both alike.

``--stages`` splits the whole read instead: the median CPU time per read of each net's onnxruntime
runs and of every function ``classify_sheet`` calls (each without the time of the others it calls),
by wrapping them in this process (the timers add a few per cent).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
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


def _median_ms(fn, repeat: int) -> tuple[float, float]:
    """Median wall and calling-thread CPU milliseconds of ``fn()``."""
    for _ in range(5):
        fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.thread_time()
        fn()
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def _by_turns(args: argparse.Namespace) -> None:
    """Run this benchmark in every ``--repo`` by turns, all on the patches rendered here."""
    with tempfile.TemporaryDirectory() as tmp:
        saved = Path(tmp) / "patches.npz"
        cells, coins, strips, side = _patches()
        np.savez(saved, cells=cells, coins=coins, side=np.array(side),
                 **{f"strips_{k}": v for k, v in strips.items()})
        argv = [sys.executable, str(Path(__file__).resolve()), "--repeat", str(args.repeat),
                "--patches", str(saved)]
        if args.models is not None:
            argv += ["--models", str(args.models.resolve())]
        for turn in range(args.rounds):
            for repo in args.repo:
                head = subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%h"],
                                      capture_output=True, text=True).stdout.strip()
                print(f"== round {turn + 1}: {repo} ({head or 'not a git checkout'})", flush=True)
                env = {**os.environ, "PYTHONPATH": str(Path(repo).resolve()), "OMP_NUM_THREADS": "1"}
                subprocess.run(argv, env=env, cwd=repo, check=True)


def _load(path: Path) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], str]:
    with np.load(path) as z:
        strips = {k.removeprefix("strips_"): z[k] for k in z.files if k.startswith("strips_")}
        return z["cells"], z["coins"], strips, str(z["side"])


#: What --stages times: the functions of these modules that the whole read calls.
_STAGED = {
    "scanner.classify": ("classify_cells", "read_coins", "read_coin_track", "read_edges", "read_outlines",
                         "read_piece_outlines", "label_cells", "paper_gain", "white_balance", "softmax",
                         "look_alike_groups", "adapt_to_sheet", "find_pieces", "piece_evidence",
                         "hero_evidence", "attack_stars", "ruins_only", "edges_to_read", "edges_near_pieces",
                         "unseen_marks", "count_against_print", "kinds_of_alike_marks", "decode_coin_track",
                         "track_counts", "track_sureness", "overrule_print", "both_counts",
                         "faint_marks_gained", "crowded_track", "clashing_kinds", "odd_gain_mark"),
    "scanner.nets": ("prepare", "white_balance"),
    "scanner.decode": ("average_linkage_groups", "coin_paper", "coin_ink", "gaussian_blur", "median",
                       "percentile_of", "_unit"),
}


def _stage_split(models, run, repeat: int) -> None:
    """Print the median CPU milliseconds per call of ``run()`` spent in each stage (see ``--stages``)."""
    import collections
    import importlib

    spent: collections.Counter[str] = collections.Counter()
    inner: list[int] = []

    def timed(label: str, fn):
        def wrapper(*args, **kwargs):
            start = time.thread_time_ns()
            inner.append(0)
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.thread_time_ns() - start
                spent[label] += took - inner.pop()  # its own time, without the stages it called
                if inner:
                    inner[-1] += took
        return wrapper

    for module_name, names in _STAGED.items():
        module = importlib.import_module(module_name)
        for name in names:
            if hasattr(module, name):
                setattr(module, name, timed(f"{name} ({module_name.split('.')[1]})", getattr(module, name)))

    class Session:  # each net's onnxruntime runs, timed
        def __init__(self, session, label: str) -> None:
            self.session, self.run = session, timed(label, session.run)

    for model in (models.cell, models.coin, models.edge):
        object.__setattr__(model, "session", Session(model.session, f"{model.name} net (onnxruntime)"))
    whole = timed("classify_sheet itself", run)
    for _ in range(5):
        whole()
    spent.clear()
    per_read = []
    for _ in range(repeat):
        start = time.thread_time()
        whole()
        per_read.append(time.thread_time() - start)
    print(f"whole read: median {statistics.median(per_read) * 1000:.2f} ms CPU; per read, by stage:")
    for label, ns in spent.most_common():
        print(f"{ns / repeat / 1e6:7.3f} ms  {label}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--models", type=Path, default=None,
                    help="model directory (default: the committed models)")
    ap.add_argument("--repo", type=Path, action="append", default=None,
                    help="a checkout to measure (repeatable; by turns, on the same patches)")
    ap.add_argument("--rounds", type=int, default=2, help="turns of every --repo")
    ap.add_argument("--stages", action="store_true", help="split the whole read into its stages")
    ap.add_argument("--patches", type=Path, default=None, help=argparse.SUPPRESS)  # --repo's children
    args = ap.parse_args()
    if args.repo:
        _by_turns(args)
        return
    models = load_models(args.models, threads=1)
    cells, coins, strips, side = _patches() if args.patches is None else _load(args.patches)
    if args.stages:
        _stage_split(models, lambda: classify_sheet(cells, side, coin_patches=coins, edge_strips=strips,
                                                    models=models), args.repeat)
        return
    flat = white_balance(cells).reshape(-1, *cells.shape[2:])
    edges = white_balance(np.concatenate([s.reshape(-1, *s.shape[-3:]) for s in strips.values()]), cells)
    coins_balanced = white_balance(coins, cells)

    def everything() -> None:
        classify_sheet(cells, side, coin_patches=coins, edge_strips=strips, models=models)

    def ms(fn) -> tuple[float, float]:
        return _median_ms(fn, args.repeat)

    lines = {
        "cell net, 121 cells, 1 thread": (ms(lambda: models.cell.run(flat)), "goal <= 10 ms"),
        f"edge net, {len(edges)} strips": (ms(lambda: models.edge.run(edges)), ""),
        f"coin net, {len(coins)} coins": (ms(lambda: models.coin.run(coins_balanced)), ""),
        "classify_sheet, cells only": (ms(lambda: classify_sheet(cells, side, models=models)), ""),
        "classify_sheet, cells + coins + edges": (ms(everything), "goal <= 15 ms"),
    }
    print(f"{'':40} {'wall':>8} {'CPU':>8}")
    for name, ((wall, cpu), goal) in lines.items():
        print(f"{name + ':':40} {wall:5.2f} ms {cpu:5.2f} ms  {goal}".rstrip(), flush=True)


if __name__ == "__main__":
    main()
