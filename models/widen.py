"""A trained cell net made wider without changing what it computes, to go on training it (issue 13).

The motif lineage of cell nets reads designs no one wrote towards better than the committed net, but it
is less sure of the training pictures the committed net knew: the same small net holds far more designs.
Training a wider net from scratch takes more hours than this machine gives a run; widening a trained
net costs nothing and starts a sitting where that net stands.

Each new channel of a convolution copies an existing one (its filter and its batch norm), and the layer
that reads the channel shares the copied channel's weight evenly among the copies, so the wider net
computes the same logits (the widening of Chen, Goodfellow and Shlens, "Net2Net", 2016). Copies that
stay exact would get the same gradient for ever, so a little noise on each copy's filter lets them part.

Run: ``python -m models.widen IN.pt --widths 16,32,64,128 --out DIR`` writes ``DIR/cell.pt`` and a
manifest beside it naming where it came from (``models.train --init DIR/cell.pt --cell-widths ...``
then records the chain).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from models.net import CellNet, cell_pool_of

#: Each copied filter gets Gaussian noise of this share of its layer's weight spread (enough for copies
#: to part in training, small enough that the logits barely move; see :func:`widen_cell`).
COPY_NOISE = 0.01

#: The batch-norm tensors copied channel by channel.
_NORM_PARTS = ("weight", "bias", "running_mean", "running_var")


class WidenError(ValueError):
    """A checkpoint that cannot be widened to the widths asked."""


def _widths(state: dict[str, torch.Tensor]) -> tuple[int, ...]:
    out = []
    i = 0
    while f"trunk.blocks.{i}.0.weight" in state:
        out.append(int(state[f"trunk.blocks.{i}.0.weight"].shape[0]))
        i += 1
    return tuple(out)


def channel_map(old: int, new: int, rng: np.random.Generator) -> np.ndarray:
    """Which old channel each of ``new`` channels copies: the first ``old`` themselves, the rest drawn
    at random (each old channel at most once more before any twice)."""
    if new < old:
        raise WidenError(f"{new} channels from {old}: a net is only widened")
    extra: list[int] = []
    while len(extra) < new - old:
        extra.extend(int(c) for c in rng.permutation(old)[: new - old - len(extra)])
    return np.concatenate([np.arange(old), np.asarray(extra, np.int64)]).astype(np.int64)


def _copies(idx: torch.Tensor) -> torch.Tensor:
    """For each channel of a widened layer (``idx``: the old channel it copies), how many channels copy
    that old one (float)."""
    return torch.bincount(idx).to(torch.float32)[idx]


def widen_cell(
    state: dict[str, torch.Tensor], widths: Sequence[int], *, seed: int = 0, noise: float = COPY_NOISE,
) -> dict[str, torch.Tensor]:
    """A :class:`~models.net.CellNet` state widened to ``widths`` (one per conv block).

    Parameters
    ----------
    state : the trained net's ``state_dict`` (mean-and-maximum or mean pooling, found from its head).
    widths : the new conv widths, each at least the old one.
    seed : draws which channels are copied and the noise.
    noise : the copies' filter noise as a share of the layer's weight standard deviation; 0 keeps the
        function exactly (tests).

    Returns
    -------
    The wider state, loadable by ``CellNet(widths, pool)``.
    """
    old = _widths(state)
    if len(old) != len(widths):
        raise WidenError(f"{len(widths)} widths for a net of {len(old)} blocks")
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    maps = [channel_map(o, n, rng) for o, n in zip(old, widths, strict=True)]
    out = {k: v.clone() for k, v in state.items()}
    before = torch.arange(3)  # the image's channels are never widened
    for i, m in enumerate(maps):
        idx = torch.from_numpy(m)
        w = state[f"trunk.blocks.{i}.0.weight"][idx][:, before]
        # each input channel a copy of an old one: share the old channel's weight among its copies
        w = w / _copies(before).view(1, -1, 1, 1)
        fresh = torch.arange(len(m)) >= old[i]
        if noise > 0 and fresh.any():
            spread = float(w.std())
            w[fresh] += torch.randn(w[fresh].shape, generator=gen) * (noise * spread)
        out[f"trunk.blocks.{i}.0.weight"] = w
        for part in _NORM_PARTS:
            out[f"trunk.blocks.{i}.1.{part}"] = state[f"trunk.blocks.{i}.1.{part}"][idx].clone()
        before = idx
    last = old[-1]
    features = state["terrain.weight"].shape[1]
    pools = features // last
    if pools * last != features:
        raise WidenError(f"a head of {features} features over {last} channels")
    # the pooled features lie as [mean of every channel, max of every channel]
    cols = torch.cat([before + p * last for p in range(pools)])
    share = _copies(before).repeat(pools)
    for head in ("terrain", "star"):
        out[f"{head}.weight"] = state[f"{head}.weight"][:, cols] / share.view(1, -1)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.widen", description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint", type=Path, help="a cell net's checkpoint (cell.pt from models.train)")
    ap.add_argument("--widths", required=True, help="the new conv widths, e.g. 16,32,64,128")
    ap.add_argument("--out", type=Path, required=True, help="directory for cell.pt and its manifest")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        widths = tuple(int(w) for w in args.widths.split(","))
        saved = torch.load(args.checkpoint, map_location="cpu")
        state = widen_cell(saved["state_dict"], widths, seed=args.seed)
        pool = cell_pool_of(state, widths)
        CellNet(widths, pool).load_state_dict(state)  # the wider net must load as the trainer makes it
    except (OSError, KeyError, ValueError, RuntimeError) as e:
        print(f"models.widen: {e}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save({"epoch": saved.get("epoch"), "state_dict": state}, args.out / "cell.pt")
    # the manifest beside it names what it was widened from, so the sitting's lineage keeps the chain
    from models.train import lineage

    entry = {"recipe": {"command": "python -m models.widen " + " ".join(
                 [str(args.checkpoint), "--widths", args.widths, "--out", str(args.out), "--seed",
                  str(args.seed)]), "copy_noise": COPY_NOISE},
             "widths": list(widths), "pool": pool, "started_from": lineage(args.checkpoint)}
    manifest = {"about": "a cell net widened by models.widen (function kept, up to the copies' noise)",
                "models": {"cell": entry}}
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out / 'cell.pt'}: widths {list(_widths(saved['state_dict']))} -> {list(widths)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
