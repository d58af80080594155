"""scanner.classify: the manifest is enforced, probabilities are calibrated distributions, doubtful cells
become '?', printed cells come from the side, and the committed model reads a rendered sheet."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from models import dataset as ds
from rules.sides import printed_side
from scanner.classify import SheetReading, classify_sheet, label_cells, read_edges, read_outlines
from scanner.constants import (
    PAPER_LEVEL,
    PAPER_PERCENTILE,
    PAPER_SAMPLES,
    TERRAIN_CLASSES,
    TERRAIN_SYMBOLS,
    UNREAD_EDGE,
)
from scanner.nets import (
    PROBE_COUNT,
    PROBE_TOLERANCE,
    ModelError,
    Models,
    default_model_dir,
    load_models,
    paper_gain,
    pixels,
    prepare,
    probe_logits,
    probe_patches,
    space_to_depth,
    white_balance,
)
from scanner.sample import cell_patches, coin_patches, edge_strips

MODEL_DIR = default_model_dir()
Rendered = tuple[ds.Sample, np.ndarray, np.ndarray, dict[str, Any]]  # sample, cells, coins, edge strips


@pytest.fixture(scope="module")
def models() -> Models:
    return load_models(MODEL_DIR)


@pytest.fixture(scope="module")
def rendered() -> Rendered:
    """A synthetic scan of a random game never trained on (seed outside the training range; drawing
    styles from the training bins: the unseen-style figures are the benchmark's job), exact grid."""
    sample = ds.render(ds.SEED_BASE["bench"] + 123_456, split="train", tier="scan")
    canonical = ds.canonical_of(sample, None)
    return sample, cell_patches(canonical), coin_patches(canonical), edge_strips(canonical)._asdict()


def _copy(tmp_path: Path) -> Path:
    d = tmp_path / "models"
    d.mkdir()
    manifest = json.loads((MODEL_DIR / "manifest.json").read_text())
    shutil.copy(MODEL_DIR / "manifest.json", d)
    for entry in manifest["models"].values():
        shutil.copy(MODEL_DIR / entry["file"], d)
    return d


def _edit_manifest(d: Path, edit: Callable[[dict[str, Any]], object]) -> None:
    m = json.loads((d / "manifest.json").read_text())
    edit(m)
    (d / "manifest.json").write_text(json.dumps(m))


def test_committed_models_match_their_manifest(models: Models) -> None:
    assert models.cell.classes == TERRAIN_CLASSES
    total = sum((MODEL_DIR / e["file"]).stat().st_size for e in models.manifest["models"].values())
    assert total <= 2 * 1024 * 1024


def test_tampered_model_file_is_refused(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    with open(d / "cell.onnx", "ab") as f:
        f.write(b"\0")
    with pytest.raises(ModelError, match="does not match its manifest"):
        load_models(d)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda m: m["models"]["cell"]["classes"].reverse(), "classes"),
        (lambda m: m["models"]["coin"]["input"].update(size=[24, 24]), "input"),
        (lambda m: m["models"]["cell"]["input"].pop("space_to_depth"), "input"),  # uint8 blocks, not float
        (lambda m: m["models"]["coin"]["input"].update(space_to_depth=2), "input"),
        (lambda m: m["models"]["edge"].update(outputs=["edge"]), "outputs"),
        (lambda m: m["models"].pop("edge"), "no 'edge' model"),
    ],
)
def test_manifest_disagreeing_with_the_graph_is_refused(
    tmp_path: Path, edit: Callable[[dict[str, Any]], object], message: str
) -> None:
    d = _copy(tmp_path)
    _edit_manifest(d, edit)
    with pytest.raises(ModelError, match=message):
        load_models(d)


def _shift_probe(m: dict[str, Any], by: float) -> None:
    m["models"]["cell"]["probe"][2][0] += by


def test_a_net_computing_differently_here_is_refused(tmp_path: Path) -> None:
    """What an int8 net whose sums overflow on this processor looks like: its probe reads otherwise."""
    d = _copy(tmp_path)
    _edit_manifest(d, lambda m: _shift_probe(m, 0.8))  # the edge net's overflow missed by 0.82 (2026-12-07)
    with pytest.raises(ModelError, match="computes differently on this processor"):
        load_models(d)
    _edit_manifest(d, lambda m: _shift_probe(m, -0.8 + PROBE_TOLERANCE / 2))  # within the tolerance
    load_models(d)


def test_committed_nets_record_their_probe_and_read_it_here() -> None:
    manifest = json.loads((MODEL_DIR / "manifest.json").read_text())
    models = load_models(MODEL_DIR)
    for name in ("cell", "coin", "edge"):
        recorded = np.asarray(manifest["models"][name]["probe"])
        here = probe_logits(getattr(models, name))
        assert recorded.shape == here.shape == (PROBE_COUNT, len(getattr(models, name).classes))
        assert np.abs(recorded - here).max() <= PROBE_TOLERANCE


def test_probe_patches_are_paper_with_dark_and_coloured_marks() -> None:
    p = probe_patches((32, 32))
    assert p.shape == (PROBE_COUNT, 32, 32, 3) and p.dtype == np.uint8
    assert p is not probe_patches((32, 32)) and np.array_equal(p, probe_patches((32, 32)))
    for patch in p:  # each holds paper, ink and a colour, and no two are alike
        assert (patch == 250).all(axis=-1).mean() > 0.3 and (patch.max(axis=-1) < 80).any()
        assert (patch.max(axis=-1) - patch.min(axis=-1) > 60).any()
    assert len({patch.tobytes() for patch in p}) == PROBE_COUNT


def test_missing_manifest_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="manifest"):
        load_models(tmp_path)


def test_probabilities_are_distributions(models: Models, rendered: Rendered) -> None:
    sample, cells, coins, strips = rendered
    reading = classify_sheet(cells, sample.sheet.side, coin_patches=coins, edge_strips=strips, models=models)
    p = reading.probabilities
    assert p.shape == (11, 11, len(TERRAIN_CLASSES))
    assert np.all(p >= 0) and np.allclose(p.sum(axis=-1), 1.0, atol=1e-5)
    assert np.all((reading.confidence > 0) & (reading.confidence <= 1.0 + 1e-6))
    assert reading.outlines["horizontal"].shape == (10, 11) and reading.outlines["vertical"].shape == (11, 10)
    assert len(reading.coin_states) == 14


def test_doubtful_cells_become_unknown_and_are_listed(models: Models, rendered: Rendered) -> None:
    sample, cells, _, _ = rendered
    side = printed_side(sample.sheet.side)
    printed = side.mountains | side.wasteland
    everything = classify_sheet(cells, side.name, models=models, threshold=1.01)
    unknown = {(r, c) for r in range(11) for c in range(11) if everything.grid[r][c] == "?"}
    assert unknown == {(r, c) for r in range(11) for c in range(11)} - printed
    assert len(everything.doubtful) == len(unknown)
    none = classify_sheet(cells, side.name, models=models, threshold=0.0)
    assert "?" not in "".join(none.grid) and none.doubtful == ()


def test_printed_cells_come_from_the_side_never_the_net(models: Models) -> None:
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, (11, 11, 32, 32, 3), dtype=np.uint8)
    for name in ("A", "B", "C", "D"):
        side = printed_side(name)
        reading = classify_sheet(noise, name, models=models, threshold=0.0)
        for r in range(11):
            for c in range(11):
                expected = "^" if (r, c) in side.mountains else "-" if (r, c) in side.wasteland else None
                if expected:
                    assert reading.grid[r][c] == expected and reading.confidence[r, c] == 1.0
                else:
                    assert reading.grid[r][c] not in "^-"


def test_reads_a_rendered_scan(models: Models, rendered: Rendered) -> None:
    sample, cells, coins, strips = rendered
    reading = classify_sheet(cells, sample.sheet.side, coin_patches=coins, edge_strips=strips, models=models)
    truth = sample.sheet.rows
    drawable = [(r, c) for r in range(11) for c in range(11) if truth[r][c] not in "^-"]
    kept = [(r, c) for r, c in drawable if reading.grid[r][c] != "?"]
    right = sum(reading.grid[r][c] == truth[r][c] for r, c in kept)
    assert len(kept) >= 0.75 * len(drawable)
    assert right >= 0.97 * len(kept)
    assert (reading.coins, reading.spent) == (sample.sheet.coins, sample.sheet.spent)


@pytest.mark.parametrize("size", [(32, 32), (16, 32)])
def test_prepare_normalises_and_reorders_like_the_manifest_says(size: tuple[int, int]) -> None:
    rng = np.random.default_rng(1)
    patches = rng.integers(0, 256, (5, *size, 3), dtype=np.uint8)
    mean, std = np.array([0.7, 0.75, 0.8], np.float32), np.array([0.15, 0.14, 0.13], np.float32)
    x = prepare(patches, size, mean, std)
    expected = ((patches / 255.0 - mean) / std).transpose(0, 3, 1, 2)
    assert x.shape == (5, 3, *size) and x.dtype == np.float32 and x.flags.c_contiguous
    assert np.allclose(x, expected, atol=1e-5)


@pytest.mark.parametrize(("size", "into"), [((32, 32), (32, 32)), ((16, 32), (16, 32)), ((40, 40), (32, 32))])
def test_prepare_with_a_gain_is_balancing_first_bit_for_bit(
    size: tuple[int, int], into: tuple[int, int]
) -> None:
    rng = np.random.default_rng(2)
    patches = rng.integers(0, 256, (9, *size, 3), dtype=np.uint8)
    patches[0] = 255  # saturates where the gain is over 1
    mean, std = np.array([0.7, 0.75, 0.8], np.float32), np.array([0.15, 0.14, 0.13], np.float32)
    for gain in (np.array([1.7, 0.6, 1.1], np.float32), paper_gain(patches)):
        expected = prepare(white_balance(patches, gain=gain), into, mean, std)
        got = prepare(patches, into, mean, std, gain=gain)
        assert got.dtype == np.float32 and got.flags.c_contiguous
        assert np.array_equal(got, expected)
    empty = prepare(patches[:0], into, mean, std, gain=np.ones(3, np.float32))
    assert empty.shape == (0, 3, *into)


@pytest.mark.parametrize(("size", "into"), [((32, 32), (32, 32)), ((40, 40), (32, 32)), ((16, 32), (16, 32))])
def test_pixels_are_balanced_resized_blocks(size: tuple[int, int], into: tuple[int, int]) -> None:
    """What a net reading pixels takes: the balanced pixels, resized like ``prepare`` resizes them, in
    2x2 blocks; empty in, empty out."""
    rng = np.random.default_rng(4)
    patches = rng.integers(0, 256, (6, *size, 3), dtype=np.uint8)
    gain = np.array([1.3, 0.8, 1.05], np.float32)
    got = pixels(patches, into, 2, gain=gain)
    assert got.dtype == np.uint8 and got.shape == (6, into[0] // 2, into[1] // 2, 12)
    balanced = white_balance(patches, gain=gain)
    resized = np.stack([cv2.resize(p, into[::-1], interpolation=cv2.INTER_AREA) for p in balanced])
    assert np.array_equal(got, space_to_depth(resized, 2))
    assert pixels(patches[:0], into, 2, gain=gain).shape == (0, into[0] // 2, into[1] // 2, 12)


def test_nets_read_raw_patches_with_a_gain_as_balanced_ones(models: Models, rendered: Rendered) -> None:
    _, cells, _, strips = rendered
    gain = paper_gain(cells)
    flat = cells.reshape(-1, *cells.shape[2:])
    raw = models.cell.run(flat, gain=gain)
    balanced = models.cell.run(white_balance(flat, gain=gain))
    assert all(np.array_equal(a, b) for a, b in zip(raw, balanced, strict=True))
    edges = strips["horizontal"].reshape(-1, *strips["horizontal"].shape[-3:])
    expected = read_edges(models, white_balance(edges, gain=gain))
    assert np.array_equal(read_edges(models, edges, gain=gain), expected)


def test_one_paper_gain_balances_as_the_reference_does(rendered: Rendered) -> None:
    _, cells, coins, _ = rendered
    gain = paper_gain(cells)
    assert gain.shape == (3,) and (gain > 0).all()
    assert np.array_equal(white_balance(cells, gain=gain), white_balance(cells))
    assert np.array_equal(white_balance(coins, gain=gain), white_balance(coins, cells))
    darker = (cells // 2).astype(np.uint8)  # paper half as bright: twice the gain
    assert np.allclose(paper_gain(darker), 2 * gain, rtol=0.05)


@pytest.mark.parametrize("seed", range(6))
def test_paper_gain_takes_the_percentile_np_partition_finds(seed: int) -> None:
    rng = np.random.default_rng(seed)
    patches = rng.integers(0, 256 if seed % 2 else 40, (int(rng.integers(1, 30)), 32, 32, 3), dtype=np.uint8)
    flat = patches.reshape(-1, 3)
    sub = flat[:: max(1, len(flat) // PAPER_SAMPLES)]
    k = min(len(sub) - 1, int(len(sub) * PAPER_PERCENTILE / 100.0))
    paper = np.partition(sub, k, axis=0)[k].astype(np.float32)
    assert np.array_equal(paper_gain(patches), PAPER_LEVEL / np.maximum(paper, 16.0))
    assert np.array_equal(paper_gain(patches.astype(np.float32)), paper_gain(patches))  # any dtype


def test_outlines_of_all_strips_in_one_run_equal_one_run_per_direction(
    models: Models, rendered: Rendered
) -> None:
    _, cells, _, strips = rendered
    outlines = read_outlines(models, strips, paper_gain(cells))
    assert outlines.keys() == strips.keys()
    for key, s in strips.items():
        alone = read_edges(models, white_balance(s.reshape(-1, *s.shape[-3:]), cells))
        assert outlines[key].shape == s.shape[:2]
        assert np.array_equal(outlines[key].ravel(), alone)
    assert read_outlines(models, {}, paper_gain(cells)) == {}


@pytest.mark.parametrize("batch", [1, 7, 32])
def test_runs_of_a_few_patches_equal_one_run_of_all(models: Models, rendered: Rendered, batch: int) -> None:
    cells = white_balance(rendered[1]).reshape(-1, *rendered[1].shape[2:])
    whole = models.cell.run(cells, batch=len(cells))
    parts = models.cell.run(cells, batch=batch)
    assert [p.shape for p in parts] == [w.shape for w in whole]
    assert all(np.array_equal(p, w) for p, w in zip(parts, whole, strict=True))


def test_label_cells_writes_printed_cells_doubts_and_best_classes() -> None:
    printed = printed_side("A")
    best = np.full(121, TERRAIN_SYMBOLS.index("F"))
    unsure = np.zeros(121, dtype=bool)
    unsure[0] = True  # A1 doubtful
    mountain = min(printed.mountains)
    confidence = np.full(121, 0.5)
    rows, doubtful = label_cells(best, unsure, printed, confidence)
    assert doubtful == ("A1",) and rows[0][0] == "?" and rows[0][1] == "F"
    assert rows[mountain[0]][mountain[1]] == "^" and confidence[mountain[0] * 11 + mountain[1]] == 1.0
    assert confidence[1] == 0.5 and len(rows) == 11 and all(len(row) == 11 for row in rows)


def test_pooling_temperature_comes_from_the_manifest(models: Models, rendered: Rendered) -> None:
    """A manifest's ``temperature.adapt`` is the look-alike pooling's temperature (models.fit_decode):
    a hotter one leaves the pooled cells less sure, and without pooling it changes nothing."""
    from models.fit_decode import with_adapt

    sample, cells, _coins, _strips = rendered
    cool = classify_sheet(cells, sample.sheet.side, models=with_adapt(models, 0.7))
    hot = classify_sheet(cells, sample.sheet.side, models=with_adapt(models, 3.0))
    assert hot.probabilities.max(axis=-1).mean() < cool.probabilities.max(axis=-1).mean()
    plain = [classify_sheet(cells, sample.sheet.side, models=with_adapt(models, t), adapt=False)
             for t in (0.7, 3.0)]
    np.testing.assert_array_equal(plain[0].probabilities, plain[1].probabilities)


def test_fit_decode_scores_calibration_and_coverage() -> None:
    from models.fit_decode import choose, coverage, nll

    truth = np.array([0, 1, 1, 2])
    sure = np.eye(3)[truth] * 0.98 + 0.01
    assert nll(sure, truth) < nll(np.full((4, 3), 1 / 3), truth)
    probs = np.array([[0.99, 0.01, 0], [0.97, 0.03, 0], [0.5, 0.5, 0], [0, 0.04, 0.96]])
    kept, wrong = coverage(probs, truth, 0.95)  # keeps cells 0, 1 (wrong) and 3
    assert (kept, wrong) == (0.75, 0.25)
    # the most cells kept within the wrong-share target; none within it: the hottest (most doubtful)
    scores = {0.8: (0.1, 0.95, 0.004), 1.0: (0.12, 0.9, 0.002), 1.2: (0.15, 0.8, 0.001)}
    assert choose(scores, 0.002) == 1.0 and choose(scores, 0.0005) == 1.2 and choose(scores, 0.01) == 0.8


def test_fit_decode_refuses_unknown_families(capsys: pytest.CaptureFixture[str]) -> None:
    """A leave-one-family-out fit names its families; a misspelt one stops before any sheet is read."""
    from models.fit_decode import main

    with pytest.raises(SystemExit):
        main(["models", "--families", "graphite,pencil"])
    assert "unknown families: pencil" in capsys.readouterr().err


def test_fit_decode_never_fits_on_a_held_out_family(capsys: pytest.CaptureFixture[str]) -> None:
    """The sketch family judges nets no one tuned to it: asked for, it stops before any sheet is read,
    and the default families leave it out."""
    from models.fit_decode import main

    with pytest.raises(SystemExit):
        main(["models", "--families", "graphite,sketch"])
    assert "sketch is held out" in capsys.readouterr().err
    from models.synth.style import ALL_FAMILIES, HELD_OUT_FAMILIES
    from models.synth.style import TRAINABLE_FAMILIES as FIT_FAMILIES  # fit_decode's default families

    assert set(FIT_FAMILIES) == set(ALL_FAMILIES) - set(HELD_OUT_FAMILIES) and "sketch" not in FIT_FAMILIES


def test_log_prior_shift_lowers_its_class(tmp_path: Path, rendered: Rendered) -> None:
    """``log_prior_shift`` (a repeated class's prior undone) is added to the tempered logits."""
    from scanner.classify import classify_cells
    from scanner.nets import white_balance

    hero = TERRAIN_CLASSES.index("hero")
    dirs = []
    for name, offset in (("plain", 0.0), ("shifted", -2.0)):
        (tmp_path / name).mkdir()
        d = _copy(tmp_path / name)
        shift = [0.0] * len(TERRAIN_CLASSES)
        shift[hero] = offset
        def set_shift(m: dict[str, Any], s: list[float] = shift) -> None:
            m["models"]["cell"]["log_prior_shift"] = {"terrain": s}

        _edit_manifest(d, set_shift)
        dirs.append(d)
    cells = white_balance(rendered[1])
    plain, shifted = (classify_cells(load_models(d), cells)[0] for d in dirs)
    odds = np.log(shifted[:, hero] / shifted[:, 0]) - np.log(plain[:, hero] / plain[:, 0])
    np.testing.assert_allclose(odds, -2.0, atol=1e-4)


def test_a_ruins_head_reads_the_ruins_cells_alone(tmp_path: Path, rendered: Rendered) -> None:
    """``ruins_head`` (models.ruins_head) replaces the net's reading of the printed ruins cells and of
    no other; without ruins given, or without a head, the net's own head reads them."""
    from scanner.classify import classify_cells

    d = _copy(tmp_path)
    features = load_models(d).cell.run(white_balance(rendered[1]).reshape(-1, 32, 32, 3)[:1])[2]
    weight = np.zeros((len(TERRAIN_CLASSES), features.shape[1]))
    bias = np.full(len(TERRAIN_CLASSES), -5.0)
    bias[TERRAIN_CLASSES.index("water")] = 5.0  # reads every ruin as water, surely

    def set_head(m: dict[str, Any]) -> None:
        m["models"]["cell"]["ruins_head"] = {"weight": weight.tolist(), "bias": bias.tolist(),
                                             "temperature": 1.0}

    _edit_manifest(d, lambda m: m["models"]["cell"].pop("ruins_head", None))
    plain = load_models(d)
    assert plain.cell.ruins_head is None
    _edit_manifest(d, set_head)
    headed = load_models(d)
    cells = white_balance(rendered[1])
    ruins = np.zeros(121, bool)
    ruins[[3, 50]] = True
    own, _, _ = classify_cells(plain, cells, ruins=ruins)
    read, _, _ = classify_cells(headed, cells, ruins=ruins)
    np.testing.assert_array_equal(read[~ruins], own[~ruins])
    assert (read[ruins].argmax(axis=1) == TERRAIN_CLASSES.index("water")).all()
    assert read[ruins].max(axis=1).min() > 0.99
    np.testing.assert_array_equal(classify_cells(headed, cells)[0], own)


@pytest.mark.parametrize(
    ("head", "message"),
    [({"weight": [[0.0]], "bias": [0.0], "temperature": 1.0}, "ruins head has weight"),
     ({"weight": [[0.0] * 64] * 8, "temperature": 1.0}, "ruins head is unreadable")],
)
def test_a_malformed_ruins_head_is_refused(tmp_path: Path, head: dict[str, Any], message: str) -> None:
    d = _copy(tmp_path)
    _edit_manifest(d, lambda m: m["models"]["cell"].update(ruins_head=head))
    with pytest.raises(ModelError, match=message):
        load_models(d)


def test_ruins_head_fit_learns_a_separable_labelling_and_a_temperature() -> None:
    from models.ruins_head import fit_head, fit_temperature, head_logits

    rng = np.random.default_rng(0)
    labels = rng.integers(0, 3, 600)
    centres = np.array([[4.0, 0, 0, 1], [0, 4.0, 0, 1], [0, 0, 4.0, 1]])
    features = centres[labels] + rng.normal(0, 1.0, (600, 4)) + 10.0  # far from the origin: bias matters
    weight, bias = fit_head(features, labels, 3)
    assert weight.shape == (3, 4) and bias.shape == (3,)
    assert np.mean(head_logits(features, weight, bias).argmax(axis=1) == labels) > 0.95
    # labels drawn from softmax(logits / 2): the temperature found is about 2
    from scanner.nets import softmax

    logits = rng.normal(0, 3.0, (4000, 3))
    drawn = np.array([rng.choice(3, p=q) for q in softmax(logits, 2.0)])
    assert 1.7 < fit_temperature(logits, drawn) < 2.4


def test_ruins_head_fits_only_on_the_nets_own_families(capsys: pytest.CaptureFixture[str]) -> None:
    from models.ruins_head import main

    with pytest.raises(SystemExit):
        main(["models", "--patches", "nowhere", "--families", "graphite,sketch"])
    assert "sketch is held out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["models", "--patches", "nowhere"])
    assert "no such patch caches" in capsys.readouterr().err


def test_reading_only_the_strips_the_pieces_need_reads_the_sheet_as_all_strips(
    models: Models, rendered: Rendered, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scanner.classify as classify

    _, cells, coins, strips = rendered
    side = rendered[0].sheet.side
    sent: list[int] = []
    real = classify.read_edges

    def counted(m: Models, s: np.ndarray, *, gain: np.ndarray | None = None) -> np.ndarray:
        sent.append(len(s))
        return real(m, s, gain=gain)

    monkeypatch.setattr(classify, "read_edges", counted)
    def reading(every_edge: bool) -> SheetReading:
        return classify_sheet(cells, side, coin_patches=coins, edge_strips=strips, models=models,
                              every_edge=every_edge)

    every = reading(True)
    assert sent == [220]
    some = reading(False)
    assert sum(sent[1:]) < 200  # printed cells' edges and many between empty cells left out
    for name in ("grid", "doubtful", "stars", "coin_states", "doubtful_coins", "groups"):
        assert getattr(some, name) == getattr(every, name)
    for name in ("probabilities", "confidence", "star_probability", "coin_confidence"):
        assert np.array_equal(getattr(some, name), getattr(every, name))
    for key, outline in some.outlines.items():
        read = outline != UNREAD_EDGE
        assert np.array_equal(outline[read], every.outlines[key][read])
