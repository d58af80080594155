"""Fit the per-sheet pooling's temperature for one cell net and write it into its manifest.

    python -m models.fit_decode DIR [--sheets 20] [--split eval] [--tier phone] [--write]

:func:`scanner.decode.adapt_to_sheet` adds a cell's look-alikes' log-probabilities to its own, which
makes it overconfident unless the sum is divided by a temperature; how much depends on the net (how
soft its own probabilities are, how tightly its features group a hand's drawings). So the temperature
is fitted per net, like the net's own temperatures, and kept with them in the manifest as
``models.cell.temperature.adapt``; ``classify_sheet`` uses it (the constant
:data:`scanner.constants.ADAPT_TEMPERATURE` is the fall-back for manifests without one).

The fit reads whole synthetic sheets through ``classify_sheet`` (pooling, pieces and hero evidence
included: the probabilities the product reports) and picks the temperature of least negative
log-likelihood of the true terrain over the drawable cells, on a grid. By default the sheets are of the
eval split (a held-out hand drawing held-out pictures: confidence should hold on drawings the net has
not seen), every drawing family alike, seeds apart from the net's own calibration sheets
(``family_seeds(..., start=FIT_START)``) and from every benchmark (``SEED_BASE["bench"]``).
It prints, at the fitted temperature, how many cells each confidence threshold keeps and how many of
the kept are wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from models import dataset as ds
from models.synth.style import ALL_FAMILIES, SPLITS
from rules import Sheet
from scanner.classify import classify_sheet
from scanner.constants import CONFIDENCE_THRESHOLD
from scanner.nets import MANIFEST, Models, load_models

#: First seed offset (per family) of the fit's sheets: after the net's calibration sheets (0..).
FIT_START = 1000
#: Temperatures tried (log-spaced).
GRID = tuple(float(t) for t in np.exp(np.linspace(np.log(0.5), np.log(3.0), 28)))
#: Thresholds whose coverage and error the fit reports.
THRESHOLDS = (0.8, 0.9, 0.95, 0.98)


def with_adapt(models: Models, temperature: float) -> Models:
    """``models`` whose cell net pools look-alikes at ``temperature``."""
    cell = replace(models.cell, temperature={**models.cell.temperature, "adapt": temperature})
    return replace(models, cell=cell)


def outcomes(models: Models, sheets: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The reported probabilities ``(N, C)`` of every drawable cell of ``sheets`` and its true class."""
    probs, truth = [], []
    for x in sheets:
        sheet = Sheet.parse(str(x["truth"]))
        reading = classify_sheet(x["cells"], sheet.side, coin_patches=x["coins"],
                                 edge_strips={"horizontal": x["horizontal"], "vertical": x["vertical"]},
                                 models=models)
        p = reading.probabilities.reshape(-1, reading.probabilities.shape[-1])
        for i, sym in enumerate(str(sheet[divmod(i, 11)].value) for i in range(121)):
            if sym in ds.CLASS_OF:
                probs.append(p[i])
                truth.append(ds.CLASS_OF[sym])
    return np.asarray(probs), np.asarray(truth)


def nll(probs: np.ndarray, truth: np.ndarray) -> float:
    """Mean negative log-likelihood of the true classes."""
    return float(-np.mean(np.log(np.maximum(probs[np.arange(len(truth)), truth], 1e-12))))


def coverage(probs: np.ndarray, truth: np.ndarray, threshold: float) -> tuple[float, float]:
    """Share of cells kept at ``threshold`` and share of all cells kept but wrong."""
    kept = probs.max(axis=1) >= threshold
    wrong = kept & (probs.argmax(axis=1) != truth)
    return float(kept.mean()), float(wrong.mean())


def fit(models: Models, sheets: Sequence[dict[str, Any]]) -> tuple[float, dict[float, float]]:
    """The grid temperature of least NLL, and the NLL of each."""
    scores = {t: nll(*outcomes(with_adapt(models, t), sheets)) for t in GRID}
    return min(scores, key=scores.__getitem__), scores


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", type=Path, help="model directory (its manifest is updated with --write)")
    ap.add_argument("--sheets", type=int, default=20, help="sheets per drawing family")
    ap.add_argument("--split", default="eval", choices=SPLITS)
    ap.add_argument("--tier", default="phone", choices=ds.TIERS_ORDER)
    ap.add_argument("--write", action="store_true", help="store the fitted temperature in the manifest")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    sheets = [ds.sheet_inputs(seed, fam, args.split, args.tier, cache=ds.SHEET_CACHE)
              for fam in ALL_FAMILIES
              for seed in ds.family_seeds(args.split, fam, args.sheets, start=FIT_START)]
    models = load_models(args.models)
    best, scores = fit(models, sheets)
    before = models.cell.temperature.get("adapt")
    print(f"{len(sheets)} sheets ({args.split} split, {args.tier} tier, every family), "
          f"{time.perf_counter() - t0:.0f} s")
    print("temperature  NLL")
    for t, s in scores.items():
        print(f"{t:11.3f}  {s:.4f}{'  <- fitted' if t == best else ''}")
    probs, truth = outcomes(with_adapt(models, best), sheets)
    print(f"at {best:.3f}: best guess right {np.mean(probs.argmax(axis=1) == truth):.2%}")
    for th in THRESHOLDS:
        kept, wrong = coverage(probs, truth, th)
        mark = "  (the product's threshold)" if th == CONFIDENCE_THRESHOLD else ""
        print(f"  threshold {th:.2f}: kept {kept:.2%} of cells, kept and wrong {wrong:.2%}{mark}")
    if args.write:
        path = args.models / MANIFEST
        manifest = json.loads(path.read_text(encoding="utf-8"))
        cell = manifest["models"]["cell"]
        cell["temperature"]["adapt"] = best
        cell["adapt_fit"] = {
            "command": "python -m models.fit_decode " + " ".join(sys.argv[1:] if argv is None else argv),
            "split": args.split, "tier": args.tier, "families": list(ALL_FAMILIES),
            "sheets_per_family": args.sheets, "seed_start": FIT_START, "nll": scores[best],
            "replaced": before,
        }
        path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        print(f"wrote temperature.adapt = {best:.3f} to {path}")


if __name__ == "__main__":
    main()
