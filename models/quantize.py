"""Quantize committed nets to int8 for one-core inference, calibrated on training patches only.

    python -m models.quantize --models models --nets edge --patches .cache/patches/w1 --sheets 20
        --method percentile --out DIR [--float-commit COMMIT]
    python -m models.quantize --models models --nets cell,edge --pixels-in --out DIR
    python -m models.quantize --models models --nets cell,edge --fit-weights --out DIR

Each net becomes onnxruntime's QOperator form (per-channel int8 weights, uint8 activations) except at
the end: the pooled features and the heads stay float (:data:`HEAD_OPS`). The first block is built in
two steps. Calibration quantizes the graph with the first convolution left float, and its ReLU's output
quantized *before* the first max-pool, which then runs on uint8 in NHWC (``com.microsoft.NhwcMaxPool``;
quantizing before or after a max gives the same numbers, rounding being monotone): :func:`pool_in_uint8`.
Then :func:`pixels_in` makes that block int8 too, reading the white-balanced uint8 pixels in 2x2 blocks
as 12 channels. With three input channels onnxruntime's int8 convolution is slower than its float one
(1.32, AVX-512 VNNI: 3.2 of a cell net's 5.8 profiled ms), and the float one's layout changes and
quantizing cost as much again (2026-12-07: 3.2 of 5.3 ms); over 12 channels, the block takes 1.4 ms
and the float input is never built. ``--pixels-in`` applies the second step alone to nets already
quantized, keeping the rest of each net bit for bit.

Every int8 weight lies within +-:data:`WEIGHT_LIMIT` (7 bits and a sign), so a net reads the same on every
x86 processor: without VNNI (AVX2 alone, or AVX-512 without VNNI) onnxruntime multiplies uint8 by int8 with
an instruction that adds two products in 16 bits and saturates, and a paper-white pixel (255) times two
weights near 127 overflows. On such a machine (2026-12-07, an AMD EPYC with AVX2 alone) the 8-bit nets
read 72-86 % of eval cells against 88-99.8 % with VNNI, and the bundled sample was refused.
:func:`fit_weights` brings a net's weights within the limit (``--fit-weights`` for nets already
quantized); new nets are quantized within it.

Calibration: the first ``--sheets`` cached sheets (sorted by seed) of every ``train*`` folder of
``--patches`` (:mod:`models.dataset`'s cache, white-balanced like inference), never the eval split.
The manifest in ``--out`` is ``--models``' own with each quantized net's ``sha256`` and a ``quantized``
record (this command, the calibration data, the float model's SHA-256 and the commit holding it); the
other nets are copied as they are. A quantized net keeps its float net's temperature. A net retrained
later is quantized again from its float export (``models.train`` writes float nets).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quant_pre_process,
    quantize_static,
)

from scanner.nets import MANIFEST, MODEL_NAMES, prepare, record_probes

#: The cached patches of each net (``models.dataset`` keys).
PATCH_KEY = {"cell": "cells", "coin": "coins", "edge": "edges"}
#: Nodes left in float: the first convolution and its ReLU (names as ``torch.onnx.export`` gives them).
FLOAT_NODES = ("/trunk/blocks/blocks.0/blocks.0.0/Conv", "/trunk/blocks/blocks.0/blocks.0.2/Relu")
#: Side of the pixel blocks :func:`pixels_in` reads as channels; the first max-pool's size.
PIXEL_BLOCK = 2
#: The manifest's input record of a net :func:`pixels_in` rewrote (``scanner.nets`` reads ``space_to_depth``);
#: its ``mean`` and ``std`` stay, as what the first convolution's weights have folded in.
PIXEL_INPUT = {"layout": f"NHWC, each {PIXEL_BLOCK}x{PIXEL_BLOCK} block of pixels as channels",
               "dtype": "uint8", "scale": "1 (pixel levels; normalisation folded into the first convolution)",
               "space_to_depth": PIXEL_BLOCK}
#: The largest int8 weight magnitude: 255 (a uint8 input) times two weights of this size, 32,640, fits
#: the 16-bit pair sums of the uint8-by-int8 multiply that x86 processors without VNNI use (see above).
WEIGHT_LIMIT = 64
#: What a quantized net's record says of its first block, and of its whole form.
PIXELS_FORMAT = ("an int8 convolution over 2x2 blocks of white-balanced uint8 pixels (normalisation folded "
                 "in) and a uint8 max over the four pixel positions")
FORMAT = (f"onnxruntime QOperator: per-channel int8 weights within +-{WEIGHT_LIMIT}, uint8 activations "
          "({method} calibration); the "
          f"first block {PIXELS_FORMAT}; pooled features and heads float")
#: Operators left in float after the last convolution: the pooled features (the per-sheet decoding
#: compares them) and the heads; a few hundred multiplications a patch.
HEAD_OPS = ("ReduceMean", "Gemm")
#: Calibration methods (``--method``): the range of activations each quantized tensor must hold.
METHODS = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile,
           "entropy": CalibrationMethod.Entropy}
#: Patches per calibration run.
CALIBRATION_BATCH = 64


class _Batches(CalibrationDataReader):  # type: ignore[misc]  # onnxruntime ships no stubs
    def __init__(self, x: np.ndarray) -> None:
        # equal batches (the histogram calibrators stack them); the last few patches are left out
        n = max(1, len(x) // CALIBRATION_BATCH) * CALIBRATION_BATCH
        self._it: Iterator[np.ndarray] = iter(np.split(x[:n], max(1, n // CALIBRATION_BATCH)))

    def get_next(self) -> dict[str, np.ndarray] | None:
        batch = next(self._it, None)
        return None if batch is None else {"input": batch}


def calibration_files(patches: Path, sheets: int) -> list[Path]:
    """The first ``sheets`` cached sheets (by seed) of each training folder of ``patches``."""
    folders = sorted(d for d in patches.iterdir() if d.is_dir() and d.name.split("-")[0] == "train")
    if not folders:
        raise SystemExit(f"no train* folders in {patches}")
    return [f for d in folders for f in sorted(d.glob("*.npz"), key=lambda p: int(p.stem))[:sheets]]


def calibration_inputs(name: str, entry: dict[str, Any], files: Sequence[Path]) -> np.ndarray:
    """The net's prepared float inputs (N, 3, h, w) of every patch in ``files``."""
    parts = []
    for f in files:
        with np.load(f) as z:
            parts.append(z[PATCH_KEY[name]])
    h, w = entry["input"]["size"]
    mean, std = (np.asarray(entry["input"][k], np.float32) for k in ("mean", "std"))
    return prepare(np.concatenate(parts), (h, w), mean, std)


def pool_in_uint8(model: onnx.ModelProto) -> onnx.ModelProto:
    """Move the first ``QuantizeLinear`` ahead of the max-pool before it, that pool in NHWC uint8.

    ``MaxPool -> QuantizeLinear`` becomes ``QuantizeLinear -> Transpose -> NhwcMaxPool -> Transpose``;
    onnxruntime folds the second transpose into the NHWC convolution that follows.
    """
    nodes = list(model.graph.node)
    pairs = itertools.pairwise(nodes)
    found = [i for i, (a, b) in enumerate(pairs) if (a.op_type, b.op_type) == ("MaxPool", "QuantizeLinear")
             and b.input[0] == a.output[0]]
    if not found:
        raise ValueError("no MaxPool -> QuantizeLinear in the quantized graph")
    i = found[0]
    pool, quant = nodes[i], nodes[i + 1]
    x, y = pool.input[0], quant.output[0]
    attrs = {a.name: helper.get_attribute_value(a) for a in pool.attribute}
    if any(attrs.get("pads", [])) or attrs.get("ceil_mode", 0):
        raise ValueError("the first max-pool pads or rounds up; NhwcMaxPool here does neither")
    q = helper.make_node("QuantizeLinear", [x, *quant.input[1:]], [x + "_u8"], name=quant.name)
    to_nhwc = helper.make_node("Transpose", [x + "_u8"], [x + "_u8_nhwc"], perm=[0, 2, 3, 1],
                               name=pool.name + "_to_nhwc")
    nhwc_pool = helper.make_node("NhwcMaxPool", [x + "_u8_nhwc"], [y + "_nhwc"], domain="com.microsoft",
                                 name=pool.name + "_nhwc", kernel_shape=attrs["kernel_shape"],
                                 strides=attrs.get("strides", attrs["kernel_shape"]))
    to_nchw = helper.make_node("Transpose", [y + "_nhwc"], [y], perm=[0, 3, 1, 2],
                               name=pool.name + "_to_nchw")
    del model.graph.node[:]
    model.graph.node.extend([*nodes[:i], q, to_nhwc, nhwc_pool, to_nchw, *nodes[i + 2 :]])
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return model


def pixels_in(model: onnx.ModelProto, mean: np.ndarray, std: np.ndarray) -> onnx.ModelProto:
    """Rewrite the float first block of a :func:`pool_in_uint8` graph to read white-balanced uint8 pixels.

    ``Conv -> Relu -> QuantizeLinear -> Transpose -> NhwcMaxPool -> Transpose`` on normalised float input
    becomes one int8 ``QLinearConv`` over :data:`PIXEL_BLOCK` x :data:`PIXEL_BLOCK` pixel blocks read as
    channels (:func:`scanner.nets.space_to_depth`, NHWC), a max over the four pixel positions of each
    output (``NhwcMaxPool`` across channel groups) and the transposes that onnxruntime folds away. The
    normalisation by ``mean`` and ``std`` (per channel, of pixels / 255) moves into the weights and bias;
    the input's zero point is the three channel means' mean level (192 for the cell net), which the
    float net's zero padding stood for to within 3 levels a channel. The weights become per-channel
    int8; the rest of the graph is kept as it is, so only the first block's rounding changes.

    Raises
    ------
    ValueError
        When the graph does not open with that float first block (a 3x3 convolution padded by one, a 2x2
        max-pool, the ReLU quantized with zero point 0, so that clipping at zero is the ReLU).
    """
    nodes = list(model.graph.node)
    w, b, out_scale = _float_first_block(model)
    height, width = (d.dim_value // PIXEL_BLOCK for d in model.graph.input[0].type.tensor_type.shape.dim[2:])
    positions, weights, bias, zero = _block_weights(w, b, np.asarray(mean, np.float64),
                                                    np.asarray(std, np.float64))
    scale = np.maximum(np.abs(weights).reshape(len(weights), -1).max(axis=1), 1e-12) / WEIGHT_LIMIT
    outputs = len(w)
    constants = {
        "pixels_scale": np.array(1.0, np.float32), "pixels_zero": np.array(zero, np.uint8),
        "pixels_w": np.clip(np.round(weights / scale[:, None, None, None]), -WEIGHT_LIMIT,
                            WEIGHT_LIMIT).astype(np.int8),
        "pixels_w_scale": scale.astype(np.float32), "pixels_w_zero": np.zeros(len(weights), np.int8),
        "pixels_y_scale": np.array(out_scale, np.float32), "pixels_y_zero": np.array(0, np.uint8),
        "pixels_b": np.round(bias / scale).astype(np.int32),
        "pixels_groups": np.array([-1, height * width, positions, outputs], np.int64),
        "pixels_map": np.array([-1, height, width, outputs], np.int64),
    }
    rest = nodes[6:]
    used = {i for n in rest for i in n.input}
    kept = [i for i in model.graph.initializer if i.name in used]
    del model.graph.initializer[:]
    model.graph.initializer.extend([*kept, *(numpy_helper.from_array(v, k) for k, v in constants.items())])
    del model.graph.node[:]
    model.graph.node.extend([*_pixel_nodes(nodes[5].output[0], positions), *rest])
    shape = ["n", height, width, 3 * PIXEL_BLOCK * PIXEL_BLOCK]
    del model.graph.input[:]
    model.graph.input.append(helper.make_tensor_value_info("input", TensorProto.UINT8, shape))
    del model.graph.value_info[:]  # shapes inferred for the float input no longer hold
    return model


def fit_weights(model: onnx.ModelProto) -> tuple[onnx.ModelProto, int]:
    """Bring every ``QLinearConv``'s int8 weights within +-:data:`WEIGHT_LIMIT`, in place.

    Each output channel whose largest weight is beyond the limit is divided by that weight over the
    limit and rounded; its weight scale is multiplied and its int32 bias (whose scale is the input's
    times the weight's) divided alike, so the channel computes the same up to the coarser rounding.

    Returns
    -------
    The model and how many channels changed (0: it was within the limit already).
    """
    inits = {i.name: i for i in model.graph.initializer}
    changed = 0
    for node in model.graph.node:
        if node.op_type != "QLinearConv":
            continue
        stored = numpy_helper.to_array(inits[node.input[3]])
        if stored.dtype != np.int8:
            raise ValueError(f"{node.name}: weights are {stored.dtype}, not int8")
        w = stored.astype(np.int64)
        peak = np.abs(w).reshape(len(w), -1).max(axis=1)
        factor = np.maximum(peak / WEIGHT_LIMIT, 1.0)
        if not (factor > 1.0).any():
            continue
        changed += int((factor > 1.0).sum())
        scale = numpy_helper.to_array(inits[node.input[4]]).astype(np.float64)
        fitted = {
            3: np.clip(np.round(w / factor[:, None, None, None]), -WEIGHT_LIMIT,
                       WEIGHT_LIMIT).astype(np.int8),
            4: (scale * factor).astype(np.float32),
        }
        if len(node.input) > 8 and node.input[8]:
            bias = numpy_helper.to_array(inits[node.input[8]]).astype(np.float64)
            fitted[8] = np.round(bias / factor).astype(np.int32)
        for k, v in fitted.items():
            inits[node.input[k]].CopyFrom(numpy_helper.from_array(v, node.input[k]))
    return model, changed


def weight_peak(model: onnx.ModelProto) -> int:
    """The largest int8 weight magnitude of ``model``'s ``QLinearConv`` nodes (0 when it has none)."""
    inits = {i.name: i for i in model.graph.initializer}
    return max((int(np.abs(numpy_helper.to_array(inits[n.input[3]]).astype(np.int64)).max())
                for n in model.graph.node if n.op_type == "QLinearConv"), default=0)


def _float_first_block(model: onnx.ModelProto) -> tuple[np.ndarray, np.ndarray, float]:
    """The first convolution's weights and bias (float64) and its ReLU's quantization scale, checked to be
    what :func:`pixels_in` can rewrite (see there)."""
    nodes = model.graph.node
    ops = [n.op_type for n in nodes[:6]]
    if ops != ["Conv", "Relu", "QuantizeLinear", "Transpose", "NhwcMaxPool", "Transpose"]:
        raise ValueError(f"not a pool_in_uint8 graph's first block: {ops}")
    conv, quant, pool = nodes[0], nodes[2], nodes[4]
    conv_attrs = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
    pool_attrs = {a.name: helper.get_attribute_value(a) for a in pool.attribute}
    if (list(conv_attrs.get("kernel_shape", [])) != [3, 3] or list(conv_attrs.get("pads", [])) != [1] * 4
            or any(v != 1 for v in conv_attrs.get("strides", [1, 1]))
            or list(pool_attrs["kernel_shape"]) != [PIXEL_BLOCK] * 2):
        raise ValueError("the first block is not a padded 3x3 convolution and a 2x2 max-pool")
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    if int(inits[quant.input[2]]) != 0:
        raise ValueError("the first ReLU's quantized zero point is not 0: clipping would not be a ReLU")
    w, b = (inits[k].astype(np.float64) for k in conv.input[1:3])
    return w, b, float(inits[quant.input[1]])


def _pixel_nodes(output: str, positions: int) -> list[onnx.NodeProto]:
    """The rewritten first block (constants named ``pixels_*``), ending in the old block's ``output``.
    The transposes around the convolution and into the next one are those onnxruntime's NHWC rewrite
    inserts the other way round, so that both cancel."""
    conv_inputs = ["pixels_nchw", "pixels_scale", "pixels_zero", "pixels_w", "pixels_w_scale",
                   "pixels_w_zero", "pixels_y_scale", "pixels_y_zero", "pixels_b"]
    return [
        helper.make_node("Transpose", ["input"], ["pixels_nchw"], perm=[0, 3, 1, 2], name="pixels_to_nchw"),
        helper.make_node("QLinearConv", conv_inputs, ["pixels_conv"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                         name="pixels_conv"),
        helper.make_node("Transpose", ["pixels_conv"], ["pixels_conv_nhwc"], perm=[0, 2, 3, 1],
                         name="pixels_to_nhwc"),
        helper.make_node("Reshape", ["pixels_conv_nhwc", "pixels_groups"], ["pixels_grouped"],
                         name="pixels_group"),
        helper.make_node("NhwcMaxPool", ["pixels_grouped"], ["pixels_pooled"], domain="com.microsoft",
                         kernel_shape=[1, positions], strides=[1, positions], name="pixels_pool"),
        helper.make_node("Reshape", ["pixels_pooled", "pixels_map"], ["pixels_map_nhwc"],
                         name="pixels_unfold"),
        helper.make_node("Transpose", ["pixels_map_nhwc"], [output], perm=[0, 3, 1, 2], name="pixels_to_map"),
    ]


def _block_weights(
    w: np.ndarray, b: np.ndarray, mean: np.ndarray, std: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray, int]:
    """A padded 3x3 convolution ``w`` (O, 3, 3, 3), ``b`` (O,) on normalised pixels, as one on 2x2 pixel
    blocks of raw pixels less a zero point: (positions 4, weights (4 O, 12, 3, 3), bias (4 O,), zero
    point). Output ``pos * O + o`` is output ``o`` at block position ``pos`` (row-major); input
    ``(p * 2 + q) * 3 + c`` is colour ``c`` of the pixel at block row ``p``, column ``q``."""
    width, colours = w.shape[:2]
    zero = round(255.0 * float(mean.mean()))
    per_level = w / (255.0 * std)[None, :, None, None]  # normalised = (pixel - zero) / (255 std) + offset
    bias = b + (w * ((zero / 255.0 - mean) / std)[None, :, None, None]).sum(axis=(1, 2, 3))
    k = PIXEL_BLOCK
    out = np.zeros((k * k * width, k * k * colours, 3, 3))
    for a, bb, di, dj in itertools.product(range(k), range(k), (-1, 0, 1), (-1, 0, 1)):
        (ki, p), (kj, q) = divmod(a + di, k), divmod(bb + dj, k)  # block offset and place in the block
        for c in range(colours):
            out[(a * k + bb) * width:(a * k + bb + 1) * width, (p * k + q) * colours + c, ki + 1, kj + 1] = \
                per_level[:, c, di + 1, dj + 1]
    return k * k, out, np.tile(bias, k * k), zero


def quantized_graph(source: Path, inputs: np.ndarray, *, method: str = "minmax") -> onnx.ModelProto:
    """``quantize_static``'s QOperator graph of ``source`` (float ONNX), calibrated on ``inputs``: the
    first convolution and ReLU, the pooled features and the heads left float."""
    with tempfile.TemporaryDirectory() as tmp:
        pre, q = Path(tmp) / "pre.onnx", Path(tmp) / "q.onnx"
        quant_pre_process(str(source), str(pre))
        head = [n.name for n in onnx.load(str(pre)).graph.node if n.op_type in HEAD_OPS]
        quantize_static(
            str(pre), str(q), _Batches(inputs), quant_format=QuantFormat.QOperator, per_channel=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, reduce_range=True,  # WEIGHT_LIMIT
            calibrate_method=METHODS[method], nodes_to_exclude=[*FLOAT_NODES, *head],
        )
        return onnx.load(str(q))


def quantize_net(
    source: Path, target: Path, inputs: np.ndarray, entry: dict[str, Any], *, method: str = "minmax"
) -> None:
    """Write ``source`` (float ONNX, manifest ``entry``) quantized to ``target``, calibrated on ``inputs``
    by ``method``, reading pixels (:func:`pixels_in`); ``entry``'s input record is updated to match."""
    model = pool_in_uint8(quantized_graph(source, inputs, method=method))
    fitted, _ = fit_weights(pixels_in(model, entry["input"]["mean"], entry["input"]["std"]))
    _save(fitted, target, entry)


def _save(model: onnx.ModelProto, target: Path, entry: dict[str, Any]) -> None:
    """Check and write a :func:`pixels_in` graph; ``entry``'s input record and SHA-256 then describe it."""
    entry["input"].update(PIXEL_INPUT)
    _write(model, target, entry)


def _write(model: onnx.ModelProto, target: Path, entry: dict[str, Any]) -> None:
    """Check and write ``model``; ``entry``'s SHA-256 then describes it."""
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
    entry["sha256"] = hashlib.sha256(target.read_bytes()).hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=Path, required=True, help="directory of the float models and manifest")
    ap.add_argument("--nets", default="edge,coin", help="comma-separated nets to quantize")
    ap.add_argument("--patches", type=Path, default=None,
                    help="a models.dataset cache key folder (its train* folders calibrate)")
    ap.add_argument("--sheets", type=int, default=20, help="cached sheets per training folder")
    ap.add_argument("--out", type=Path, required=True, help="directory to write models and manifest to")
    ap.add_argument("--method", default="minmax", choices=sorted(METHODS),
                    help="activation ranges: min/max, or onnxruntime's 99.999th percentile or entropy")
    ap.add_argument("--float-commit", default=None, help="the commit holding the float models (recorded)")
    ap.add_argument("--pixels-in", action="store_true",
                    help="the nets are already quantized with a float first block: only rewrite that block "
                         "to read pixels (no calibration, the rest of each net kept bit for bit)")
    ap.add_argument("--fit-weights", action="store_true",
                    help="the nets are already quantized: only bring their int8 weights within "
                         f"+-{WEIGHT_LIMIT}, so they read the same on processors without VNNI")
    args = ap.parse_args(argv)
    nets = [n.strip() for n in args.nets.split(",") if n.strip()]
    if unknown := set(nets) - set(MODEL_NAMES):
        raise SystemExit(f"unknown nets: {sorted(unknown)}")
    rewrite = _rewrite if args.pixels_in else _refit if args.fit_weights else None
    if args.pixels_in and args.fit_weights:
        raise SystemExit("--pixels-in and --fit-weights are two runs")
    if args.patches is None and rewrite is None:
        raise SystemExit("--patches is needed to calibrate (or --pixels-in or --fit-weights for nets "
                         "already quantized)")
    manifest = json.loads((args.models / MANIFEST).read_text(encoding="utf-8"))
    files = [] if rewrite is not None else calibration_files(args.patches, args.sheets)
    args.out.mkdir(parents=True, exist_ok=True)
    command = "python -m models.quantize " + shlex.join(sys.argv[1:] if argv is None else list(argv))
    for name in MODEL_NAMES:
        entry = manifest["models"][name]
        source = args.models / entry["file"]
        if name not in nets:
            if source.resolve() != (args.out / entry["file"]).resolve():
                shutil.copyfile(source, args.out / entry["file"])
            continue
        if rewrite is not None:
            rewrite(source, args.out / entry["file"], entry, command)
            continue
        if "quantized" in entry:
            raise SystemExit(f"{source} is already quantized")
        inputs = calibration_inputs(name, entry, files)
        float_sha = hashlib.sha256(source.read_bytes()).hexdigest()
        quantize_net(source, args.out / entry["file"], inputs, entry, method=args.method)
        entry["quantized"] = {
            "command": command,
            "format": FORMAT.format(method=args.method),
            "calibration": {"patches": f"{args.patches.name}: first {args.sheets} sheets of each train* "
                                       "folder (training split only)",
                            "sheets": len(files), "patches_count": len(inputs)},
            "float_sha256": float_sha,
            "float_commit": args.float_commit,
            "onnxruntime": _ort_version(),
        }
        print(f"{name}: {len(inputs)} patches of {len(files)} sheets -> {args.out / entry['file']}")
    (args.out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    record_probes(args.out)  # what the nets read here, checked wherever they are loaded
    return 0


def _rewrite(source: Path, target: Path, entry: dict[str, Any], command: str) -> None:
    """:func:`pixels_in` on a committed int8 net; its record keeps how it was made and adds this step."""
    record = entry.get("quantized")
    if record is None or "space_to_depth" in entry["input"]:
        raise SystemExit(f"{source} is not an int8 net with a float first block")
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    _save(pixels_in(onnx.load(str(source)), entry["input"]["mean"], entry["input"]["std"]), target, entry)
    record["pixels_in"] = {"command": command, "int8_sha256": before, "onnxruntime": _ort_version(),
                           "format": "first block rewritten by models.quantize.pixels_in: " + PIXELS_FORMAT}
    print(f"{entry['file']}: first block reads pixels -> {target}")


def _refit(source: Path, target: Path, entry: dict[str, Any], command: str) -> None:
    """:func:`fit_weights` on a committed int8 net; its record keeps how it was made and adds this step."""
    record = entry.get("quantized")
    if record is None:
        raise SystemExit(f"{source} is not an int8 net")
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    model, changed = fit_weights(onnx.load(str(source)))
    _write(model, target, entry)
    record["fit_weights"] = {"command": command, "int8_sha256": before, "onnxruntime": _ort_version(),
                             "channels": changed,
                             "format": f"int8 weights within +-{WEIGHT_LIMIT} (models.quantize.fit_weights): "
                                       "the same reading on processors with and without VNNI"}
    print(f"{entry['file']}: {changed} channels brought within +-{WEIGHT_LIMIT} -> {target}")


def _ort_version() -> str:
    import onnxruntime

    return str(onnxruntime.__version__)


if __name__ == "__main__":
    raise SystemExit(main())
