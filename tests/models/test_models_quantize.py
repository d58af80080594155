"""models.quantize: calibration takes training sheets only; a quantized net is what the scanner loads
(manifest, SHA-256, provenance) and reads like its float net; the uint8 max-pool rewrite changes no
number. The quantizing tests need onnx (the `train` extra) and are skipped only where it is absent."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

from scanner.nets import MANIFEST, default_model_dir, load_models, pixels, prepare, softmax, space_to_depth

MODEL_DIR = default_model_dir()
#: The toy stand-in for the edge net: widths of its three conv blocks (the real one's are 12/24/32).
TOY_WIDTHS = (4, 8, 8)


def _session(model: Any) -> ort.InferenceSession:
    data = model if isinstance(model, bytes) else model.SerializeToString()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    return ort.InferenceSession(data, opts, providers=["CPUExecutionProvider"])


def _toy_edge_net(path: Path, rng: np.random.Generator) -> None:
    """A float net shaped like the exported edge net (node names as torch.onnx gives them), random weights."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, x, cin = [], [], "input", 3
    for i, width in enumerate(TOY_WIDTHS):
        w = numpy_helper.from_array(rng.normal(0, 0.4, (width, cin, 3, 3)).astype(np.float32), f"w{i}")
        b = numpy_helper.from_array(rng.normal(0, 0.1, width).astype(np.float32), f"b{i}")
        inits += [w, b]
        block = f"/trunk/blocks/blocks.{i}/blocks.{i}"
        nodes.append(helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], name=f"{block}.0/Conv",
                                      kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"], name=f"{block}.2/Relu"))
        x = f"r{i}"
        if i < len(TOY_WIDTHS) - 1:
            nodes.append(helper.make_node("MaxPool", [x], [f"p{i}"], name=f"{block}.3/MaxPool",
                                          kernel_shape=[2, 2], strides=[2, 2]))
            x = f"p{i}"
        cin = width
    nodes.append(helper.make_node("ReduceMean", [x], ["features"], name="/trunk/ReduceMean", axes=[2, 3],
                                  keepdims=0))
    inits.append(numpy_helper.from_array(rng.normal(0, 1, (2, cin)).astype(np.float32), "head_w"))
    inits.append(numpy_helper.from_array(np.zeros(2, np.float32), "head_b"))
    nodes.append(helper.make_node("Gemm", ["features", "head_w", "head_b"], ["edge"], name="/head/Gemm",
                                  transB=1))
    graph = helper.make_graph(
        nodes, "toy_edge", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 16, 32])],
        [helper.make_tensor_value_info("edge", TensorProto.FLOAT, ["N", 2]),
         helper.make_tensor_value_info("features", TensorProto.FLOAT, ["N", cin])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, str(path))


def _strips(rng: np.random.Generator, n: int) -> np.ndarray:
    """Paper-like strips with a dark line across some of them."""
    strips = rng.integers(200, 256, (n, 16, 32, 3), dtype=np.uint8)
    strips[: n // 2, 7:9] = rng.integers(20, 90, (n // 2, 2, 32, 3), dtype=np.uint8)
    return strips


@pytest.fixture()
def toy_models(tmp_path: Path) -> Path:
    """A copy of the committed models whose edge net is the toy float net (manifest updated)."""
    d = tmp_path / "float"
    d.mkdir()
    manifest = json.loads((MODEL_DIR / MANIFEST).read_text())
    for entry in manifest["models"].values():
        shutil.copy(MODEL_DIR / entry["file"], d)
    edge = manifest["models"]["edge"]
    edge.pop("quantized", None)
    _toy_edge_net(d / edge["file"], np.random.default_rng(3))
    edge["sha256"] = hashlib.sha256((d / edge["file"]).read_bytes()).hexdigest()
    (d / MANIFEST).write_text(json.dumps(manifest))
    return d


@pytest.fixture()
def patch_cache(tmp_path: Path) -> Path:
    """A models.dataset-like cache key folder: training sheets of two folders and an eval sheet."""
    root = tmp_path / "patches" / "key"
    rng = np.random.default_rng(5)
    for folder, seed in (("train", 9), ("train", 10), ("train", 100), ("train-glyph", 5), ("eval-glyph", 1)):
        (root / folder).mkdir(parents=True, exist_ok=True)
        np.savez(root / folder / f"{seed}.npz", edges=_strips(rng, 40))
    return root


def test_calibration_takes_the_first_training_sheets_by_seed(patch_cache: Path) -> None:
    quantize = pytest.importorskip("models.quantize")
    files = quantize.calibration_files(patch_cache, 2)
    # seeds in number order (9 before 10 before 100); the eval split never
    assert [f"{f.parent.name}/{f.stem}" for f in files] == ["train/9", "train/10", "train-glyph/5"]
    with pytest.raises(SystemExit, match="no train"):
        quantize.calibration_files(patch_cache / "eval-glyph", 2)


def test_uint8_max_pool_rewrite_changes_no_number(toy_models: Path, patch_cache: Path) -> None:
    quantize = pytest.importorskip("models.quantize")
    entry = json.loads((toy_models / MANIFEST).read_text())["models"]["edge"]
    files = quantize.calibration_files(patch_cache, 3)
    inputs = quantize.calibration_inputs("edge", entry, files)
    graph = quantize.quantized_graph(toy_models / "edge.onnx", inputs)
    before = _session(graph).run(None, {"input": inputs})
    rewritten = quantize.pool_in_uint8(graph)
    ops = [n.op_type for n in rewritten.graph.node]
    assert ops[:6] == ["Conv", "Relu", "QuantizeLinear", "Transpose", "NhwcMaxPool", "Transpose"]
    assert ops[-2:] == ["ReduceMean", "Gemm"]  # features and head stay float
    after = _session(rewritten).run(None, {"input": inputs})
    for a, b in zip(before, after, strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="no MaxPool"):
        quantize.pool_in_uint8(rewritten)  # nothing left to move


def _conv3x3(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, H, W, C) zero-padded 3x3 convolution by (O, C, 3, 3), plus ``b``: (N, H, W, O), float64."""
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    h, wd = x.shape[1:3]
    out: np.ndarray = np.zeros((*x.shape[:3], len(w))) + b
    for i, j in np.ndindex(3, 3):
        out += padded[:, i : i + h, j : j + wd] @ w[:, :, i, j].T
    return out


def test_block_weights_are_the_normalised_convolution_and_pool() -> None:
    """One 3x3 convolution over 2x2 pixel blocks, the max taken over each output's four positions, is the
    first block on normalised pixels: ReLU(conv) then a 2x2 max-pool, to float rounding. The means are
    equal so the zero point stands exactly for the normalised zero the padding holds."""
    quantize = pytest.importorskip("models.quantize")
    rng = np.random.default_rng(2)
    w, b = rng.normal(0, 0.5, (4, 3, 3, 3)), rng.normal(0, 0.2, 4)
    mean, std = np.full(3, 0.6), np.array([0.2, 0.15, 0.25])
    x = rng.integers(0, 256, (3, 8, 12, 3), dtype=np.uint8)
    y = np.maximum(_conv3x3((x / 255.0 - mean) / std, w, b), 0)
    want = y.reshape(3, 4, 2, 6, 2, 4).max(axis=(2, 4))
    positions, weights, bias, zero = quantize._block_weights(w, b, mean, std)
    assert (positions, weights.shape, zero) == (4, (16, 12, 3, 3), 153)
    blocks = np.maximum(_conv3x3(space_to_depth(x, 2).astype(np.float64) - zero, weights, bias), 0)
    got = blocks.reshape(3, 4, 6, positions, 4).max(axis=3)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_pixels_in_reads_uint8_blocks_like_the_float_first_block(toy_models: Path, patch_cache: Path) -> None:
    quantize = pytest.importorskip("models.quantize")
    entry = json.loads((toy_models / MANIFEST).read_text())["models"]["edge"]
    inputs = quantize.calibration_inputs("edge", entry, quantize.calibration_files(patch_cache, 3))
    graph = quantize.pool_in_uint8(quantize.quantized_graph(toy_models / "edge.onnx", inputs))
    strips = _strips(np.random.default_rng(12), 64)
    mean, std = (np.asarray(entry["input"][k], np.float32) for k in ("mean", "std"))
    before = _session(graph).run(None, {"input": prepare(strips, (16, 32), mean, std)})
    rewritten = quantize.pixels_in(graph, mean, std)
    ops = [n.op_type for n in rewritten.graph.node]
    assert "Conv" not in ops and ops[:2] == ["Transpose", "QLinearConv"]
    after = _session(rewritten).run(None, {"input": pixels(strips, (16, 32), 2)})
    assert after[0].shape == before[0].shape
    p, q = softmax(before[0]), softmax(after[0])
    assert np.abs(p - q).max() < 0.05 and (p.argmax(1) == q.argmax(1)).mean() > 0.95
    with pytest.raises(ValueError, match="pool_in_uint8"):
        quantize.pixels_in(rewritten, mean, std)  # its first block already reads pixels


def test_space_to_depth_puts_each_block_in_the_channels() -> None:
    x = np.arange(2 * 4 * 6 * 3).reshape(2, 4, 6, 3)
    got = space_to_depth(x, 2)
    assert got.shape == (2, 2, 3, 12) and got.flags.c_contiguous
    # channel (p * 2 + q) * 3 + c of block (i, j) is colour c of pixel (2 i + p, 2 j + q)
    for n, i, j, p, q, c in np.ndindex(2, 2, 3, 2, 2, 3):
        assert got[n, i, j, (p * 2 + q) * 3 + c] == x[n, 2 * i + p, 2 * j + q, c]


def test_quantized_net_is_checked_recorded_and_reads_like_its_float_net(
    toy_models: Path, patch_cache: Path, tmp_path: Path
) -> None:
    quantize = pytest.importorskip("models.quantize")
    out = tmp_path / "int8"
    argv = ["--models", str(toy_models), "--nets", "edge", "--patches", str(patch_cache), "--sheets", "2",
            "--out", str(out), "--float-commit", "abc1234"]
    assert quantize.main(argv) == 0
    manifest = json.loads((out / MANIFEST).read_text())
    edge = manifest["models"]["edge"]
    record = edge["quantized"]
    assert record["command"] == "python -m models.quantize " + " ".join(argv)
    assert record["float_sha256"] == hashlib.sha256((toy_models / "edge.onnx").read_bytes()).hexdigest()
    assert record["float_commit"] == "abc1234"
    assert record["calibration"]["sheets"] == 3 and record["calibration"]["patches_count"] == 120
    for name in ("cell", "coin"):  # the others copied as they are
        assert (out / f"{name}.onnx").read_bytes() == (toy_models / f"{name}.onnx").read_bytes()
    models = load_models(out)  # SHA-256, input shape, outputs and classes checked
    strips = _strips(np.random.default_rng(11), 64)
    x = prepare(strips, (16, 32), models.edge.mean, models.edge.std)
    q = softmax(models.edge.run(strips)[0])
    f = softmax(_session((toy_models / "edge.onnx").read_bytes()).run(None, {"input": x})[0])
    assert np.abs(q - f).max() < 0.05
    assert q[:, 1].round().tolist() == f[:, 1].round().tolist()
    with pytest.raises(SystemExit, match="already quantized"):
        quantize.main([*argv[:-4], "--out", str(tmp_path / "again"), "--models", str(out)])


def test_committed_quantized_nets_name_how_they_were_made() -> None:
    """A committed int8 net says which command, calibration data and float net made it."""
    manifest = json.loads((MODEL_DIR / MANIFEST).read_text())
    for entry in manifest["models"].values():
        record = entry.get("quantized")
        if record is None:
            continue
        assert record["command"].startswith("python -m models.quantize ")
        assert "train*" in record["calibration"]["patches"] and "eval" not in record["command"]
        assert len(record["float_sha256"]) == 64 and record["float_sha256"] != entry["sha256"]
        assert record["float_commit"]


def _eight_bit(model: Any) -> Any:
    """``model`` (int8 weights within the limit) with each ``QLinearConv``'s weights doubled, their scale
    and bias halved: the same function at 8 bits, as nets were quantized before 2026-12-07."""
    from onnx import numpy_helper

    inits = {i.name: i for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type != "QLinearConv":
            continue
        w = numpy_helper.to_array(inits[node.input[3]]).astype(np.int64)
        s = numpy_helper.to_array(inits[node.input[4]])
        b = numpy_helper.to_array(inits[node.input[8]]).astype(np.int64)
        for k, v in ((3, np.clip(w * 2, -127, 127).astype(np.int8)), (4, (s / 2).astype(np.float32)),
                     (8, (b * 2).astype(np.int32))):
            inits[node.input[k]].CopyFrom(numpy_helper.from_array(v, node.input[k]))
    return model


def test_new_nets_and_fitted_nets_keep_weights_within_the_limit(toy_models: Path, patch_cache: Path) -> None:
    quantize = pytest.importorskip("models.quantize")
    import copy

    entry = json.loads((toy_models / MANIFEST).read_text())["models"]["edge"]
    inputs = quantize.calibration_inputs("edge", entry, quantize.calibration_files(patch_cache, 3))
    graph = quantize.pool_in_uint8(quantize.quantized_graph(toy_models / "edge.onnx", inputs))
    mean, std = (np.asarray(entry["input"][k], np.float32) for k in ("mean", "std"))
    seven = quantize.pixels_in(graph, mean, std)
    assert 32 < quantize.weight_peak(seven) <= quantize.WEIGHT_LIMIT  # calibrated within, and using it
    assert 255 * 2 * quantize.WEIGHT_LIMIT <= 2**15 - 1  # a pair of products fits 16 signed bits
    eight = _eight_bit(copy.deepcopy(seven))
    assert quantize.weight_peak(eight) > quantize.WEIGHT_LIMIT
    fitted, changed = quantize.fit_weights(eight)
    assert changed > 0 and quantize.weight_peak(fitted) <= quantize.WEIGHT_LIMIT
    assert quantize.fit_weights(fitted)[1] == 0  # nothing left to fit
    strips = pixels(_strips(np.random.default_rng(13), 64), (16, 32), 2)
    p, q = (softmax(_session(m).run(None, {"input": strips})[0]) for m in (seven, fitted))
    assert np.abs(p - q).max() < 0.02


def test_fit_weights_command_records_the_step(toy_models: Path, patch_cache: Path, tmp_path: Path) -> None:
    quantize = pytest.importorskip("models.quantize")
    onnx = pytest.importorskip("onnx")
    int8 = tmp_path / "int8"
    assert quantize.main(["--models", str(toy_models), "--nets", "edge", "--patches", str(patch_cache),
                          "--sheets", "2", "--out", str(int8), "--float-commit", "abc1234"]) == 0
    onnx.save(_eight_bit(onnx.load(str(int8 / "edge.onnx"))), str(int8 / "edge.onnx"))
    manifest = json.loads((int8 / MANIFEST).read_text())
    manifest["models"]["edge"]["sha256"] = hashlib.sha256((int8 / "edge.onnx").read_bytes()).hexdigest()
    (int8 / MANIFEST).write_text(json.dumps(manifest))
    out = tmp_path / "fitted"
    assert quantize.main(["--models", str(int8), "--nets", "edge", "--fit-weights", "--out", str(out)]) == 0
    record = json.loads((out / MANIFEST).read_text())["models"]["edge"]["quantized"]
    assert record["fit_weights"]["channels"] > 0 and record["float_commit"] == "abc1234"
    assert quantize.weight_peak(onnx.load(str(out / "edge.onnx"))) <= quantize.WEIGHT_LIMIT
    load_models(out)  # the new SHA-256 recorded
    with pytest.raises(SystemExit, match="two runs"):
        quantize.main(["--models", str(int8), "--nets", "edge", "--fit-weights", "--pixels-in", "--out",
                       str(out)])


def test_committed_int8_nets_read_alike_with_and_without_vnni() -> None:
    """Weights beyond the limit overflow onnxruntime's uint8-by-int8 pair sums on processors without VNNI
    (AVX2 alone): the committed 8-bit nets read 72-86 % of eval cells there, 88-99.8 % elsewhere."""
    quantize = pytest.importorskip("models.quantize")
    onnx = pytest.importorskip("onnx")
    manifest = json.loads((MODEL_DIR / MANIFEST).read_text())
    int8 = [e["file"] for e in manifest["models"].values() if "quantized" in e]
    assert int8  # the cell and edge nets
    for name in int8:
        assert quantize.weight_peak(onnx.load(str(MODEL_DIR / name))) <= quantize.WEIGHT_LIMIT, name
