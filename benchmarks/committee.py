"""Run a benchmark with two cell nets read as one committee, to see what a distilled student could reach.

    python benchmarks/committee.py SCRIPT [ARGS ...]

``SCRIPT`` is a benchmark that loads models with ``scanner.nets.load_models`` (``eval_families.py``,
``bench_end_to_end.py``, ``eval_real_sheets.py``); in its ``--models`` a directory written
``committee:A+B`` (``A`` may be ``committed``) is read as the models of ``A`` whose cell net is the
committee of ``A``'s and ``B``'s: each net's calibrated log-probabilities (its temperature and
log-prior shift) averaged, terrain and stars alike, and the look-alike features of both, each scaled to
unit length, side by side. The committee runs both nets, so it costs twice the cell net's time: a
measure of a teacher (``models.train --teacher``), not a product setting.
"""

from __future__ import annotations

import dataclasses
import runpy
import sys
from pathlib import Path
from typing import Any

import numpy as np

import scanner.nets as nets
from scanner.constants import NET_BATCH
from scanner.decode import _unit

PREFIX = "committee:"
_load = nets.load_models


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    out: np.ndarray = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


class Committee:
    """Duck-types :class:`scanner.nets.Model` for the cell net: its outputs are calibrated already."""

    def __init__(self, a: nets.Model, b: nets.Model) -> None:
        self.members = (a, b)
        self.name, self.input_size, self.classes, self.entry = a.name, a.input_size, a.classes, a.entry
        self.temperature = {"terrain": 1.0, "star": 1.0, "adapt": a.temperature.get("adapt", 1.0)}
        self.prior_shift: dict[str, np.ndarray] = {}

    def run(self, patches: np.ndarray, *, batch: int = NET_BATCH,
            gain: np.ndarray | None = None) -> list[np.ndarray]:
        terrain, star, features = [], [], []
        for m in self.members:
            t, s, f = m.run(patches, batch=batch, gain=gain)
            shift = m.prior_shift.get("terrain")
            terrain.append(_log_softmax(t / m.temperature["terrain"] + (0.0 if shift is None else shift)))
            star.append(_log_softmax(s / m.temperature["star"]))
            features.append(_unit(f))
        # each net's features at unit length weigh alike; the look-alike grouping scales the joined rows
        return [np.mean(terrain, axis=0), np.mean(star, axis=0), np.concatenate(features, axis=1)]


def load_models(directory: str | Path | None = None, **kw: Any) -> nets.Models:
    text = str(directory) if directory is not None else ""
    if not text.startswith(PREFIX):
        return _load(directory, **kw)
    first, second = text[len(PREFIX):].split("+")
    a = _load(None if first == "committed" else first, **kw)
    b = _load(second, **kw)
    return dataclasses.replace(a, cell=Committee(a.cell, b.cell))  # type: ignore[arg-type]


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    nets.load_models = load_models  # the benchmark imports it from scanner.nets when it starts
    script = Path(sys.argv[1])
    sys.argv = sys.argv[1:]
    sys.path.insert(0, str(script.parent))
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
