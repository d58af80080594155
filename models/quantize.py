"""Quantize committed nets to int8 for one-core inference, calibrated on training patches only.

    python -m models.quantize --models models --nets edge --patches .cache/patches/w1 --sheets 20
        --method percentile --out DIR [--float-commit COMMIT]

Each net becomes onnxruntime's QOperator form (per-channel int8 weights, uint8 activations) except at
both ends. The first convolution stays float: with three input channels the int8 kernel is slower than
the float one (onnxruntime 1.32, AVX-512 VNNI: 4.8 of a quantized cell net's 8.9 profiled ms). Its
ReLU's output is quantized *before* the first max-pool, which then runs on uint8 in NHWC
(``com.microsoft.NhwcMaxPool``): a float max-pool outside onnxruntime's NCHWc layout costs more than
the convolution itself, and quantizing before or after a max gives the same numbers (rounding is
monotone). The pooled features and the heads stay float (:data:`HEAD_OPS`).

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
from onnx import helper
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quant_pre_process,
    quantize_static,
)

from scanner.nets import MANIFEST, MODEL_NAMES, prepare

#: The cached patches of each net (``models.dataset`` keys).
PATCH_KEY = {"cell": "cells", "coin": "coins", "edge": "edges"}
#: Nodes left in float: the first convolution and its ReLU (names as ``torch.onnx.export`` gives them).
FLOAT_NODES = ("/trunk/blocks/blocks.0/blocks.0.0/Conv", "/trunk/blocks/blocks.0/blocks.0.2/Relu")
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


def quantized_graph(source: Path, inputs: np.ndarray, *, method: str = "minmax") -> onnx.ModelProto:
    """``quantize_static``'s QOperator graph of ``source`` (float ONNX), calibrated on ``inputs``: the
    first convolution and ReLU, the pooled features and the heads left float."""
    with tempfile.TemporaryDirectory() as tmp:
        pre, q = Path(tmp) / "pre.onnx", Path(tmp) / "q.onnx"
        quant_pre_process(str(source), str(pre))
        head = [n.name for n in onnx.load(str(pre)).graph.node if n.op_type in HEAD_OPS]
        quantize_static(
            str(pre), str(q), _Batches(inputs), quant_format=QuantFormat.QOperator, per_channel=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=METHODS[method], nodes_to_exclude=[*FLOAT_NODES, *head],
        )
        return onnx.load(str(q))


def quantize_net(source: Path, target: Path, inputs: np.ndarray, *, method: str = "minmax") -> None:
    """Write ``source`` (float ONNX) quantized to ``target``, calibrated on ``inputs`` by ``method``."""
    model = pool_in_uint8(quantized_graph(source, inputs, method=method))
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=Path, required=True, help="directory of the float models and manifest")
    ap.add_argument("--nets", default="edge,coin", help="comma-separated nets to quantize")
    ap.add_argument("--patches", type=Path, required=True,
                    help="a models.dataset cache key folder (its train* folders calibrate)")
    ap.add_argument("--sheets", type=int, default=20, help="cached sheets per training folder")
    ap.add_argument("--out", type=Path, required=True, help="directory to write models and manifest to")
    ap.add_argument("--method", default="minmax", choices=sorted(METHODS),
                    help="activation ranges: min/max, or onnxruntime's 99.999th percentile or entropy")
    ap.add_argument("--float-commit", default=None, help="the commit holding the float models (recorded)")
    args = ap.parse_args(argv)
    nets = [n.strip() for n in args.nets.split(",") if n.strip()]
    if unknown := set(nets) - set(MODEL_NAMES):
        raise SystemExit(f"unknown nets: {sorted(unknown)}")
    manifest = json.loads((args.models / MANIFEST).read_text(encoding="utf-8"))
    files = calibration_files(args.patches, args.sheets)
    args.out.mkdir(parents=True, exist_ok=True)
    command = "python -m models.quantize " + shlex.join(sys.argv[1:] if argv is None else list(argv))
    for name in MODEL_NAMES:
        entry = manifest["models"][name]
        source = args.models / entry["file"]
        if name not in nets:
            if source.resolve() != (args.out / entry["file"]).resolve():
                shutil.copyfile(source, args.out / entry["file"])
            continue
        if "quantized" in entry:
            raise SystemExit(f"{source} is already quantized")
        inputs = calibration_inputs(name, entry, files)
        float_sha = hashlib.sha256(source.read_bytes()).hexdigest()
        quantize_net(source, args.out / entry["file"], inputs, method=args.method)
        entry["sha256"] = hashlib.sha256((args.out / entry["file"]).read_bytes()).hexdigest()
        entry["quantized"] = {
            "command": command,
            "format": f"onnxruntime QOperator: per-channel int8 weights, uint8 activations ({args.method} "
                      "calibration); first convolution and ReLU float, the max-pool after it in uint8 NHWC; "
                      "pooled features and heads float",
            "calibration": {"patches": f"{args.patches.name}: first {args.sheets} sheets of each train* "
                                       "folder (training split only)",
                            "sheets": len(files), "patches_count": len(inputs)},
            "float_sha256": float_sha,
            "float_commit": args.float_commit,
            "onnxruntime": _ort_version(),
        }
        print(f"{name}: {len(inputs)} patches of {len(files)} sheets -> {args.out / entry['file']}")
    (args.out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return 0


def _ort_version() -> str:
    import onnxruntime

    return str(onnxruntime.__version__)


if __name__ == "__main__":
    raise SystemExit(main())
