"""Fit the per-sheet pooling's temperature for one cell net and write it into its manifest.

    python -m models.fit_decode DIR [--sheets 20] [--split eval] [--tier phone] [--families F,G] [--write]

:func:`scanner.decode.adapt_to_sheet` adds a cell's look-alikes' log-probabilities to its own, which
makes it overconfident unless the sum is divided by a temperature; how much depends on the net (how
soft its own probabilities are, how tightly its features group a hand's drawings). So the temperature
is fitted per net, like the net's own temperatures, and kept with them in the manifest as
``models.cell.temperature.adapt``; ``classify_sheet`` uses it (the constant
:data:`scanner.constants.ADAPT_TEMPERATURE` is the fall-back for manifests without one).

The fit reads whole synthetic sheets through ``classify_sheet`` (pooling, pieces and hero evidence
included: the probabilities the product reports) and, on a grid of temperatures, picks the one of
least negative log-likelihood of the true terrain over the drawable cells; it also measures the share
of cells kept at the product's threshold (:data:`scanner.constants.CONFIDENCE_THRESHOLD`) and the share
kept but wrong. ``--wrong W`` instead picks the temperature keeping the most cells with at most ``W``
of them kept and wrong. That stricter rule (0.2 %, issue 13's goal) was tried on the 2026-11-24 net
and not taken: it set 1.41 against the likelihood's 1.20, cut the fit set's kept-and-wrong cells from
0.30 % to 0.19 %, but left monsters drawn in training styles at 0.89-0.95 (the bundled sample photo
refused) and a synthetic live video read 96 cells instead of 100 and more.
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
from models.synth.style import SPLITS, TRAINABLE_FAMILIES, fit_families
from rules import Sheet
from rules.grid import SIZE
from scanner.classify import classify_sheet
from scanner.constants import CONFIDENCE_THRESHOLD
from scanner.nets import MANIFEST, Models, load_models

#: First seed offset (per family) of the fit's sheets: after the net's calibration sheets (0..).
FIT_START = 1000
#: Temperatures tried (log-spaced).
GRID = tuple(float(t) for t in np.exp(np.linspace(np.log(0.5), np.log(3.0), 46)))
#: ``--wrong``'s usual value: issue 13's goal for cells reported without ``?`` yet wrong.
WRONG_TARGET = 0.002
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
        for r in range(SIZE):
            for c in range(SIZE):
                sym = str(sheet[r, c].value)
                if sym in ds.CLASS_OF:
                    probs.append(reading.probabilities[r, c])
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


Outcomes = dict[float, tuple[np.ndarray, np.ndarray]]


def fit(models: Models, sheets: Sequence[dict[str, Any]]) -> Outcomes:
    """Per grid temperature, the reported probabilities of every drawable cell and its true class."""
    return {t: outcomes(with_adapt(models, t), sheets) for t in GRID}


def summary(found: Outcomes) -> dict[float, tuple[float, float, float]]:
    """Per temperature ``(NLL, kept, kept and wrong)`` at the product's threshold."""
    return {t: (nll(p, y), *coverage(p, y, CONFIDENCE_THRESHOLD)) for t, (p, y) in found.items()}


def pick(scores: dict[float, tuple[float, float, float]], wrong: float | None = None) -> float:
    """The temperature of least NLL, or with ``wrong`` the one :func:`choose` takes."""
    return min(scores, key=lambda t: scores[t][0]) if wrong is None else choose(scores, wrong)


def choose(scores: dict[float, tuple[float, float, float]], wrong: float = WRONG_TARGET) -> float:
    """Of ``{temperature: (NLL, kept, kept and wrong)}``, the temperature keeping the most cells with
    at most ``wrong`` kept and wrong (the coolest on a tie; the hottest when none qualifies)."""
    within = [t for t, (_nll, _kept, w) in scores.items() if w <= wrong]
    return max(within, key=lambda t: (scores[t][1], -t)) if within else max(scores)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", type=Path, help="model directory (its manifest is updated with --write)")
    ap.add_argument("--sheets", type=int, default=20, help="sheets per drawing family")
    ap.add_argument("--split", default="eval", choices=SPLITS)
    ap.add_argument("--tier", default="phone", choices=ds.TIERS_ORDER)
    ap.add_argument("--wrong", type=float, default=None,
                    help=f"pick the temperature keeping the most cells with at most this share kept but "
                         f"wrong at the product's threshold (e.g. {WRONG_TARGET}) instead of the least NLL")
    ap.add_argument("--families", default=",".join(TRAINABLE_FAMILIES),
                    help="drawing families fitted on (a leave-one-family-out net: only those it trained on; "
                         "never the families held out for evaluation)")
    ap.add_argument("--write", action="store_true", help="store the fitted temperature in the manifest")
    args = ap.parse_args(argv)
    try:
        families = fit_families(args.families)
    except ValueError as exc:
        ap.error(str(exc))
    t0 = time.perf_counter()
    sheets = [ds.sheet_inputs(seed, fam, args.split, args.tier, cache=ds.SHEET_CACHE)
              for fam in families
              for seed in ds.family_seeds(args.split, fam, args.sheets, start=FIT_START)]
    models = load_models(args.models)
    found = fit(models, sheets)
    scores = summary(found)
    best, least = pick(scores, args.wrong), pick(scores)
    before = models.cell.temperature.get("adapt")
    print(f"{len(sheets)} sheets ({args.split} split, {args.tier} tier, {', '.join(families)}), "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"temperature     NLL   kept  kept+wrong (threshold {CONFIDENCE_THRESHOLD})")
    for t, (s, kept, wrong) in scores.items():
        note = "  <- fitted" if t == best else "  <- least NLL" if t == least else ""
        print(f"{t:11.3f}  {s:.4f}  {kept:6.2%}  {wrong:6.2%}{note}")
    probs, truth = found[best]
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
            "split": args.split, "tier": args.tier, "families": families,
            "sheets_per_family": args.sheets, "seed_start": FIT_START, "wrong_target": args.wrong,
            "nll": scores[best][0], "kept": scores[best][1], "kept_wrong": scores[best][2],
            "replaced": before,
        }
        path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        print(f"wrote temperature.adapt = {best:.3f} to {path}")


if __name__ == "__main__":
    main()
