"""Fit a cell net's own terrain head for the printed ruins cells and write it into its manifest.

    python -m models.ruins_head DIR --patches .cache/patches/KEY [--patches ...] [--families F,G]
        [--every 2] [--write]

The net reads one patch and does not know where the printed ruins are, so it reads their icon (columns
with flutes, orange or grey) partly as a hatched farm, most of all on prints unlike the renderer's. The
scanner does know: the printed side fixes the six ruins cells. This fit gives those cells a linear
terrain head of their own over the net's pooled features (the ``features`` output the per-sheet
pooling already uses), trained on the ruins cells of the training sheets' patches, while the rest of
the net is left as it is. ``classify_cells`` reads the ruins cells through it when the manifest holds
one (``models.cell.ruins_head``: weight, bias, temperature and how it was fitted).

The head is fitted by multinomial logistic regression (L2 on the weights, standardised features folded
back into the weight) on the ``train`` and ``train-<family>`` caches of ``--families`` only (a net's
never-trained families stay never seen), its temperature on the matching ``eval-<family>`` caches.
It prints the ruins cells' accuracy by the net's own head and by the new one on both.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from models.synth.style import fit_families
from models.train import fit_temperature
from scanner.constants import TERRAIN_CLASSES
from scanner.nets import MANIFEST, Models, RuinsHead, load_models

__all__ = ["fit_head", "fit_temperature", "head_logits", "ruins_features"]

#: L2 weight on the head's (standardised) weights.
L2 = 1e-3


def ruins_features(
    models: Models, caches: Sequence[Path], every: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The net's pooled features (N, D), true terrain (N,) and own terrain logits (N, C) of the printed
    ruins cells in the patch ``caches`` (directories of ``models.dataset.Patches`` files), every
    ``every``-th file of each."""
    feats, labels, own = [], [], []
    for cache in caches:
        cells = []
        for path in sorted(cache.glob("*.npz"))[::every]:
            with np.load(path) as z:
                at = z["ruins"].astype(bool)
                if at.any():
                    cells.append(z["cells"][at])
                    labels.append(z["terrain"][at])
        if cells:
            terrain, _star, features = models.cell.run(np.concatenate(cells))
            feats.append(features)
            own.append(terrain)
    if not feats:
        return np.zeros((0, 0), np.float32), np.zeros(0, np.int64), np.zeros((0, 0), np.float32)
    return (np.concatenate(feats).astype(np.float32), np.concatenate(labels).astype(np.int64),
            np.concatenate(own).astype(np.float32))


def fit_head(
    features: np.ndarray, labels: np.ndarray, classes: int, *, l2: float = L2
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression: weight (classes, D) and bias (classes,) on raw features."""
    x = torch.tensor(features, dtype=torch.float32)
    y = torch.tensor(labels, dtype=torch.int64)
    mean, scale = x.mean(0), x.std(0) + 1e-3  # standardised for the solver, folded back below
    z = (x - mean) / scale
    head = torch.nn.Linear(x.shape[1], classes)
    torch.nn.init.zeros_(head.weight)
    torch.nn.init.zeros_(head.bias)
    opt = torch.optim.LBFGS(head.parameters(), max_iter=300, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(head(z), y) + l2 * (head.weight ** 2).sum()
        loss.backward()  # type: ignore[no-untyped-call]  # torch leaves backward and LBFGS.step unannotated
        return loss

    opt.step(closure)  # type: ignore[no-untyped-call]
    with torch.no_grad():
        weight = head.weight / scale
        bias = head.bias - (weight * mean).sum(1)
    return weight.numpy().astype(np.float32), bias.numpy().astype(np.float32)


def head_logits(features: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """(N, classes) logits of a fitted head, as the scanner computes them (:class:`scanner.nets.RuinsHead`);
    its temperature is fitted like the nets' own (:func:`models.train.fit_temperature`)."""
    return RuinsHead(weight, bias, 1.0).logits(features)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", type=Path, help="model directory (its manifest is updated with --write)")
    ap.add_argument("--patches", type=Path, action="append", required=True,
                    help="a patch cache (models.train --data-key); may be given more than once")
    ap.add_argument("--families", default="graphite,glyph,color,color_icon,marker,mixed",
                    help="the families the net was trained on (with the default split's sheets)")
    ap.add_argument("--every", type=int, default=1, help="every n-th training sheet")
    ap.add_argument("--l2", type=float, default=L2)
    ap.add_argument("--write", action="store_true", help="store the head in the manifest")
    args = ap.parse_args(argv)
    try:
        families = fit_families(args.families)
    except ValueError as exc:
        ap.error(str(exc))
    train = [d for root in args.patches for d in (root / "train", *(root / f"train-{f}" for f in families))]
    evals = [root / f"eval-{f}" for root in args.patches for f in families]
    if missing := [str(p) for p in (*train, *evals) if not p.is_dir()]:
        ap.error(f"no such patch caches: {', '.join(missing)}")
    t0 = time.perf_counter()
    models = load_models(args.models, probes=False)
    x, y, own_x = ruins_features(models, train, args.every)
    xe, ye, own_e = ruins_features(models, evals)
    weight, bias = fit_head(x, y, len(TERRAIN_CLASSES), l2=args.l2)
    temperature = fit_temperature(head_logits(xe, weight, bias), ye)
    print(f"{len(y)} training ruins cells, {len(ye)} eval, {time.perf_counter() - t0:.0f} s; "
          f"temperature {temperature:.3f}")
    for name, xs, ys, own in (("train", x, y, own_x), ("eval", xe, ye, own_e)):
        new = head_logits(xs, weight, bias)
        print(f"  {name}: the net's head {np.mean(own.argmax(1) == ys):.2%}, "
              f"the ruins head {np.mean(new.argmax(1) == ys):.2%}")
    if args.write:
        path = args.models / MANIFEST
        manifest = json.loads(path.read_text(encoding="utf-8"))
        command = "python -m models.ruins_head " + " ".join(sys.argv[1:] if argv is None else argv)
        manifest["models"]["cell"]["ruins_head"] = {
            "weight": np.round(weight, 6).tolist(), "bias": np.round(bias, 6).tolist(),
            "temperature": temperature,
            "fit": {"command": command,
                    "patches": [p.name for p in args.patches], "families": families, "every": args.every,
                    "l2": args.l2,
                    "train_cells": len(y), "eval_cells": len(ye)},
        }
        path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        print(f"wrote models.cell.ruins_head to {path}")


if __name__ == "__main__":
    main()
