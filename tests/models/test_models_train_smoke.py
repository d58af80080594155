"""The training recipe end to end at toy size: render, train one epoch, calibrate, export ONNX, write a
manifest that scanner.classify accepts and uses; then finish a "stopped" run from its checkpoint.
Skipped only where torch (the `train` extra) is absent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from models import train
from models.net import CoinNet
from scanner.classify import classify_sheet
from scanner.constants import COIN_CLASSES, TERRAIN_CLASSES
from scanner.nets import load_models, prepare


def _committed_models(tmp_path: Path) -> Path:
    """A copy of the committed models (manifest and the three nets) to train some of them anew in."""
    out = tmp_path / "models"
    out.mkdir()
    committed = Path(train.__file__).parent
    for name in ("manifest.json", "cell.onnx", "coin.onnx", "edge.onnx"):
        (out / name).write_bytes((committed / name).read_bytes())
    return out


def test_tiny_training_exports_checked_models(tmp_path: Path) -> None:
    out = tmp_path / "models"
    code = train.main(["--out", str(out), "--cells", "360", "--eval-cells", "120", "--epochs", "1",
                       "--threads", "1", "--cache", str(tmp_path / "cache")])
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    for name in ("cell", "coin", "edge"):
        entry = manifest["models"][name]
        assert (out / entry["file"]).is_file()
        assert entry["train_size"] > 0 and entry["temperature"]
        assert all(0.0 <= v <= 1.0 for v in entry["eval_accuracy"].values() if v is not None)
    assert manifest["data"]["train_seeds"][0] != manifest["data"]["eval_seeds"][0]
    models = load_models(out)
    rng = np.random.default_rng(1)
    reading = classify_sheet(rng.integers(0, 256, (11, 11, 32, 32, 3), dtype=np.uint8), "A", models=models)
    assert np.allclose(reading.probabilities.sum(axis=-1), 1.0, atol=1e-5)
    # The cache makes a second run reuse the rendered samples.
    assert any((tmp_path / "cache").rglob("*.npz"))

    # A stopped run finished from its cell checkpoint keeps the other nets and the recipe that made them.
    first = json.loads((out / "manifest.json").read_text())
    assert train.main(["--out", str(out), "--cells", "360", "--eval-cells", "120", "--epochs", "3",
                       "--threads", "1", "--cache", str(tmp_path / "cache"), "--only", "cell",
                       "--resume", str(out / "cell.pt")]) == 0
    second = json.loads((out / "manifest.json").read_text())
    cell = second["models"]["cell"]
    assert (cell["stopped_after_epoch"], cell["of_epochs"], cell["train_seconds"]) == (1, 3, None)
    assert "--resume" in cell["recipe"]["command"]
    for name in ("coin", "edge"):
        assert second["models"][name]["sha256"] == first["models"][name]["sha256"]
        assert second["models"][name]["recipe"] == first["recipe"]
    load_models(out)


def test_family_training_leaves_one_family_out_and_calibrates_on_held_out_designs(tmp_path: Path) -> None:
    out = _committed_models(tmp_path)
    assert train.main(["--out", str(out), "--only", "cell", "--families", "graphite,glyph,color",
                       "--without", "color", "--family-sheets", "1", "--glyph-factor", "1",
                       "--calibrate-on", "eval", "--calibration-sheets", "1", "--eval-sheets", "1",
                       "--epochs", "1", "--threads", "1", "--shape-aug", "--fade-aug",
                       "--cache", str(tmp_path / "cache")]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["data"]["families"] == {"graphite": 1, "glyph": 1}
    assert manifest["data"]["without"] == "color" and manifest["data"]["shape_augmentation"]
    assert manifest["data"]["fade_augmentation"]
    assert manifest["data"]["calibration"].startswith("eval split")
    folders = {p.name for p in (tmp_path / "cache").glob("*/*")}
    assert folders == {"train-graphite", "train-glyph", "eval-graphite", "eval-glyph"}
    load_models(out)

    # A second sitting starts from the first's weights, adds default-split sheets and names both recipes.
    first = out.parent / "first"
    first.mkdir()
    for name in ("manifest.json", "cell.pt"):
        (first / name).write_bytes((out / name).read_bytes())
    assert train.main(["--out", str(out), "--only", "cell", "--families", "graphite,glyph",
                       "--family-sheets", "1", "--glyph-factor", "1", "--default-sheets", "1",
                       "--rare-repeat", "3", "--init", str(first / "cell.pt"), "--lr", "1e-3",
                       "--calibrate-on", "eval", "--calibration-sheets", "1", "--eval-sheets", "1",
                       "--epochs", "1", "--threads", "1", "--cache", str(tmp_path / "cache")]) == 0
    second = json.loads((out / "manifest.json").read_text())
    cell = second["models"]["cell"]
    assert cell["started_from"]["recipe"]["command"] == manifest["models"]["cell"]["recipe"]["command"]
    assert cell["recipe"]["lr"] == 1e-3 and cell["recipe"]["rare_repeat"] == 3
    assert second["data"]["default_split_sheets"] == 1
    assert "train" in {p.name for p in (tmp_path / "cache").glob("*/*")}
    load_models(out)


def test_a_wider_coin_net_trained_alone_carries_its_crossed_repeat_correction(tmp_path: Path) -> None:
    out = _committed_models(tmp_path)
    assert train.main(["--out", str(out), "--only", "coin", "--families", "graphite", "--family-sheets", "1",
                       "--coin-widths", "8,16,24", "--rare-repeat", "3", "--shape-aug", "--fade-aug",
                       "--calibrate-on", "eval", "--calibration-sheets", "1", "--eval-sheets", "1",
                       "--epochs", "1", "--threads", "1", "--cache", str(tmp_path / "cache")]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    coin = manifest["models"]["coin"]
    assert coin["widths"] == [8, 16, 24] and coin["recipe"]["rare_repeat"] == 3
    shift = coin["bias_shift"]["coin"]  # -log 3 for crossed when the sheet has any, else nothing
    assert shift[COIN_CLASSES.index("crossed")] in (0.0, pytest.approx(-np.log(3)))
    assert shift[COIN_CLASSES.index("empty")] == pytest.approx(0.0)
    assert manifest["models"]["cell"]["sha256"] == json.loads(
        (Path(train.__file__).parent / "manifest.json").read_text())["models"]["cell"]["sha256"]
    models = load_models(out)
    assert models.coin.run(np.zeros((2, 24, 24, 3), np.uint8))[1].shape == (2, 24)  # features: last width


def test_a_committed_coin_net_is_rebuilt_from_its_onnx_file_to_train_on() -> None:
    committed = Path(train.__file__).parent / "coin.onnx"
    entry = train.init_entry(committed)
    widths = tuple(int(w) for w in entry["widths"])
    rng = np.random.default_rng(3)
    x = prepare(rng.integers(0, 256, (600, 32, 32, 3), dtype=np.uint8), (32, 32),
                np.array(entry["input"]["mean"]), np.array(entry["input"]["std"]))
    net = CoinNet(widths)
    net.load_state_dict(train.onnx_state(net, committed, x))  # refuses logits off the file's by 1e-3
    head = net.head.bias.detach().numpy()  # the crossed repeat correction taken out: training adds it again
    ort_shift = np.array(entry["bias_shift"]["coin"])
    assert not np.allclose(ort_shift, 0.0) and np.isfinite(head).all()
    # in training mode its batch norms, set from these patches' statistics, pass them through alike
    net.train()
    with torch.no_grad():
        busy = net(torch.from_numpy(x))[0]
    net.eval()
    with torch.no_grad():
        still = net(torch.from_numpy(x))[0]
    assert float((busy - still).abs().mean()) < 0.05
    with pytest.raises(ValueError, match="convolution"):
        train.onnx_state(CoinNet((8, 16, 24)), committed, x)


def test_a_coin_net_goes_on_training_from_the_committed_onnx_file(tmp_path: Path) -> None:
    out = _committed_models(tmp_path)
    start = tmp_path / "start"
    start.mkdir()
    for name in ("manifest.json", "coin.onnx"):
        (start / name).write_bytes((out / name).read_bytes())
    committed = json.loads((out / "manifest.json").read_text())["models"]["coin"]
    assert train.main(["--out", str(out), "--only", "coin", "--families", "graphite", "--family-sheets", "1",
                       "--coin-widths", ",".join(map(str, committed["widths"])), "--rare-repeat", "3",
                       "--init", str(start / "coin.onnx"), "--lr", "1e-4", "--calibrate-on", "eval",
                       "--calibration-sheets", "1", "--eval-sheets", "1", "--epochs", "1", "--threads", "1",
                       "--cache", str(tmp_path / "cache")]) == 0
    coin = json.loads((out / "manifest.json").read_text())["models"]["coin"]
    assert coin["input"]["mean"] == committed["input"]["mean"]  # the normalisation it was trained with
    assert coin["started_from"]["recipe"] == committed["recipe"]
    assert coin["sha256"] != committed["sha256"]
    assert load_models(out).coin.run(np.zeros((2, 32, 32, 3), np.uint8))[0].shape == (2, 3)


def test_coin_repeat_shift_undoes_the_crossed_repetition() -> None:
    crossed = COIN_CLASSES.index("crossed")
    coin = np.array([0] * 50 + [1] * 30 + [crossed] * 3 * 5)  # five crossed coins shown three times
    shift = train.coin_repeat_shift(coin, 3)
    assert shift[crossed] == pytest.approx(-np.log(3)) and shift[[0, 1]] == pytest.approx(0.0)
    assert np.allclose(train.coin_repeat_shift(coin, 1), 0.0)


def test_channel_stats_match_the_whole_array_formula() -> None:
    x = np.random.default_rng(0).integers(0, 256, (9000, 4, 4, 3), dtype=np.uint8)
    f = x.reshape(-1, 3).astype(np.float64) / 255.0
    mean, std = train.channel_stats(x)
    assert np.allclose(mean, f.mean(axis=0), atol=1e-6) and np.allclose(std, f.std(axis=0), atol=1e-6)


def test_rare_repeat_takes_hero_and_star_cells_more_often() -> None:
    from models.dataset import Patches

    n = 6
    hero = TERRAIN_CLASSES.index("hero")
    terrain = np.array([0, 1, hero, 2, 0, 3])
    star = np.array([0, 0, 0, 1, 0, 0])
    z = np.zeros(0, np.int64)
    p = Patches(cells=np.arange(n, dtype=np.uint8).reshape(n, 1, 1, 1).repeat(3, axis=3),
                terrain=terrain, star=star, ruins=np.zeros(n, np.int64), cell_pos=np.arange(n),
                cell_sheet=np.zeros(n, np.int32), coins=np.zeros((0, 1, 1, 3), np.uint8), coin=z,
                coin_sheet=z.astype(np.int32), edges=np.zeros((0, 1, 1, 3), np.uint8), edge=z,
                edge_sheet=z.astype(np.int32))
    (x, (t, s)), _ = train.split_arrays(p, "cell", np.zeros(1, bool), rare_repeat=3)
    assert sorted(x[:, 0, 0, 0].tolist()) == [0, 1, 2, 2, 2, 3, 3, 3, 4, 5]
    assert (t == hero).sum() == 3 and s.sum() == 3


def test_fade_keeps_paper_and_hue_and_pales_the_ink(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    monkeypatch.setattr(train, "FADE_SHARE", 1.0)
    paper = torch.full((4, 3, 8, 8), 0.9)
    ink = paper.clone()
    ink[:, :, 2:4, :] = torch.tensor([0.2, 0.3, 0.8])[None, :, None, None]  # a red stroke (BGR)
    faded = train._fade(ink, torch.Generator().manual_seed(1))
    assert torch.allclose(faded[:, :, 5:, :], paper[:, :, 5:, :])  # paper stays paper
    stroke = faded[:, :, 2, 0]
    assert bool((stroke[:, 0] > 0.2).all()) and bool((stroke[:, 0] <= 0.9).all())  # paler, not gone
    assert bool((stroke[:, 2] > stroke[:, 0]).all())  # still red


def test_repeat_shift_undoes_the_heroes_repetition() -> None:
    hero = TERRAIN_CLASSES.index("hero")
    terrain = np.array([0] * 50 + [1] * 30 + [hero] * 4 * 5)  # five hero patches shown four times
    star = np.zeros_like(terrain)
    shift = train.repeat_shift(terrain, star, 4)
    assert shift[hero] == pytest.approx(-np.log(4)) and shift[[0, 1]] == pytest.approx(0.0)
    assert np.allclose(train.repeat_shift(terrain, star, 1), 0.0)


def test_same_drawing_loss_rewards_terrains_kept_apart_within_a_sheet_only() -> None:
    import torch

    terrain = torch.tensor([1, 1, 2, 2, 1, 1, 2, 2])
    sheet = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    apart = torch.tensor([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [0.1, 1.0]] * 2)
    mixed = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1], [0.1, 1.0]] * 2)
    good, bad = train.same_drawing_loss(apart, terrain, sheet), train.same_drawing_loss(mixed, terrain, sheet)
    assert torch.isfinite(good) and good < bad
    # The second sheet drawing its forests like the first sheet's villages costs nothing: only pairs on
    # one sheet compete.
    swapped = apart.clone()
    swapped[4:] = swapped[4:].flip(1)
    assert torch.isclose(train.same_drawing_loss(swapped, terrain, sheet), good)
    # No cell with a same-terrain peer on its sheet: nothing to learn, a zero that still back-propagates.
    lone = train.same_drawing_loss(apart[[0, 2]].requires_grad_(), terrain[[0, 2]], sheet[[0, 2]])
    assert float(lone.detach()) == 0.0 and lone.requires_grad


def test_training_sheets_see_a_repeated_cell_once_and_skip_sparse_sheets() -> None:
    from models.dataset import Patches

    hero = TERRAIN_CLASSES.index("hero")
    terrain = np.array([1, hero, 2, 0, 3, 1, 1, 2, 0, 4])
    sheet = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1], np.int32)
    n = len(terrain)
    z = np.zeros(0, np.int64)
    p = Patches(cells=np.zeros((n, 1, 1, 3), np.uint8), terrain=terrain, star=np.zeros(n, np.int64),
                ruins=np.zeros(n, np.int64), cell_pos=np.arange(n), cell_sheet=sheet,
                coins=np.zeros((0, 1, 1, 3), np.uint8), coin=z, coin_sheet=z.astype(np.int32),
                edges=np.zeros((0, 1, 1, 3), np.uint8), edge=z, edge_sheet=z.astype(np.int32))
    index = train.train_index(p, "cell", np.zeros(2, bool), rare_repeat=3)
    assert index.tolist() == [0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    sheets = train.training_sheets(p, index)
    assert sheets.tolist() == [0, 0, -1, -1, 0, 0, 0, 1, 1, 1, 1, 1]
    groups = train.drawn_by_sheet(sheets, terrain[index])
    assert [g.tolist() for g in groups] == [[0, 1, 4, 6], [7, 8, 9, 11]]  # empty cells and copies left out
    assert train.drawn_by_sheet(sheets, terrain[index], least=5) == []


def test_same_drawing_weight_zero_trains_as_before_and_a_weight_changes_the_net() -> None:
    import torch

    rng = np.random.default_rng(0)
    n = 48
    x = rng.normal(size=(n, 3, 32, 32)).astype(np.float32)
    terrain = rng.integers(1, 5, n)
    labels = [terrain, rng.integers(0, 2, n)]
    sheets = np.repeat(np.arange(3), n // 3)
    stats = {"mean": np.zeros(3, np.float32), "std": np.ones(3, np.float32)}
    task = train.TASKS["cell"]

    def weights(**kw: object) -> list[torch.Tensor]:
        net = train.fit(task, x, labels, **stats, epochs=1, seed=3, log=lambda _: None, **kw)  # type: ignore[arg-type]
        return [v.clone() for v in net.state_dict().values()]

    before = weights()
    off = weights(same_drawing=0.0, sheets=sheets)
    assert all(torch.equal(a, b) for a, b in zip(before, off, strict=True))
    changed = weights(same_drawing=0.5, sheets=sheets)
    assert all(bool(torch.isfinite(v.float()).all()) for v in changed)
    assert not all(torch.equal(a, b) for a, b in zip(before, changed, strict=True))


def test_the_sheets_step_leaves_the_batch_norms_running_statistics_alone() -> None:
    import torch

    net = train.TASKS["cell"].make().train()
    before = {k: v.clone() for k, v in net.state_dict().items() if "running" in k}
    x = torch.randn(12, 3, 32, 32) + 2.0  # far from the running mean of 0: a change would show
    whole = [np.arange(6), np.arange(6, 12)]
    terrain = torch.tensor([1, 1, 2, 2, 3, 3] * 2)
    zero, one = torch.zeros(1, 3, 1, 1), torch.ones(1, 3, 1, 1)
    gen = torch.Generator().manual_seed(0)
    loss = train._sheets_step(net, whole, x, terrain, gen, zero, one, False, False)
    assert torch.isfinite(loss) and loss.requires_grad
    after = net.state_dict()
    assert all(torch.equal(v, after[k]) for k, v in before.items())
    assert all(m.momentum == 0.1 for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d))
    net(x)  # an ordinary training batch still moves them
    first = "trunk.blocks.0.1.running_mean"
    assert not torch.equal(before[first], net.state_dict()[first])


def test_two_runs_filling_one_patch_cache_do_not_replace_each_other_s_half_written_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two training runs side by side render the same calibration sheets: while one writes a sheet's
    file, the other saves the same sheet (another process); both saves must land whole."""
    import os

    from models import dataset

    n = 3
    z = np.zeros(0, np.int64)
    p = dataset.Patches(
        cells=np.full((n, 2, 2, 3), 7, np.uint8), terrain=np.arange(n), star=np.zeros(n, np.int64),
        ruins=np.zeros(n, np.int64), cell_pos=np.arange(n), cell_sheet=np.zeros(n, np.int32),
        coins=np.zeros((0, 1, 1, 3), np.uint8), coin=z, coin_sheet=z.astype(np.int32),
        edges=np.zeros((0, 1, 1, 3), np.uint8), edge=z, edge_sheet=z.astype(np.int32),
    )
    target = tmp_path / "eval-glyph" / "9220004.npz"
    save: Any = np.savez_compressed
    pids = iter([101, 202])
    monkeypatch.setattr(os, "getpid", lambda: next(pids))
    nested: list[Path] = []

    def save_while_another_saves(file: Any, **arrays: np.ndarray) -> None:
        save(file, **arrays)
        if not nested:  # the other run saves the same sheet between this run's write and its rename
            nested.append(file)
            p.save(target)

    monkeypatch.setattr(np, "savez_compressed", save_while_another_saves)
    p.save(target)
    assert len(nested) == 1 and target.exists()
    assert sorted(f.name for f in target.parent.iterdir()) == ["9220004.npz"]
    assert dataset.Patches.load(target).terrain.tolist() == [0, 1, 2]


def test_a_write_killed_half_way_leaves_no_file_a_cache_reader_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run stopped while it writes leaves its part-written file behind, under a name no ``*.npz``
    glob of the cache (``models.quantize``, ``dataset.build``) picks up."""
    from models import dataset

    save: Any = np.savez_compressed

    def killed(file: Any, **arrays: np.ndarray) -> None:
        save(file, **arrays)
        raise KeyboardInterrupt  # stopped before the rename

    monkeypatch.setattr(np, "savez_compressed", killed)
    with pytest.raises(KeyboardInterrupt):
        dataset.save_whole(tmp_path / "train-glyph" / "1120039.npz", {"a": np.arange(3)})
    assert len(list((tmp_path / "train-glyph").iterdir())) == 1  # the part-written file
    assert list((tmp_path / "train-glyph").glob("*.npz")) == []


def test_a_rendered_photo_is_cached_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fit beside a fit reads the same sheets: the cache file appears only once written whole."""
    from models import dataset

    save: Any = np.savez_compressed
    written: list[Path] = []

    def watch(file: Any, **arrays: np.ndarray) -> None:
        written.append(Path(file.name))
        save(file, **arrays)

    monkeypatch.setattr(np, "savez_compressed", watch)
    first = dataset.sheet_inputs(9220004, "color", "eval", "scan", cache=tmp_path, key="k")
    target = tmp_path / "k" / "eval-color-scan" / "9220004.npz"
    assert len(written) == 1 and written[0] != target and written[0].parent == target.parent
    assert sorted(f.name for f in target.parent.iterdir()) == ["9220004.npz"]
    again = dataset.sheet_inputs(9220004, "color", "eval", "scan", cache=tmp_path, key="k")
    assert len(written) == 1 and np.array_equal(again["cells"], first["cells"])


def test_distill_loss_is_zero_for_the_teacher_itself_and_grows_with_disagreement() -> None:
    import torch

    teacher = torch.tensor([[4.0, 1.0, 0.0], [0.0, 3.0, 1.0]])
    assert float(train.distill_loss(teacher, teacher)) == pytest.approx(0.0, abs=1e-6)
    near, far = teacher + torch.tensor([[0.0, 0.5, 0.0]]), teacher.flip(1)
    assert 0.0 < float(train.distill_loss(near, teacher)) < float(train.distill_loss(far, teacher))
    # the same argmax but other odds among the rest still costs: what a fine-tune would forget
    assert float(train.distill_loss(torch.tensor([[4.0, 0.0, 1.0], [1.0, 3.0, 0.0]]), teacher)) > 0.0


def test_distill_weight_zero_trains_as_before_and_keeps_a_fine_tune_nearer_its_start(tmp_path: Path) -> None:
    import torch

    rng = np.random.default_rng(4)
    n = 64
    x = rng.normal(size=(n, 3, 32, 32)).astype(np.float32)
    task = train.TASKS["cell"]
    zero, one = np.zeros(3, np.float32), np.ones(3, np.float32)

    def fit(labels: list[np.ndarray], **kw: Any) -> torch.nn.Module:
        return train.fit(task, x, labels, mean=zero, std=one, seed=3, log=lambda _: None, lr=1e-2, **kw)

    stars = rng.integers(0, 2, n)
    teacher = fit([rng.integers(0, 8, n), stars], epochs=30)  # a net that reads these patches its way
    with torch.no_grad():
        said = teacher(torch.from_numpy(x))[0].argmax(dim=1).numpy()
    start = tmp_path / "start.pt"
    torch.save({"epoch": 30, "state_dict": teacher.state_dict()}, start)
    contrary = [(said + 1) % 8, stars]  # a fine-tune whose labels contradict every reading of it

    def kept(net: torch.nn.Module) -> float:  # share of the patches still read as the teacher read them
        with torch.no_grad():
            return float((net(torch.from_numpy(x))[0].argmax(dim=1).numpy() == said).mean())

    plain, off = fit(contrary, epochs=20, init=start), fit(contrary, epochs=20, init=start, distill=0.0)
    assert all(torch.equal(a, b) for a, b in zip(plain.state_dict().values(), off.state_dict().values(),
                                                  strict=True))
    assert kept(plain) < 0.25 < kept(fit(contrary, epochs=20, init=start, distill=5.0))


def _hue_deg(bgr: torch.Tensor) -> torch.Tensor:
    """Hue angle (degrees) of BGR rows about the grey axis."""
    b, g, r = bgr.unbind(-1)
    return torch.rad2deg(torch.atan2(np.sqrt(3.0) * (g - b), 2 * r - g - b))


def test_free_hue_turns_only_the_marked_patches_anywhere_on_the_colour_wheel() -> None:
    n = 400
    x = torch.full((n, 3, 4, 4), 0.9)
    x[:, :, 1:3, 1:3] = torch.tensor([0.2, 0.45, 0.9])[None, :, None, None]  # an orange stroke (BGR)
    mean, std = torch.zeros(1, 3, 1, 1), torch.ones(1, 3, 1, 1)
    free = torch.arange(n) % 2 == 0
    out = train.augment(x, torch.Generator().manual_seed(3), mean, std, free=free)
    # the mirror and the 2 px shift move the stroke; its hue is read where it is darkest
    ink = out.permute(0, 2, 3, 1).reshape(n, -1, 3)
    stroke = ink[torch.arange(n), ink.sum(-1).argmin(1)]
    turn = (_hue_deg(stroke) - float(_hue_deg(torch.tensor([0.2, 0.45, 0.9])))) % 360
    turn = torch.minimum(turn, 360 - turn)
    assert float(turn[~free].max()) <= train.HUE_JITTER + 2  # the usual small jitter only
    assert float(turn[free].max()) > 150 and float((turn[free] > 45).float().mean()) > 0.6
    paper = out[:, :, 0, 0]
    assert torch.allclose(paper, paper.mean(dim=1, keepdim=True), atol=1e-4)  # grey stays grey


def test_free_hue_patches_are_icon_families_cells_off_the_printed_ruins() -> None:
    from models.dataset import Patches

    n = 6
    z = np.zeros(0, np.int64)
    p = Patches(cells=np.zeros((n, 1, 1, 3), np.uint8), terrain=np.ones(n, np.int64),
                star=np.zeros(n, np.int64), ruins=np.array([0, 0, 1, 0, 0, 0]), cell_pos=np.arange(n),
                cell_sheet=np.array([0, 0, 0, 1, 1, 2], np.int32), coins=np.zeros((0, 1, 1, 3), np.uint8),
                coin=z, coin_sheet=z.astype(np.int32), edges=np.zeros((0, 1, 1, 3), np.uint8), edge=z,
                edge_sheet=z.astype(np.int32))
    index = np.array([0, 1, 2, 3, 4, 5, 5])
    free = train.free_hue_patches(p, index, ["glyph", "color", "doodle"])
    assert free.tolist() == [True, True, False, False, False, True, True]


def test_free_hue_zero_trains_as_before_and_a_share_changes_the_net() -> None:
    rng = np.random.default_rng(5)
    n = 48
    x = rng.normal(size=(n, 3, 32, 32)).astype(np.float32)
    labels = [rng.integers(1, 5, n), rng.integers(0, 2, n)]
    zero, one = np.zeros(3, np.float32), np.ones(3, np.float32)
    icons = np.ones(n, bool)

    def weights(**kw: Any) -> list[torch.Tensor]:
        net = train.fit(train.TASKS["cell"], x, labels, mean=zero, std=one, epochs=1, seed=3,
                        log=lambda _: None, **kw)
        return [v.clone() for v in net.state_dict().values()]

    before = weights()
    assert all(torch.equal(a, b) for a, b in zip(before, weights(free_hue=0.0, hue_free=icons), strict=True))
    turned = weights(free_hue=1.0, hue_free=icons)
    assert not all(torch.equal(a, b) for a, b in zip(before, turned, strict=True))


def test_mixup_blends_patches_and_losses_by_one_weight_and_zero_trains_as_before() -> None:
    import torch

    rng = np.random.default_rng(5)
    n = 32
    x = rng.normal(size=(n, 3, 32, 32)).astype(np.float32)
    labels = [rng.integers(0, 8, n), rng.integers(0, 2, n)]
    net = train.TASKS["cell"].make().eval()
    losses = [torch.nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss()]
    batch = torch.from_numpy(x)
    ys = [torch.from_numpy(y) for y in labels]
    with torch.no_grad():
        out, loss = train._mixed(net, batch, ys, losses, np.random.default_rng(9), 0.4)
    # the same draws again: the weight (the larger share) and the other order
    again = np.random.default_rng(9)
    lam = float(again.beta(0.4, 0.4))
    lam = max(lam, 1.0 - lam)
    other = torch.from_numpy(again.permutation(n))
    with torch.no_grad():
        seen = net(lam * batch + (1 - lam) * batch[other])
        heads = zip(losses, seen, ys, strict=False)
        want = sum(lam * lf(o, y) + (1 - lam) * lf(o, y[other]) for lf, o, y in heads)
    assert 0.5 <= lam < 1.0
    assert torch.allclose(out[0], seen[0]) and float(loss) == pytest.approx(float(want), rel=1e-5)
    with torch.no_grad():  # a blend is not the plain batch
        assert not torch.allclose(out[0], net(batch)[0])

    zero, one = np.zeros(3, np.float32), np.ones(3, np.float32)

    def fit(**kw: Any) -> torch.nn.Module:
        return train.fit(train.TASKS["cell"], x, labels, mean=zero, std=one, seed=3, epochs=2,
                         log=lambda _: None, **kw)

    plain_net, off = fit(), fit(mixup=0.0)
    assert all(torch.equal(a, b) for a, b in zip(plain_net.state_dict().values(), off.state_dict().values(),
                                                  strict=True))
    mixed = fit(mixup=0.4)
    assert not all(torch.equal(a, b) for a, b in zip(plain_net.state_dict().values(),
                                                      mixed.state_dict().values(), strict=True))


def test_a_cell_net_pooling_mean_and_maximum_exports_twice_the_features(tmp_path: Path) -> None:
    import torch

    from models.net import CellNet

    net = CellNet(pool="avgmax").eval()
    x = torch.zeros(2, 3, 32, 32)
    x[1, :, 4:8, 4:8] = 1.0  # a mark in one corner: its maximum shows it wherever it lies
    with torch.no_grad():
        terrain, star, features = net(x)
        plain = CellNet().eval()
        trunk = {k: v for k, v in net.state_dict().items() if k.startswith("trunk")}
        plain.load_state_dict(trunk, strict=False)
        mean_only = plain(x)[2]
    assert features.shape == (2, 128) and terrain.shape == (2, 8) and star.shape == (2, 2)
    assert torch.allclose(features[:, :64], mean_only)  # the mean half is the plain net's features
    assert not torch.allclose(features[:, 64:], features[:, :64])
    with pytest.raises(ValueError, match="pool"):
        CellNet(pool="median")

    out = _committed_models(tmp_path)
    code = train.main(["--out", str(out), "--cells", "360", "--eval-cells", "120", "--epochs", "1",
                       "--threads", "1", "--cache", str(tmp_path / "cache"), "--only", "cell",
                       "--cell-pool", "avgmax"])
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["models"]["cell"]["pool"] == "avgmax"
    reading = classify_sheet(np.random.default_rng(2).integers(0, 256, (11, 11, 32, 32, 3), dtype=np.uint8),
                             "A", models=load_models(out))
    assert np.allclose(reading.probabilities.sum(axis=-1), 1.0, atol=1e-5)


def test_a_held_out_family_is_refused_before_anything_is_rendered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        train.main(["--out", str(tmp_path), "--only", "cell", "--families", "graphite,sketch"])
    assert stop.value.code == 2
    assert "sketch is held out" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_a_cell_only_build_keeps_the_cells_and_holds_no_edge_strips_or_coins(tmp_path: Path) -> None:
    """A run training the cell net alone drops the other kinds as each sheet is read; the cache keeps
    them all, so a later run training every net reads the same file whole."""
    from models import dataset

    seeds = dataset.seeds("train", 2)
    whole = dataset.build(seeds, split="train", cache=tmp_path, key="k")
    cells = dataset.build(seeds, split="train", cache=tmp_path, key="k", kinds=["cell"])
    assert np.array_equal(cells.cells, whole.cells) and np.array_equal(cells.cell_sheet, whole.cell_sheet)
    assert len(whole.edges) > 0 and len(whole.coins) > 0
    assert cells.edges.shape == (0, *whole.edges.shape[1:]) and cells.edges.base is None
    assert len(cells.coins) == len(cells.coin) == len(cells.edge_sheet) == 0
    again = dataset.build(seeds, split="train", cache=tmp_path, key="k")
    assert np.array_equal(again.edges, whole.edges)


def test_family_factors_parse_and_a_malformed_one_is_refused() -> None:
    assert train._factors(["studio=4", " doodle = 2"]) == {"studio": 4, "doodle": 2}
    assert train._factors([]) == {}
    for bad in ("studio", "studio=", "studio=x", "studio=-1"):
        with pytest.raises(SystemExit, match="FAMILY=N"):
            train._factors([bad])
