"""The ONNX models: load them, check them against their manifest, and prepare their inputs.

The models and their manifest live in ``models/``; :func:`load_models` checks every file against the
manifest (SHA-256, input shape, outputs, class order, and the logits each net gave on a probe where it
was made) and raises :class:`ModelError` on any mismatch.
Inference uses onnxruntime only, never torch. :mod:`scanner.classify` reads a sheet with them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnxruntime as ort

from scanner.constants import (
    COIN_CLASSES,
    EDGE_CLASSES,
    NET_BATCH,
    PAPER_LEVEL,
    PAPER_PERCENTILE,
    PAPER_SAMPLES,
    TERRAIN_CLASSES,
)
from scanner.numeric import byte_rank

__all__ = [
    "MANIFEST",
    "Model",
    "ModelError",
    "Models",
    "default_model_dir",
    "default_models",
    "load_models",
    "paper_gain",
    "pixels",
    "prepare",
    "probe_logits",
    "probe_patches",
    "record_probes",
    "softmax",
    "space_to_depth",
    "white_balance",
]

MANIFEST = "manifest.json"
MODEL_NAMES = ("cell", "coin", "edge")
#: Patches of the probe each net reads at load (:func:`probe_patches`).
PROBE_COUNT = 6
#: The largest gap in logits between a net's probe reading here and the one its manifest recorded. Float
#: kernels differ by about 1e-5, int8 ones by a rounding of an activation at most; an int8 net whose sums
#: overflow on this processor (2026-12-07: the 8-bit nets on AVX2 without VNNI) missed by 0.82 and 3.9.
PROBE_TOLERANCE = 0.25


class ModelError(ValueError):
    """The model files do not match their manifest (or are missing), or compute differently here."""


@dataclass(frozen=True)
class RuinsHead:
    """A linear terrain head over a cell net's pooled features, for the printed ruins cells."""

    weight: np.ndarray  # (C, D)
    bias: np.ndarray  # (C,)
    temperature: float

    def logits(self, features: np.ndarray) -> np.ndarray:
        """(N, C) logits of features (N, D), before the temperature."""
        out: np.ndarray = features @ self.weight.T + self.bias
        return out

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, C) calibrated probabilities of features (N, D)."""
        return softmax(self.logits(features), self.temperature)


@dataclass(frozen=True)
class Model:
    """One ONNX model with its manifest entry."""

    name: str
    session: ort.InferenceSession
    input_size: tuple[int, int]
    mean: np.ndarray
    std: np.ndarray
    classes: tuple[str, ...]
    temperature: dict[str, float]
    entry: Mapping[str, Any]
    #: Per head, log-probability offsets added after the temperature: training that showed some classes
    #: more often than they occur (``--rare-repeat``) raised the net's prior for them by that log-ratio.
    prior_shift: Mapping[str, np.ndarray] = field(default_factory=dict)
    #: 1: the net takes normalised float NCHW (:func:`prepare`); 2: white-balanced uint8 pixels, each 2x2
    #: block of them as channels (:func:`pixels`), its normalisation folded into its first convolution.
    block: int = 1
    #: The cell net's own head for the printed ruins cells (:mod:`models.ruins_head`): weight (C, D),
    #: bias (C,) over the ``features`` output, and its temperature; None when the manifest has none.
    ruins_head: RuinsHead | None = None

    def run(
        self, patches: np.ndarray, *, batch: int = NET_BATCH, gain: np.ndarray | None = None
    ) -> list[np.ndarray]:
        """Raw ONNX outputs for BGR ``uint8`` patches ``(N, h, w, 3)``, ``batch`` patches per run.

        With ``gain`` (a sheet's :func:`paper_gain`) the patches are raw and white-balanced on the way
        in: the same outputs as ``run(white_balance(patches, gain=gain))`` (see :func:`prepare`).
        """
        x = (pixels(patches, self.input_size, self.block, gain=gain) if self.block > 1
             else prepare(patches, self.input_size, self.mean, self.std, gain=gain))
        if len(x) <= batch:
            return list(self.session.run(None, {"input": x}))
        runs = [self.session.run(None, {"input": x[i : i + batch]}) for i in range(0, len(x), batch)]
        return [np.concatenate(outputs) for outputs in zip(*runs, strict=True)]


@dataclass(frozen=True)
class Models:
    """The three checked models: ``cell``, ``coin``, ``edge``."""

    cell: Model
    coin: Model
    edge: Model
    manifest: Mapping[str, Any]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def default_model_dir() -> Path:
    return Path(str(resources.files("models")))


def load_models(directory: str | Path | None = None, *, threads: int = 1, probes: bool = True) -> Models:
    """Load the ONNX models of ``directory`` (default: the installed ``models`` package), checked;
    ``probes=False`` skips the probe check (:func:`record_probes`, which records them anew).

    Raises
    ------
    ModelError
        When the manifest is missing or unreadable, a file is missing, its SHA-256 differs, the
        graph's input shape or output count disagrees with the manifest, or a net reads its recorded
        probe (:func:`probe_patches`) otherwise than where it was made.
    """
    d = Path(directory) if directory is not None else default_model_dir()
    try:
        manifest = json.loads((d / MANIFEST).read_text(encoding="utf-8"))
        entries = manifest["models"]
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot read the model manifest {d / MANIFEST}: {exc}") from None
    ort.disable_telemetry_events()  # onnxruntime queues a usage event per session unless told not to
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    loaded = {}
    for name in MODEL_NAMES:
        if name not in entries:
            raise ModelError(f"the model manifest has no '{name}' model")
        loaded[name] = _load_one(d, name, entries[name], opts, probes=probes)
    return Models(manifest=manifest, **loaded)


def _load_one(
    d: Path, name: str, entry: Mapping[str, Any], opts: ort.SessionOptions, *, probes: bool
) -> Model:
    path = d / entry["file"]
    if not path.is_file():
        raise ModelError(f"model file {path} is missing")
    digest = _sha256(path)
    if digest != entry["sha256"]:
        raise ModelError(f"model file {path.name} does not match its manifest (SHA-256 {digest[:12]}…)")
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    given = session.get_inputs()[0]
    h, w = entry["input"]["size"]
    block = int(entry["input"].get("space_to_depth", 1))
    want, kind = ([3, h, w], "tensor(float)") if block == 1 else ([h // block, w // block, 3 * block * block],
                                                                    "tensor(uint8)")
    if list(given.shape[1:]) != want or given.type != kind:
        raise ModelError(f"model {path.name} takes input {given.type} {given.shape}, the manifest says "
                         f"{kind} (N, {', '.join(map(str, want))})")
    outputs = [o.name for o in session.get_outputs()]
    if outputs != list(entry["outputs"]):
        raise ModelError(f"model {path.name} has outputs {outputs}, the manifest says {entry['outputs']}")
    classes = tuple(entry["classes"])
    expected = _expected_classes(name)
    if classes != expected:
        raise ModelError(f"model {path.name} has classes {classes}, this scanner expects {expected}")
    model = Model(
        name=name,
        session=session,
        input_size=(h, w),
        mean=np.asarray(entry["input"]["mean"], np.float32),
        std=np.asarray(entry["input"]["std"], np.float32),
        classes=classes,
        temperature={k: float(v) for k, v in entry["temperature"].items()},
        entry=entry,
        prior_shift={k: np.asarray(v, np.float64) for k, v in entry.get("log_prior_shift", {}).items()},
        block=block,
        ruins_head=_ruins_head(path.name, entry, len(classes)),
    )
    if probes and "probe" in entry:
        gap = float(np.abs(probe_logits(model) - np.asarray(entry["probe"], np.float32)).max())
        if not gap <= PROBE_TOLERANCE:
            raise ModelError(f"model {path.name} computes differently on this processor than where it was "
                             f"made (its probe's logits differ by {gap:.3g}); please report it")
    return model


def _ruins_head(name: str, entry: Mapping[str, Any], classes: int) -> RuinsHead | None:
    given = entry.get("ruins_head")
    if given is None:
        return None
    try:
        head = RuinsHead(np.asarray(given["weight"], np.float64), np.asarray(given["bias"], np.float64),
                         float(given["temperature"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"model {name}: the manifest's ruins head is unreadable ({exc})") from None
    if head.weight.ndim != 2 or head.weight.shape[0] != classes or head.bias.shape != (classes,):
        raise ModelError(f"model {name}: the manifest's ruins head has weight {head.weight.shape} and bias "
                         f"{head.bias.shape}, its classes are {classes}")
    return head


#: The probe's fills (BGR): green, red, blue, yellow, purple, orange, as players colour terrains.
_PROBE_COLOURS = ((60, 170, 50), (50, 40, 200), (190, 90, 40), (40, 200, 220), (150, 50, 130), (30, 130, 240))


def probe_patches(size: tuple[int, int], count: int = PROBE_COUNT) -> np.ndarray:
    """``count`` BGR uint8 patches ``(count, h, w, 3)`` drawn by formula (no random generator, so the
    same on every machine and version): white paper with dark strokes, rings and coloured fills, the
    paper-white pixels beside dark ones that make an int8 net's sums largest."""
    h, w = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    out = np.full((count, h, w, 3), 250.0)
    for k in range(count):
        stroke = np.abs(np.sin(0.37 * (k + 1)) * (xx - w / 2) + np.cos(0.37 * (k + 1)) * (yy - h / 2)) < 1.2
        ring = np.abs(np.hypot(yy - h * (0.3 + 0.07 * k), xx - w * (0.6 - 0.05 * k)) - 3.0 - k) < 1.0
        fill = (yy + xx * (k % 3)) % (7 + k) < 3
        out[k][fill] = _PROBE_COLOURS[k % len(_PROBE_COLOURS)]
        out[k][stroke | ring] = 30.0 + 8 * k
    return out.astype(np.uint8)


def probe_logits(model: Model) -> np.ndarray:
    """``model``'s first output (its logits) on :func:`probe_patches`, float32; a manifest records it as
    ``probe`` so that :func:`load_models` can check that this machine computes the same."""
    return np.asarray(model.run(probe_patches(model.input_size))[0], np.float32)


def record_probes(directory: str | Path) -> None:
    """Record each net's :func:`probe_logits` in ``directory``'s manifest (after a net is made or
    changed; the SHA-256 of the files stay, the manifest's changes)."""
    path = Path(directory) / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    models = load_models(directory, probes=False)  # a stale probe must not refuse the net it is for
    for name in MODEL_NAMES:
        logits = probe_logits(getattr(models, name))
        manifest["models"][name]["probe"] = [[round(float(v), 4) for v in row] for row in logits]
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def _expected_classes(name: str) -> tuple[str, ...]:
    return {"cell": TERRAIN_CLASSES, "coin": COIN_CLASSES, "edge": EDGE_CLASSES}[name]


@cache
def default_models() -> Models:
    """The installed models, loaded and checked once per process."""
    return load_models()


def paper_gain(reference: np.ndarray) -> np.ndarray:
    """Per-channel gains (3,) float32 that map a sheet's paper to :data:`PAPER_LEVEL`.

    Parameters
    ----------
    reference : ndarray, uint8, shape (..., h, w, 3)
        Patches to estimate the paper from (a sheet's cell patches).
    """
    ref = reference.reshape(-1, 3)
    sub = ref[:: max(1, len(ref) // PAPER_SAMPLES)]  # a regular subsample estimates the percentile as well
    k = min(len(sub) - 1, int(len(sub) * PAPER_PERCENTILE / 100.0))
    if sub.dtype == np.uint8:
        # each channel's k-th smallest value from its histogram: what np.partition finds, 5x faster
        paper = np.array([byte_rank(sub[:, c], k) for c in range(3)], np.float32)
    else:
        paper = np.partition(sub, k, axis=0)[k].astype(np.float32)
    return np.asarray(PAPER_LEVEL / np.maximum(paper, 16.0))


def white_balance(
    patches: np.ndarray, reference: np.ndarray | None = None, *, gain: np.ndarray | None = None
) -> np.ndarray:
    """Scale each colour channel so the sheet's paper maps to :data:`PAPER_LEVEL`.

    Parameters
    ----------
    patches : ndarray, uint8, shape (..., h, w, 3)
    reference : ndarray, optional
        Patches to estimate the paper from (default: ``patches``); pass a sheet's cell patches to
        balance its coin and edge patches the same way.
    gain : ndarray (3,), optional
        The sheet's :func:`paper_gain`, when already estimated (``reference`` is then not looked at).
    """
    if gain is None:
        gain = paper_gain(patches if reference is None else reference)
    flat = np.ascontiguousarray(patches).reshape(-1, patches.shape[-2], 3)
    scale = (float(gain[0]), float(gain[1]), float(gain[2]), 0.0)
    out = cv2.multiply(flat, scale, dtype=cv2.CV_8U)  # type: ignore[call-overload]
    return np.asarray(out).reshape(patches.shape)


def prepare(
    patches: np.ndarray, size: tuple[int, int], mean: np.ndarray, std: np.ndarray, *,
    gain: np.ndarray | None = None,
) -> np.ndarray:
    """BGR ``uint8`` patches ``(N, h, w, 3)`` -> normalised float32 ``(N, 3, H, W)`` for the nets.

    ``gain`` (3,), optional: the patches are raw and white-balanced by it on the way in, bit for bit
    ``prepare(white_balance(patches, gain=gain), ...)``, through one look-up table of the 256 byte
    values per channel (2.3x faster than balancing and then normalising a sheet's cells).
    """
    h, w = size
    n = patches.shape[0]
    if gain is not None and n:
        if patches.shape[1:3] == (h, w):
            return _look_up(patches, _input_table(gain, mean, std))
        patches = white_balance(patches, gain=gain)  # a resize works on the balanced pixels
    patches = _resized(patches, size)
    # One pass that scales, shifts and reorders to NCHW: 8x faster than the textbook expression, which
    # took a quarter of the 121-cell inference time.
    out = np.empty((patches.shape[0], 3, h, w), np.float32)
    m, sd = np.asarray(mean, np.float32), np.asarray(std, np.float32)
    scale = (1.0 / (255.0 * sd)).astype(np.float32)[None, :, None, None]
    shift = (-m / sd).astype(np.float32)[None, :, None, None]
    np.multiply(patches.transpose(0, 3, 1, 2), scale, out=out, casting="unsafe")
    out += shift
    return out


def space_to_depth(patches: np.ndarray, block: int) -> np.ndarray:
    """(N, h, w, 3) -> (N, h/block, w/block, 3 block²): each block of pixels as channels, ordered by the
    pixel's row in the block, then its column, then its colour channel.

    A 3x3 convolution and 2x2 max-pool over the three colour channels of a patch is then one 3x3
    convolution over 12 channels (with four times the outputs) and a max over the four pixel positions,
    which onnxruntime's int8 kernels run far faster than the three-channel one (``models.quantize``).
    """
    n, h, w, c = patches.shape
    blocks = patches.reshape(n, h // block, block, w // block, block, c).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(blocks).reshape(n, h // block, w // block, block * block * c)


def pixels(
    patches: np.ndarray, size: tuple[int, int], block: int, *, gain: np.ndarray | None = None
) -> np.ndarray:
    """BGR ``uint8`` patches ``(N, h, w, 3)`` -> the uint8 input of a net that reads pixels in blocks:
    white-balanced by ``gain`` when given, resized to ``size``, then :func:`space_to_depth`."""
    if gain is not None and len(patches):
        patches = white_balance(patches, gain=gain)
    return space_to_depth(_resized(patches, size), block)


def _resized(patches: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(N, h, w, 3) patches at ``size`` (height, width), by area interpolation where they differ."""
    h, w = size
    if patches.shape[1:3] == (h, w):
        return patches
    if not len(patches):
        return np.zeros((0, h, w, 3), np.uint8)
    return np.stack([cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA) for p in patches])


#: Every byte value in each of the three channels, (1, 1, 256, 3): what :func:`_input_table`
#: balances and normalises once, to look each pixel up in.
_LEVELS = np.repeat(np.arange(256, dtype=np.uint8)[None, None, :, None], 3, axis=3)


def _input_table(gain: np.ndarray, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    """(3, 1, 256) float32: each byte value of each channel, white-balanced by ``gain`` and normalised,
    by :func:`white_balance` and :func:`prepare` themselves."""
    table: np.ndarray = prepare(white_balance(_LEVELS, gain=gain), (1, 256), mean, std)[0]
    return table


def _look_up(patches: np.ndarray, table: np.ndarray) -> np.ndarray:
    """(N, h, w, 3) uint8 patches -> (N, 3, h, w) float32, each pixel's value in its channel's row of
    :func:`_input_table`."""
    n, h, w = patches.shape[:3]
    planes = cv2.split(np.ascontiguousarray(patches).reshape(n * h, w, 3))
    out = np.empty((n, 3, h * w), np.float32)
    for c in range(3):  # straight into the channel's rows of the output (OpenCV writes a strided view)
        got = cv2.LUT(planes[c].reshape(n, h * w), table[c], dst=out[:, c])
        if not np.shares_memory(got, out):  # an OpenCV that made a new array instead
            out[:, c] = got
    return out.reshape(n, 3, h, w)


def softmax(logits: np.ndarray, temperature: float = 1.0, shift: np.ndarray | None = None) -> np.ndarray:
    z = logits / temperature
    if shift is not None:
        z = z + shift
    # in place from here: the same operations without a new array each
    z -= z.max(axis=-1, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=-1, keepdims=True)
    return z
