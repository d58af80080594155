"""Train the cell, coin and edge nets on rendered sheets, calibrate, export ONNX, write the manifest.

    python -m models.train --out models/ [--cells N] [--epochs E] [--seed S]

The recipe is fixed by the seed: data from :mod:`models.dataset` (train split for fitting, a held-out
part of it for temperature scaling, the eval split — unseen seeds and drawing styles — for the accuracy
recorded in the manifest), torch on the CPU with one or two threads, minutes not hours.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from models import dataset as ds
from models.committee import TeacherError, load_committee, load_member
from models.net import (
    CELL_INPUT,
    COIN_INPUT,
    EDGE_INPUT,
    POOLS,
    STAR_CLASSES,
    CellNet,
    CoinNet,
    EdgeNet,
    SmallNet,
)
from models.synth.style import held_out
from scanner.constants import COIN_CLASSES, EDGE_CLASSES, TERRAIN_CLASSES
from scanner.nets import MANIFEST, prepare, record_probes

BATCH = 128
LEARNING_RATE = 3e-3
WEIGHT_DECAY = 1e-4
LABEL_SMOOTHING = 0.02
#: Colour augmentation: largest hue shift (degrees) and relative saturation change.
HUE_JITTER = 8.0
SATURATION_JITTER = 0.15
#: Share of training cell patches scrambled into a 4x4 block puzzle (see ``_shuffle_blocks``); 0.2 gave
#: no gain on the eval split in a short run (0.873 vs 0.886 cell accuracy), so it is off.
SHUFFLE_SHARE = 0.0
#: Fraction of the training sheets held out for temperature scaling.
CALIBRATION_FRACTION = 0.1
#: Shape augmentation (``--shape-aug``): largest tilt (degrees) and scale change of a cell patch, and
#: the shares of patches whose strokes are thickened, thinned, blurred, or shown without colour (a
#: drawing never seen must be read by its shape as much as by its pencil).
TILT = 15.0
SCALE = 0.15
THICKEN_SHARE = 0.2
THIN_SHARE = 0.1
BLUR_SHARE = 0.15
GREY_SHARE = 0.1
#: Share of patches whose ink is faded toward the paper (``--fade-aug``), and the faintest that keeps:
#: a pale pencil pressed lightly, a hatch in a light colour (a pale-pink village read as empty in half
#: the frames of a synthetic video, 2026-11-24).
FADE_SHARE = 0.25
FADE_LEAST = 0.35
#: The same-drawing loss (``--same-drawing``, issue 13): whole training sheets taken per step, and the
#: temperature of its supervised-contrastive softmax over cosine similarities of the cell net's features.
#: Measured, not in the recipe: +2.6 points on a held-out family in short LOFO runs, but 1-1.5 points
#: lost on unseen designs in a full fine-tune of the committed net (README, 2026-11-25).
SAME_DRAWING_SHEETS = 4
SAME_DRAWING_TEMPERATURE = 0.1
#: Softening temperature of the distillation loss (``--distill``): the teacher's odds among the terrains
#: it did not pick are what a fine-tune would otherwise forget.
DISTILL_TEMPERATURE = 2.0
#: ``--free-hue``: the drawing families whose cells are icons a player may draw in a colour of their own.
#: A share of their training patches (printed ruins left out: the print keeps its colour) gets its hue
#: turned anywhere on the colour wheel, so that such a cell is read by its shape (issue 13: orange houses
#: read as farms, crimson monsters as villages, with confidence).
FREE_HUE_FAMILIES = ("glyph", "doodle")


@dataclass(frozen=True)
class Task:
    """One net to train: its inputs, labels per head and its export description."""

    name: str
    make: Callable[[], nn.Module]
    size: tuple[int, int]
    heads: tuple[str, ...]  # names of the logit outputs, in forward() order
    classes: tuple[tuple[str, ...], ...]


TASKS = {
    "cell": Task("cell", CellNet, CELL_INPUT, ("terrain", "star"), (TERRAIN_CLASSES, STAR_CLASSES)),
    "coin": Task("coin", CoinNet, COIN_INPUT, ("coin",), (COIN_CLASSES,)),
    "edge": Task("edge", EdgeNet, EDGE_INPUT, ("edge",), (EDGE_CLASSES,)),
}




def _signed(gen: torch.Generator, *shape: int) -> torch.Tensor:
    """Uniform noise in [-1, 1) of `shape`, drawn from `gen`."""
    noise: torch.Tensor = torch.rand(*shape, generator=gen) * 2 - 1
    return noise

def log(text: str) -> None:
    """One progress line, at once (training runs for hours in the background)."""
    print(text, flush=True)

def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
        # The code a training run executes: the models package and the inference-side preprocessing
        # (cached patches are pinned by --data-key, so other scanner stages do not shape the run).
        status = ["git", "status", "--porcelain", "--untracked-files=no", "models", "scanner/classify.py"]
        dirty = subprocess.run(status, capture_output=True, text=True, check=True).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def channel_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel mean and std of uint8 patches (N, h, w, 3), in [0, 1] units."""
    # Sums over chunks: a float64 copy of 360,000 patches at once would take 9 GB.
    total = np.zeros(3)
    squares = np.zeros(3)
    n = 0
    for i in range(0, len(x), 8192):
        f = x[i : i + 8192].reshape(-1, 3).astype(np.float64) / 255.0
        total += f.sum(axis=0)
        squares += (f * f).sum(axis=0)
        n += len(f)
    mean = total / max(n, 1)
    std = np.sqrt(np.maximum(squares / max(n, 1) - mean * mean, 0.0))
    return mean.astype(np.float32), np.maximum(std, 1e-3).astype(np.float32)


def _hue_matrices(angles: torch.Tensor) -> torch.Tensor:
    """(N, 3, 3) rotations about the grey axis: a hue shift that keeps brightness and saturation."""
    c, s = torch.cos(angles), torch.sin(angles)
    k = torch.full_like(angles, 1.0 / 3.0)
    r = torch.sqrt(k)
    # Rodrigues' rotation about the unit vector (1, 1, 1) / sqrt(3).
    a = c + k * (1 - c)
    b = k * (1 - c) - r * s
    d = k * (1 - c) + r * s
    rows = [torch.stack([a, b, d], -1), torch.stack([d, a, b], -1), torch.stack([b, d, a], -1)]
    return torch.stack(rows, -2)


def augment(
    x: torch.Tensor, gen: torch.Generator, mean: torch.Tensor, std: torch.Tensor, shuffle: float = 0.0,
    shape: bool = False, fade: bool = False, free: torch.Tensor | None = None,
) -> torch.Tensor:
    """Jitter that the renderer's parameter bins leave out: exposure, contrast, a small hue shift and
    saturation change (the eval split's pencil colours lie between the training ones), mirror images,
    and a shift of up to 2 px (the locator's error); with ``shape``, also tilt, scale, stroke weight,
    blur and colour removed (:func:`_shape_jitter`); with ``fade``, faint ink (:func:`_fade`); the
    patches ``free`` marks get any hue at all (``--free-hue``)."""
    n = x.shape[0]

    v = x * std + mean  # back to [0, 1] BGR
    angles = _signed(gen, n) * np.deg2rad(HUE_JITTER)
    if free is not None:
        angles = torch.where(free, _signed(gen, n) * np.pi, angles)
    hue = _hue_matrices(angles)
    v = torch.einsum("nij,njhw->nihw", hue, v)
    grey = v.mean(dim=1, keepdim=True)
    v = grey + (v - grey) * (1.0 + SATURATION_JITTER * _signed(gen, n, 1, 1, 1))
    v = v * (1.0 + 0.15 * _signed(gen, n, 1, 1, 1)) + 0.08 * _signed(gen, n, 1, 1, 1)
    flip = torch.rand(n, generator=gen) < 0.5
    v = torch.where(flip[:, None, None, None], v.flip(3), v)
    dy, dx = (int(t) for t in torch.randint(-2, 3, (2,), generator=gen))
    v = torch.roll(v, shifts=(dy, dx), dims=(2, 3))
    if shape:
        v = _shape_jitter(v, gen)
    if fade:
        v = _fade(v, gen)
    if shuffle > 0:
        v = _shuffle_blocks(v, gen, shuffle)
    return (v - mean) / std


def _shape_jitter(v: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Per patch: a tilt and scale about the centre (paper pulled in at the border), then strokes
    thickened (a darkest-neighbour filter), thinned, or blurred, and some patches turned grey."""
    n = v.shape[0]

    ang = _signed(gen, n) * np.deg2rad(TILT)
    scale = 1.0 + SCALE * _signed(gen, n)
    cos, sin = torch.cos(ang) / scale, torch.sin(ang) / scale
    zero = torch.zeros(n)
    theta = torch.stack([torch.stack([cos, -sin, zero], 1), torch.stack([sin, cos, zero], 1)], 1)
    grid = nn.functional.affine_grid(theta, list(v.shape), align_corners=False)
    v = nn.functional.grid_sample(v, grid, mode="bilinear", padding_mode="border", align_corners=False)
    pick = torch.rand(n, generator=gen)
    thick = -nn.functional.max_pool2d(-v, 3, stride=1, padding=1)
    thin = nn.functional.max_pool2d(v, 3, stride=1, padding=1)
    blur = nn.functional.avg_pool2d(v, 3, stride=1, padding=1, count_include_pad=False)
    lo = 0.0
    for share, alt in ((THICKEN_SHARE, thick), (THIN_SHARE, (v + thin) / 2), (BLUR_SHARE, blur)):
        sel = ((pick >= lo) & (pick < lo + share))[:, None, None, None]
        v = torch.where(sel, alt, v)
        lo += share
    grey = (torch.rand(n, generator=gen) < GREY_SHARE)[:, None, None, None]
    return torch.where(grey, v.mean(dim=1, keepdim=True).expand_as(v), v)


def _fade(v: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Blend a share :data:`FADE_SHARE` of the patches toward their paper (each channel's 90th
    percentile) by a factor down to :data:`FADE_LEAST`: the drawing keeps its shape and hue, faint."""
    n = v.shape[0]
    paper = torch.quantile(v.flatten(2), 0.9, dim=2)[:, :, None, None]
    keep = FADE_LEAST + (1.0 - FADE_LEAST) * torch.rand(n, 1, 1, 1, generator=gen)
    pick = (torch.rand(n, generator=gen) < FADE_SHARE)[:, None, None, None]
    return torch.where(pick, paper + (v - paper) * keep, v)


def _shuffle_blocks(v: torch.Tensor, gen: torch.Generator, p: float, grid: int = 4) -> torch.Tensor:
    """Scramble a share ``p`` of the patches as a ``grid`` x ``grid`` puzzle: icon shapes the renderer
    never drew (a player's own doodles) must not outweigh the pencil's colour, so some training
    patches keep only colour and texture."""
    n, ch, h, w = v.shape
    if h % grid or w % grid:
        return v
    pick = torch.rand(n, generator=gen) < p
    if not bool(pick.any()):
        return v
    sub = v[pick]
    bh, bw = h // grid, w // grid
    blocks = sub.reshape(len(sub), ch, grid, bh, grid, bw).permute(0, 2, 4, 1, 3, 5).reshape(
        len(sub), grid * grid, ch, bh, bw)
    order = torch.argsort(torch.rand(len(sub), grid * grid, generator=gen), dim=1)
    blocks = blocks[torch.arange(len(sub))[:, None], order]
    sub = blocks.reshape(len(sub), grid, grid, ch, bh, bw).permute(0, 3, 1, 4, 2, 5)
    sub = sub.reshape(len(sub), ch, h, w)
    out = v.clone()
    out[pick] = sub
    return out


def same_drawing_loss(features: torch.Tensor, terrain: torch.Tensor, sheet: torch.Tensor,
                      temperature: float = SAME_DRAWING_TEMPERATURE) -> torch.Tensor:
    """Supervised-contrastive loss within sheets: each cell's unit-length ``features`` drawn toward the
    cells of its own terrain on its own sheet, away from the sheet's other terrains.

    Parameters
    ----------
    features : (N, D) float; terrain, sheet : (N,) int, the class and sample of each cell.

    Returns
    -------
    The mean over cells with a same-terrain peer on their sheet of minus the mean log-probability of
    those peers (softmax over the sheet's other cells); 0 when no cell has one.
    """
    unit = nn.functional.normalize(features, dim=1)
    n = len(unit)
    sim = unit @ unit.T / temperature
    self_pair = torch.eye(n, dtype=torch.bool)
    same_sheet = sheet[:, None] == sheet[None]
    # only pairs on one sheet compete: "which drawing" is a question a sheet asks, not the training set
    logits = sim.masked_fill(~same_sheet | self_pair, float("-inf"))
    positive = same_sheet & (terrain[:, None] == terrain[None]) & ~self_pair
    has = positive.any(dim=1)
    if not bool(has.any()):
        return features.sum() * 0.0
    logp = logits[has] - torch.logsumexp(logits[has], dim=1, keepdim=True)
    pos = positive[has]
    peers = torch.where(pos, logp, torch.zeros_like(logp)).sum(dim=1) / pos.sum(dim=1)
    loss: torch.Tensor = -peers.mean()
    return loss


def drawn_by_sheet(sheet: np.ndarray, terrain: np.ndarray, least: int = 4) -> list[np.ndarray]:
    """Per training sheet, the indices of its drawn cells (not empty; a sample repeated by
    ``--rare-repeat`` carries sheet ``-1`` and is left out), for sheets with at least ``least``."""
    drawn = (terrain != TERRAIN_CLASSES.index("empty")) & (sheet >= 0)
    idx = np.flatnonzero(drawn)
    order = idx[np.argsort(sheet[idx], kind="stable")]
    cuts = np.flatnonzero(np.diff(sheet[order])) + 1
    return [g for g in np.split(order, cuts) if len(g) >= least]


def distill_loss(student: torch.Tensor, teacher: torch.Tensor, temperature: float = DISTILL_TEMPERATURE
                 ) -> torch.Tensor:
    """KL divergence of the student's softened class odds from the teacher's, batch mean, scaled by the
    temperature squared so its gradients keep the size of a cross-entropy's."""
    t = torch.log_softmax(teacher / temperature, dim=1)
    s = torch.log_softmax(student / temperature, dim=1)
    kl = nn.functional.kl_div(s, t, reduction="batchmean", log_target=True)
    return kl * temperature**2


def fit(
    task: Task,
    x: np.ndarray,
    labels: Sequence[np.ndarray],
    *,
    mean: np.ndarray,
    std: np.ndarray,
    epochs: int,
    seed: int,
    log: Callable[[str], None],
    checkpoint: Path | None = None,
    shape_aug: bool = False,
    fade_aug: bool = False,
    init: Path | None = None,
    lr: float = LEARNING_RATE,
    same_drawing: float = 0.0,
    sheets: np.ndarray | None = None,
    distill: float = 0.0,
    free_hue: float = 0.0,
    hue_free: np.ndarray | None = None,
    mixup: float = 0.0,
    teachers: Sequence[Path] = (),
) -> nn.Module:
    """Train ``task``'s net on normalised inputs ``x`` (N, 3, H, W) with one label array per head.

    ``checkpoint``: the weights are saved there after every epoch (a long run stopped early still
    leaves its last finished epoch). ``init``: start from a checkpoint's weights instead of random
    ones (a longer schedule in two sittings, or more data for a net already trained).
    ``same_drawing``: with ``sheets`` (each patch's training sheet, -1 for a repeated copy), every step
    also takes the drawn cells of :data:`SAME_DRAWING_SHEETS` whole sheets and adds this weight times
    :func:`same_drawing_loss` of their features (the cell net's third output); drawn from a generator
    of its own, so 0 leaves the training as it was, bit for bit.
    ``distill``: with ``init``, the net as started is kept as a teacher and every step adds this weight
    times :func:`distill_loss` of the student's heads against the teacher's on the same augmented
    batch (a fine-tune that learns new drawings without drifting from what the net it starts from
    reads); 0 leaves the training as it was. With ``teachers`` (training directories of cell nets) the
    teacher is their committee instead (:func:`models.committee.load_committee`: their calibrated
    log-probabilities averaged).
    ``free_hue``: with ``hue_free`` (bool per patch: may take any colour), that share of those patches
    is drawn in any hue (:data:`FREE_HUE_FAMILIES`); 0 leaves the training as it was.
    ``mixup``: every batch is blended with itself in another order by a weight from Beta(``mixup``,
    ``mixup``) and each head's loss blended alike (:func:`_mixed`); drawn from a generator of its own,
    so 0 leaves the training as it was."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = task.make()
    if init is not None:
        state = onnx_state(net, init, x) if init.suffix == ".onnx" else torch.load(init, map_location="cpu")[
            "state_dict"]
        net.load_state_dict(state)
    teacher: nn.Module | None = None
    if distill > 0 and teachers:
        teacher = load_committee(teachers, mean, std)
    elif distill > 0 and init is not None:
        teacher = copy.deepcopy(net).eval()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=WEIGHT_DECAY)
    steps = max(1, epochs * int(np.ceil(len(x) / BATCH)))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    xt = torch.from_numpy(x)
    mt = torch.from_numpy(mean).view(1, 3, 1, 1)
    st = torch.from_numpy(std).view(1, 3, 1, 1)
    yt = [torch.from_numpy(y.astype(np.int64)) for y in labels]
    # Rare classes (hero, destroyed, stars) get more weight so they are not drowned by empty cells.
    weights = [_class_weights(y, len(c)) for y, c in zip(labels, task.classes, strict=True)]
    losses = [nn.CrossEntropyLoss(weight=w, label_smoothing=LABEL_SMOOTHING) for w in weights]
    whole = drawn_by_sheet(sheets, labels[0]) if same_drawing > 0 and sheets is not None else []
    side = torch.Generator().manual_seed(seed + 1)
    may_turn = torch.from_numpy(hue_free) if free_hue > 0 and hue_free is not None else None
    blend = np.random.default_rng(seed + 2) if mixup > 0 else None
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total = 0.0
        t0 = time.perf_counter()
        for i in range(0, len(x), BATCH):
            idx = order[i : i + BATCH]
            cell = task.name == "cell"
            drawn = task.name in ("cell", "coin")  # hand-drawn marks; edge strips are not tilted or faded
            free = None if may_turn is None else may_turn[idx] & (torch.rand(len(idx), generator=gen)
                                                                   < free_hue)
            batch = augment(xt[idx], gen, mt, st, SHUFFLE_SHARE if cell else 0.0, shape=drawn and shape_aug,
                            fade=drawn and fade_aug, free=free)
            if blend is None:
                out = net(batch)
                loss = sum(lf(o, y[idx]) for lf, o, y in zip(losses, out, yt, strict=False))
            else:
                out, loss = _mixed(net, batch, [y[idx] for y in yt], losses, blend, mixup)
            if teacher is not None:
                with torch.no_grad():
                    taught = teacher(batch)
                heads = zip(out[: len(yt)], taught[: len(yt)], strict=True)
                loss = loss + distill * sum(distill_loss(o, t) for o, t in heads)
            if whole:
                loss = loss + same_drawing * _sheets_step(net, whole, xt, yt[0], side, mt, st, shape_aug,
                                                          fade_aug)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"  {task.name} epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} "
            f"({time.perf_counter() - t0:.0f} s)")
        if checkpoint is not None:
            torch.save({"epoch": epoch + 1, "state_dict": net.state_dict()}, checkpoint)
    return net.eval()


def _mixed(
    net: nn.Module, batch: torch.Tensor, labels: Sequence[torch.Tensor], losses: Sequence[nn.Module],
    rng: np.random.Generator, alpha: float,
) -> tuple[Any, torch.Tensor]:
    """The net's outputs on ``batch`` blended with itself in another order, and each head's loss on the
    two label sets blended by the same weight (the larger weight on the patch kept in place): a design
    between two drawings is to be read as between them, so that one never seen is less often read with
    confidence as a design it merely resembles."""
    lam = float(rng.beta(alpha, alpha))
    lam = max(lam, 1.0 - lam)
    other = torch.from_numpy(rng.permutation(len(batch)))
    out = net(lam * batch + (1.0 - lam) * batch[other])
    heads = zip(losses, out, labels, strict=False)
    loss = sum(lam * lf(o, y) + (1.0 - lam) * lf(o, y[other]) for lf, o, y in heads)
    return out, loss


#: Patches whose statistics set the batch norms of a net started from an exported ONNX file.
ONNX_INIT_PATCHES = 8192


def init_entry(init: Path) -> dict[str, Any]:
    """The manifest entry of the net an ``--init`` file was exported as (the manifest beside it, by the
    file's stem), or nothing when there is none."""
    path = init.parent / MANIFEST
    if not path.is_file():
        return {}
    entry: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["models"].get(init.stem, {})
    return entry


@torch.no_grad()
def onnx_state(net: nn.Module, init: Path, x: np.ndarray) -> dict[str, torch.Tensor]:
    """``net``'s weights taken from an exported ONNX file (a committed net, whose checkpoint is not
    kept), to go on training it.

    The export folded each batch norm into its convolution (weights and a bias). Each norm is rebuilt
    so that it computes that function again, in training mode too: its running statistics are those
    of its convolution's output on about :data:`ONNX_INIT_PATCHES` of ``x`` spread over it (normalised
    inputs), its scale their standard deviation and its shift their mean plus the folded bias, so a batch
    like those patches comes out as the exported net had it. A repeat correction folded into the head
    at export (the manifest's ``bias_shift``) is taken out: training adds it again. The rebuilt net
    must read ``x`` as the ONNX file does (checked)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(init))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    gemms = [n for n in model.graph.node if n.op_type == "Gemm"]
    mine = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    heads = [m for m in net.modules() if isinstance(m, nn.Linear)]
    if (len(convs), len(gemms)) != (len(mine), len(heads)) or len(norms) != len(mine):
        raise ValueError(f"{init}: {len(convs)} convolutions and {len(gemms)} heads, the net "
                         f"{len(mine)} and {len(heads)}")
    biases = []
    for node, conv, norm in zip(convs, mine, norms, strict=True):
        w = torch.from_numpy(weights[node.input[1]].copy())
        if w.shape != conv.weight.shape:
            raise ValueError(f"{init}: a convolution of shape {tuple(w.shape)}, "
                             f"the net's {tuple(conv.weight.shape)}")
        conv.weight.copy_(w)
        b = torch.from_numpy(weights[node.input[2]].copy())
        biases.append(b)
        # first the identity plus the folded bias, so each later layer sees what the ONNX net computes
        _set_norm(norm, torch.zeros_like(b), torch.full_like(b, 1.0 - norm.eps), torch.ones_like(b), b)
    for node, head in zip(gemms, heads, strict=True):
        head.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
        head.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
    shift = init_entry(init).get("bias_shift", {})
    folded = None
    if shift and len(heads) == 1:
        folded = torch.tensor(next(iter(shift.values())), dtype=torch.float32)
        heads[0].bias.sub_(folded)
    sample = torch.from_numpy(np.ascontiguousarray(x[:: max(1, len(x) // ONNX_INIT_PATCHES)]))  # every kind
    seen: list[torch.Tensor] = []
    hooks = [c.register_forward_hook(lambda _m, _i, out: seen.append(out)) for c in mine]
    net.eval()
    net(sample)
    for h in hooks:
        h.remove()
    for z, norm, b in zip(seen, norms, biases, strict=True):
        mean = z.mean(dim=(0, 2, 3))
        var = z.var(dim=(0, 2, 3), unbiased=False)
        _set_norm(norm, mean, var, torch.sqrt(var + norm.eps), mean + b)
    _check_onnx_state(net, init, sample[:512], folded)
    return {k: v.clone() for k, v in net.state_dict().items()}


def _set_norm(norm: nn.BatchNorm2d, mean: torch.Tensor, var: torch.Tensor, scale: torch.Tensor,
              shift: torch.Tensor) -> None:
    """A batch norm's running statistics and affine scale and shift, in place."""
    if norm.running_mean is None or norm.running_var is None:
        raise ValueError("a batch norm without running statistics")
    norm.running_mean.copy_(mean)
    norm.running_var.copy_(var)
    norm.weight.copy_(scale)
    norm.bias.copy_(shift)


def _check_onnx_state(net: nn.Module, init: Path, x: torch.Tensor, shift: torch.Tensor | None) -> None:
    """Refuse a rebuilt net whose logits differ from the ONNX file's (beyond float rounding)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(init), providers=["CPUExecutionProvider"])
    want = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    got = net(x)[0] + (shift if shift is not None else 0.0)
    gap = float(np.abs(got.numpy() - want).max())
    if gap > 1e-3:
        raise ValueError(f"{init}: the rebuilt net's logits differ from the file's by {gap:.3g}")


def _sheets_step(
    net: nn.Module, whole: Sequence[np.ndarray], xt: torch.Tensor, terrain: torch.Tensor,
    gen: torch.Generator, mean: torch.Tensor, std: torch.Tensor, shape: bool, fade: bool,
) -> torch.Tensor:
    """:func:`same_drawing_loss` of a few whole sheets picked from ``whole`` (augmented as a batch).

    The batch norms normalise these batches by their own statistics but do not fold them into their
    running ones: drawn cells only, a few sheets' worth, are not the cells inference sees."""
    picks = torch.randperm(len(whole), generator=gen)[:SAME_DRAWING_SHEETS].tolist()
    idx = torch.from_numpy(np.concatenate([whole[k] for k in picks]))
    group = torch.from_numpy(np.concatenate([np.full(len(whole[k]), j) for j, k in enumerate(picks)]))
    norms = [m for m in net.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    momenta = [m.momentum for m in norms]
    for m in norms:
        m.momentum = 0.0
    try:
        features = net(augment(xt[idx], gen, mean, std, shape=shape, fade=fade))[-1]
    finally:
        for m, momentum in zip(norms, momenta, strict=True):
            m.momentum = momentum
    return same_drawing_loss(features, terrain[idx], group)


def _class_weights(y: np.ndarray, n: int) -> torch.Tensor:
    counts = np.bincount(y, minlength=n).astype(np.float64)
    w = 1.0 / np.sqrt(np.maximum(counts, 1.0))
    w = w / (w * counts).sum() * counts.sum()
    return torch.tensor(np.minimum(w, 10.0 * w.min()), dtype=torch.float32)


@torch.no_grad()
def logits_of(net: nn.Module, x: np.ndarray, heads: int) -> list[np.ndarray]:
    outs: list[list[np.ndarray]] = [[] for _ in range(heads)]
    for i in range(0, len(x), 512):
        res = net(torch.from_numpy(x[i : i + 512]))
        for h in range(heads):
            outs[h].append(res[h].numpy())
    return [np.concatenate(o) if o else np.zeros((0, 1), np.float32) for o in outs]


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood on held-out data (grid over log T)."""
    if len(y) == 0:
        return 1.0
    best_t, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.2), np.log(5.0), 80)):
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        nll = float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y)), y]))
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def coverage_curve(logits: np.ndarray, y: np.ndarray, temperature: float) -> list[dict[str, float]]:
    """For a few confidence thresholds: the share of patches kept and the accuracy of those kept."""
    if len(y) == 0:
        return []
    z = logits / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    conf, pred = p.max(axis=1), p.argmax(axis=1)
    rows = []
    for t in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99):
        kept = conf >= t
        rows.append({"threshold": t, "coverage": round(float(kept.mean()), 5),
                     "kept_accuracy": round(float((pred[kept] == y[kept]).mean()) if kept.any() else 1.0, 5)})
    return rows


def export_onnx(net: nn.Module, task: Task, path: Path) -> list[str]:
    """Export with a dynamic batch axis; returns the output names (logits per head, then features)."""
    outputs = [*task.heads, "features"]
    dummy = torch.zeros(2, 3, *task.size)
    torch.onnx.export(
        net,
        (dummy,),
        str(path),
        input_names=["input"],
        output_names=outputs,
        dynamic_axes={"input": {0: "n"}, **{o: {0: "n"} for o in outputs}},
        opset_version=17,
        dynamo=False,
    )
    return outputs


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def train_task(
    task: Task,
    train: tuple[np.ndarray, list[np.ndarray]],
    calib: tuple[np.ndarray, list[np.ndarray]],
    evaluation: tuple[np.ndarray, list[np.ndarray]],
    *,
    out: Path,
    epochs: int,
    seed: int,
    log: Callable[[str], None],
    resume: Path | None = None,
    shape_aug: bool = False,
    fade_aug: bool = False,
    init: Path | None = None,
    lr: float = LEARNING_RATE,
    bias_shift: np.ndarray | None = None,
    same_drawing: float = 0.0,
    sheets: np.ndarray | None = None,
    distill: float = 0.0,
    free_hue: float = 0.0,
    hue_free: np.ndarray | None = None,
    mixup: float = 0.0,
    teachers: Sequence[Path] = (),
) -> dict[str, Any]:
    """Fit, calibrate, export and measure one net; returns its manifest entry.

    ``resume``: take the weights of a checkpoint written by :func:`fit` instead of fitting (a run
    stopped early is calibrated, exported and measured as it stood after its last finished epoch).
    ``bias_shift``: added to the first head's bias before calibration (a one-head net's label-shift
    correction, :func:`coin_repeat_shift`, carried by the exported weights)."""
    start = init_entry(init) if init is not None and init.suffix == ".onnx" else {}
    # a net started from an exported one keeps the input normalisation it was trained with
    if start:
        mean = np.array(start["input"]["mean"], np.float32)
        std = np.array(start["input"]["std"], np.float32)
    else:
        mean, std = channel_stats(train[0])
    xs = [prepare(p, task.size, mean, std) for p in (train[0], calib[0], evaluation[0])]
    t0 = time.perf_counter()
    stopped: dict[str, Any] = {}
    if resume is None:
        net = fit(task, xs[0], train[1], mean=mean, std=std, epochs=epochs, seed=seed, log=log,
                  checkpoint=out / f"{task.name}.pt", shape_aug=shape_aug, fade_aug=fade_aug, init=init,
                  lr=lr, same_drawing=same_drawing, sheets=sheets, distill=distill, free_hue=free_hue,
                  hue_free=hue_free, mixup=mixup, teachers=teachers)
    else:
        state = torch.load(resume, map_location="cpu")
        net = task.make()
        net.load_state_dict(state["state_dict"])
        net.eval()
        stopped = {"stopped_after_epoch": int(state["epoch"]), "of_epochs": epochs}
        log(f"  {task.name}: weights of {resume} (epoch {state['epoch']} of {epochs})")
    seconds = time.perf_counter() - t0
    if bias_shift is not None:
        with torch.no_grad():
            head = net.head if isinstance(net, SmallNet) else getattr(net, task.heads[0])
            head.bias += torch.from_numpy(bias_shift.astype(np.float32))
    heads = len(task.heads)
    cal_logits = logits_of(net, xs[1], heads)
    temps = {h: fit_temperature(cal_logits[i], calib[1][i]) for i, h in enumerate(task.heads)}
    ev_logits = logits_of(net, xs[2], heads)
    accuracy = {
        h: float(np.mean(ev_logits[i].argmax(axis=1) == evaluation[1][i])) if len(evaluation[1][i]) else None
        for i, h in enumerate(task.heads)
    }
    curve = coverage_curve(ev_logits[0], evaluation[1][0], temps[task.heads[0]])
    confusion = np.zeros((len(task.classes[0]),) * 2, int)
    np.add.at(confusion, (evaluation[1][0], ev_logits[0].argmax(axis=1)), 1)
    path = out / f"{task.name}.onnx"
    outputs = export_onnx(net, task, path)
    log(f"  {task.name}: T={temps} eval accuracy={accuracy} ({seconds:.0f} s training)")
    entry: dict[str, Any] = {
        "file": path.name,
        "sha256": sha256(path),
        "input": {"size": list(task.size), "layout": "NCHW", "channels": "BGR white-balanced",
                  "scale": "1/255", "mean": mean.tolist(), "std": std.tolist()},
        "outputs": outputs,
        "classes": list(task.classes[0]),
        "temperature": temps,
        "train_size": len(train[0]),
        "calibration_size": len(calib[0]),
        "eval_size": len(evaluation[0]),
        "eval_accuracy": accuracy,
        "eval_confusion": confusion.tolist(),
        "eval_coverage_curve": curve,
        "train_seconds": round(seconds, 1) if resume is None else None,
        **stopped,
        "parameters": sum(p.numel() for p in net.parameters()),
    }
    if heads > 1:
        entry["head_classes"] = {h: list(c) for h, c in zip(task.heads, task.classes, strict=True)}
    return entry


def lineage(init: Path) -> dict[str, Any]:
    """How the checkpoint ``init`` was made, from the manifest its run wrote beside it (a net trained in
    two sittings names both recipes in the committed manifest)."""
    entry: dict[str, Any] = {"checkpoint": init.name}
    path = init.parent / MANIFEST
    if path.is_file():
        old = json.loads(path.read_text(encoding="utf-8"))
        net = old["models"].get(init.stem, {})
        entry |= {"recipe": net.get("recipe", old.get("recipe")),
                  "code_version": net.get("code_version", old.get("code_version")),
                  "train_seconds": net.get("train_seconds"), "data": old.get("data")}
        if "started_from" in net:  # a chain of sittings nests
            entry["started_from"] = net["started_from"]
    return entry


def split_arrays(
    p: ds.Patches, kind: str, held: np.ndarray, *, cap: int | None = None, seed: int = 0,
    rare_repeat: int = 1,
) -> tuple[tuple[np.ndarray, list[np.ndarray]], tuple[np.ndarray, list[np.ndarray]]]:
    """(train, calibration) arrays of one patch kind; ``held`` marks calibration sheets.

    ``cap`` keeps a random subset of at most that many training patches (edges are plentiful: 220 a
    sheet, and far easier than cells; a cap on cells buys more sheets, so more drawing styles, for the
    same training time). ``rare_repeat``: cell patches of heroes and of hit stars, and crossed coins, are
    taken that many times (about one cell in 200 is a hero, one coin in 50 crossed: a net trained briefly
    sees too few drawings of them).
    """
    x, labels, sheet = p.arrays(kind)
    cal = held[sheet]
    train = train_index(p, kind, held, cap=cap, seed=seed, rare_repeat=rare_repeat)
    return (x[train], [y[train] for y in labels]), (x[cal], [y[cal] for y in labels])


def train_index(
    p: ds.Patches, kind: str, held: np.ndarray, *, cap: int | None = None, seed: int = 0,
    rare_repeat: int = 1,
) -> np.ndarray:
    """The indices of :func:`split_arrays`' training patches into ``p.arrays(kind)``, ascending (a
    repeated patch's copies next to each other)."""
    _, labels, sheet = p.arrays(kind)
    train = np.flatnonzero(~held[sheet])
    if cap is not None and len(train) > cap:
        train = np.sort(np.random.default_rng(seed).choice(train, cap, replace=False))
    if kind in ("cell", "coin") and rare_repeat > 1:
        if kind == "cell":
            rare = train[(labels[0][train] == TERRAIN_CLASSES.index("hero")) | (labels[1][train] > 0)]
        else:
            rare = train[labels[0][train] == COIN_CLASSES.index("crossed")]
        train = np.sort(np.concatenate([train, *[rare] * (rare_repeat - 1)]))
    out: np.ndarray = train
    return out


def training_sheets(p: ds.Patches, index: np.ndarray) -> np.ndarray:
    """Each training cell patch's sample (``index`` from :func:`train_index`), -1 for the second and
    later copies of a repeated patch (the same-drawing loss sees each cell once)."""
    sheet = p.cell_sheet[index].astype(np.int64)
    sheet[1:][index[1:] == index[:-1]] = -1
    out: np.ndarray = sheet
    return out


def free_hue_patches(p: ds.Patches, index: np.ndarray, sheet_families: Sequence[str]) -> np.ndarray:
    """Whether each training cell patch (``index`` from :func:`train_index`) may be drawn in any hue: its
    sheet's family (``sheet_families[i]``, sample i's) is one of :data:`FREE_HUE_FAMILIES` and no ruins
    are printed under it."""
    family = np.asarray(sheet_families)[p.cell_sheet[index]]
    out: np.ndarray = np.isin(family, FREE_HUE_FAMILIES) & (p.ruins[index] == 0)
    return out


def repeat_shift(terrain: np.ndarray, star: np.ndarray, repeat: int) -> np.ndarray:
    """Log-prior offsets undoing ``--rare-repeat`` (label-shift correction), per terrain class.

    ``terrain`` and ``star`` are the training labels as repeated by :func:`split_arrays`: a class the
    training saw ``r`` times more often than it occurs gets ``-log r`` (renormalised over the classes),
    added to the net's tempered logits at inference (``log_prior_shift`` in the manifest).
    """
    rare = (terrain == TERRAIN_CLASSES.index("hero")) | (star > 0)
    return _undo_repeat(terrain, rare, repeat, len(TERRAIN_CLASSES))


def coin_repeat_shift(coin: np.ndarray, repeat: int) -> np.ndarray:
    """Log-prior offsets undoing ``--rare-repeat`` on the coin net (crossed coins taken ``repeat``
    times): ``-log repeat`` for crossed, renormalised over the classes. ``coin``: the training labels as
    repeated by :func:`split_arrays`."""
    return _undo_repeat(coin, coin == COIN_CLASSES.index("crossed"), repeat, len(COIN_CLASSES))


def _undo_repeat(labels: np.ndarray, rare: np.ndarray, repeat: int, classes: int) -> np.ndarray:
    """Log-prior offsets per class for ``labels`` whose ``rare`` entries were taken ``repeat`` times:
    the class counts before and after the repetition, as log priors, subtracted, the largest made 0."""
    after = np.bincount(labels, minlength=classes).astype(np.float64)
    before = after - (repeat - 1) / repeat * np.bincount(labels[rare], minlength=classes)
    shift = np.log(np.maximum(before, 1.0) / before.sum()) - np.log(np.maximum(after, 1.0) / after.sum())
    out: np.ndarray = shift - shift.max()
    return out


def _factors(given: Sequence[str]) -> dict[str, int]:
    """``FAMILY=N`` options as a mapping; a malformed one is the caller's mistake."""
    out: dict[str, int] = {}
    for item in given:
        fam, sep, n = item.partition("=")
        if not sep or not n.strip().isdigit():
            raise SystemExit(f"--factor {item!r}: expected FAMILY=N, e.g. studio=4")
        out[fam.strip()] = int(n)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--cells", type=int, default=30000, help="training cell patches (121 per sheet)")
    ap.add_argument("--eval-cells", type=int, default=6000, help="eval-split cell patches")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=ds.DEFAULT_CACHE)
    ap.add_argument("--workers", type=int, default=1, help="processes rendering training sheets")
    ap.add_argument("--data-key", default=None, help="cache directory name (default: source fingerprint)")
    ap.add_argument("--max-edges", type=int, default=60000, help="edge strips used for training at most")
    ap.add_argument("--max-cells", type=int, default=None,
                    help="cell patches used for training at most (more sheets = more drawing styles for the "
                         "same training time)")
    ap.add_argument("--only", default=",".join(TASKS), help="nets to train (the others are kept from --out)")
    ap.add_argument("--cell-widths", default="16,32,48,64", help="conv widths of the cell net")
    ap.add_argument("--coin-widths", default="12,24,32", help="conv widths of the coin net")
    ap.add_argument("--cell-pool", default="avg", choices=POOLS,
                    help="how the cell net pools its last feature map: the mean, or the mean and the maximum")
    ap.add_argument("--resume", type=Path, default=None,
                    help="finish a stopped run: calibrate, export and measure this checkpoint (one net)")
    ap.add_argument("--families", default=None,
                    help="train on these drawing families (models.synth.style.TRAINABLE_FAMILIES, e.g. "
                         "graphite,grammar,studio), each from its own seeds, instead of the default mixed "
                         "train split")
    ap.add_argument("--family-sheets", type=int, default=200, help="training sheets per family")
    ap.add_argument("--glyph-factor", type=int, default=2, help="the glyph family's sheets, times")
    ap.add_argument("--grammar-factor", type=int, default=1, help="the grammar family's sheets, times")
    ap.add_argument("--factor", action="append", default=[], metavar="FAMILY=N",
                    help="any family's sheets, times (repeatable; e.g. studio=4)")
    ap.add_argument("--without", default=None, help="leave this family out (leave-one-family-out runs)")
    ap.add_argument("--calibrate-on", default="train", choices=("train", "eval"),
                    help="temperature fitted on held-out training sheets, or (eval) on eval-split sheets of "
                         "the trained families: a held-out hand drawing held-out designs")
    ap.add_argument("--calibration-sheets", type=int, default=40,
                    help="eval-split sheets per family (calibration)")
    ap.add_argument("--eval-sheets", type=int, default=10,
                    help="eval-split sheets per family (manifest figures)")
    ap.add_argument("--shape-aug", action="store_true",
                    help="tilt, scale, stroke weight, blur, grey (cell and coin nets)")
    ap.add_argument("--fade-aug", action="store_true", help="faint ink toward the paper (cell and coin nets)")
    ap.add_argument("--default-sheets", type=int, default=0,
                    help="with --families: also this many sheets of the default mixed train split")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this checkpoint's weights (one net, as written by an earlier run), or "
                         "from an exported net (NAME.onnx, its manifest beside it: a committed net)")
    ap.add_argument("--lr", type=float, default=LEARNING_RATE, help="peak learning rate (one-cycle)")
    ap.add_argument("--rare-repeat", type=int, default=1,
                    help="hero and hit-star cell patches and crossed coins taken this many times")
    ap.add_argument("--same-drawing", type=float, default=0.0, metavar="WEIGHT",
                    help="cell net: add this weight times a supervised-contrastive loss within whole "
                         "training sheets on its features (issue 13: two terrains drawn alike kept apart)")
    ap.add_argument("--distill", type=float, default=0.0, metavar="WEIGHT",
                    help="with --init: add this weight times the divergence from the starting net's "
                         "softened odds (the starting net as teacher, on the same augmented batches); "
                         "with --teacher, from the committee's")
    ap.add_argument("--teacher", type=Path, action="append", default=[], metavar="DIR",
                    help="with --distill: a cell net's training directory (cell.pt, manifest.json); "
                         "several make a committee whose calibrated log-probabilities are averaged")
    ap.add_argument("--free-hue", type=float, default=0.0, metavar="SHARE",
                    help="cell net: this share of the patches of icon families (FREE_HUE_FAMILIES) drawn "
                         "in any hue (a player's own colours)")
    ap.add_argument("--mixup", type=float, default=0.0, metavar="ALPHA",
                    help="cell net: blend each batch with itself in another order, the weight from "
                         "Beta(ALPHA, ALPHA), the labels blended alike")
    args = ap.parse_args(argv)
    if refused := held_out((args.families or "").split(",")):
        ap.error(f"--families: {', '.join(refused)} is held out for evaluation; no net trains on it")
    if args.teacher and args.distill <= 0:
        ap.error("--teacher needs --distill WEIGHT: the committee teaches through the distillation loss")
    try:  # before hours of rendering: every teacher loads
        for directory in args.teacher:
            load_member(directory, np.zeros(3, np.float32), np.ones(3, np.float32))
    except TeacherError as e:
        ap.error(str(e))
    only = [t.strip() for t in args.only.split(",") if t.strip()]
    widths = tuple(int(w) for w in args.cell_widths.split(","))
    tasks = dict(TASKS)
    coin_widths = tuple(int(w) for w in args.coin_widths.split(","))
    tasks["cell"] = replace(TASKS["cell"], make=lambda: CellNet(widths, args.cell_pool))
    tasks["coin"] = replace(TASKS["coin"], make=lambda: CoinNet(coin_widths))
    kept: dict[str, Any] = {}
    if set(only) != set(TASKS):
        old = json.loads((args.out / MANIFEST).read_text(encoding="utf-8"))
        kept = {k: v for k, v in old["models"].items() if k not in only}
        for entry in kept.values():  # a kept net keeps the recipe and code that made it
            entry.setdefault("recipe", old["recipe"])
            entry.setdefault("code_version", old["code_version"])
    torch.set_num_threads(args.threads)
    t_start = time.perf_counter()
    n_train = max(2, int(np.ceil(args.cells / 121)))
    n_eval = max(1, int(np.ceil(args.eval_cells / 121)))
    key = args.data_key or ds.fingerprint()
    calib: ds.Patches | None = None
    families: dict[str, int] = {}
    if args.families:
        factor = {"glyph": args.glyph_factor, "grammar": args.grammar_factor, **_factors(args.factor)}
        families = {f: args.family_sheets * factor.get(f, 1)
                    for f in args.families.split(",") if f.strip() and f != args.without}
        n_train = sum(families.values())
        log(f"training families {families} (cache {args.cache / key})")

        def per_family(split: str, counts: dict[str, int], start: int = 0) -> ds.Patches:
            parts = [ds.build(ds.family_seeds(split, f, n, args.seed, start), split=split, family=f,
                              cache=args.cache, workers=args.workers, key=key, log=log, kinds=only)
                     for f, n in counts.items()]
            return ds.join(parts, list(counts.values()))

        train = per_family("train", families)
        sheet_families = [f for f, n in families.items() for _ in range(n)]
        if args.default_sheets:
            mixed = ds.build(ds.seeds("train", args.default_sheets, args.seed), split="train",
                             cache=args.cache, workers=args.workers, key=key, log=log, kinds=only)
            train = ds.join([train, mixed], [n_train, args.default_sheets])
            n_train += args.default_sheets
            sheet_families += ["default"] * args.default_sheets
        evaluation = per_family("eval", {f: args.eval_sheets for f in families}, start=5000)
        n_eval = args.eval_sheets * len(families)
        if args.calibrate_on == "eval":
            calib = per_family("eval", {f: args.calibration_sheets for f in families})
    else:
        log(f"rendering {n_train} training and {n_eval} eval sheets (cache {args.cache / key})")
        train = ds.build(ds.seeds("train", n_train, args.seed), split="train", cache=args.cache,
                         workers=args.workers, key=key, log=log, kinds=only)
        sheet_families = ["default"] * n_train
        evaluation = ds.build(ds.seeds("eval", n_eval, args.seed), split="eval", cache=args.cache,
                              workers=args.workers, key=key, log=log, kinds=only)
    data_seconds = time.perf_counter() - t_start
    rng = np.random.default_rng(args.seed)
    held = rng.random(n_train) < CALIBRATION_FRACTION
    held[0] = True  # never an empty calibration set
    if calib is not None:
        held[:] = False
    args.out.mkdir(parents=True, exist_ok=True)
    entries = dict(kept)
    recipe = {"command": "python -m models.train " + " ".join(sys.argv[1:] if argv is None else argv),
              "seed": args.seed, "epochs": args.epochs, "batch": BATCH, "lr": args.lr,
              "init": str(args.init) if args.init else None, "rare_repeat": args.rare_repeat,
              "weight_decay": WEIGHT_DECAY, "schedule": "one-cycle", "label_smoothing": LABEL_SMOOTHING}
    if args.same_drawing > 0:  # absent when off: the manifests of runs without it stay as they were
        recipe["same_drawing"] = {"weight": args.same_drawing, "sheets_per_step": SAME_DRAWING_SHEETS,
                                  "temperature": SAME_DRAWING_TEMPERATURE}
    if args.free_hue > 0:  # absent when off, as same_drawing
        recipe["free_hue"] = {"share": args.free_hue, "families": list(FREE_HUE_FAMILIES)}
    if args.distill > 0:  # absent when off, as same_drawing
        recipe["distill"] = {"weight": args.distill, "temperature": DISTILL_TEMPERATURE,
                             "teacher": [str(t) for t in args.teacher] if args.teacher else str(args.init)}
    if args.mixup > 0:  # absent when off, as same_drawing
        recipe["mixup"] = {"alpha": args.mixup}
    for i, task in enumerate(tasks.values()):
        if task.name not in only:
            continue
        log(f"training {task.name}")
        cap = {"edge": args.max_edges, "cell": args.max_cells}.get(task.name)
        tr, cal = split_arrays(train, task.name, held, cap=cap, seed=args.seed, rare_repeat=args.rare_repeat)
        if calib is not None:
            cal_x, cal_y, _ = calib.arrays(task.name)
            cal = (cal_x, cal_y)
        ev_x, ev_y, _ = evaluation.arrays(task.name)
        # the coin net carries its repeat correction in its weights (the scanner reads no coin prior shift)
        coin_repeat = task.name == "coin" and args.rare_repeat > 1
        fold = coin_repeat_shift(tr[1][0], args.rare_repeat) if coin_repeat else None
        same = args.same_drawing if task.name == "cell" else 0.0
        free = args.free_hue if task.name == "cell" else 0.0
        sheets = hue_free = None
        if same > 0 or free > 0:  # the training cell patches' own facts, as split_arrays picked them
            index = train_index(train, "cell", held, cap=cap, seed=args.seed, rare_repeat=args.rare_repeat)
            sheets = training_sheets(train, index) if same > 0 else None
            hue_free = free_hue_patches(train, index, sheet_families) if free > 0 else None
        entries[task.name] = train_task(task, tr, cal, (ev_x, ev_y), out=args.out, epochs=args.epochs,
                                        seed=args.seed + i, log=log, resume=args.resume,
                                        shape_aug=args.shape_aug, fade_aug=args.fade_aug, init=args.init,
                                        lr=args.lr, bias_shift=fold, same_drawing=same, sheets=sheets,
                                        distill=args.distill, free_hue=free, hue_free=hue_free,
                                        mixup=args.mixup if task.name == "cell" else 0.0,
                                        teachers=args.teacher if task.name == "cell" else ())
        if fold is not None:
            entries[task.name]["bias_shift"] = {"coin": [float(v) for v in fold]}
        entries[task.name]["code_version"] = git_commit()
        entries[task.name]["recipe"] = recipe
        if task.name == "coin":
            entries[task.name]["widths"] = list(coin_widths)
        if task.name == "cell":
            entries[task.name]["widths"] = list(widths)
            if args.cell_pool != "avg":  # absent when the mean: the committed manifests stay as they were
                entries[task.name]["pool"] = args.cell_pool
            if args.rare_repeat > 1:  # the temperatures above were fitted without it
                shift = repeat_shift(tr[1][0], tr[1][1], args.rare_repeat)
                entries[task.name]["log_prior_shift"] = {"terrain": [float(v) for v in shift]}
        if args.init is not None:
            entries[task.name]["started_from"] = lineage(args.init)
    family_data: dict[str, Any] = {}
    if families:
        family_data = {
            "families": families, "without": args.without, "shape_augmentation": args.shape_aug,
            "fade_augmentation": args.fade_aug,
            "default_split_sheets": args.default_sheets,
            "family_train_seeds": {f: ds.seed_range("train", 0) or [s[0], s[-1]] for f, n in families.items()
                                   for s in [ds.family_seeds("train", f, n, args.seed)]},
            "calibration": (f"eval split (held-out hand and designs), {args.calibration_sheets} sheets per "
                            "trained family" if calib is not None else "held-out training sheets"),
        }
    manifest = {
        "about": "cartoscan classifier models; checked on load by scanner.nets.load_models",
        "code_version": git_commit(),
        "torch": torch.__version__,
        "recipe": recipe,
        "data": {"generator": ds.GENERATOR, "train_sheets": n_train - int(held.sum()),
                 "calibration_sheets": int(held.sum()), "eval_sheets": n_eval,
                 "train_seeds": ds.seed_range("train", n_train, args.seed),
                 "eval_seeds": ds.seed_range("eval", n_eval, args.seed),
                 "tiers": list(ds.TIERS), "corner_jitter_cells": ds.CORNER_JITTER, "data_key": key,
                 "render_seconds": round(data_seconds, 1),
                 **family_data},
        "models": {name: entries[name] for name in TASKS},
        "total_seconds": round(time.perf_counter() - t_start, 1),
    }
    (args.out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    record_probes(args.out)  # what the nets read here, checked wherever they are loaded
    log(f"wrote {args.out / MANIFEST} ({manifest['total_seconds']:.0f} s total)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
