"""models.committee: trained cell nets read together as one distillation teacher.
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
from models.committee import TeacherError, load_committee, load_member
from models.net import CellNet

_SHIFT = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.4, -1.1]


def _member(directory: Path, seed: int, *, mean: float, std: float, pool: str = "avg", sure: float = 1.0
            ) -> CellNet:
    """A random cell net saved as a training run leaves it: ``cell.pt`` and a manifest's cell entry;
    ``sure`` scales its terrain head (a random net's readings are otherwise near even)."""
    torch.manual_seed(seed)
    net = CellNet((4, 8, 8, 8), pool).eval()
    with torch.no_grad():
        net.terrain.weight *= sure
    directory.mkdir()
    torch.save({"epoch": 1, "state_dict": net.state_dict()}, directory / "cell.pt")
    entry = {"widths": [4, 8, 8, 8], "input": {"mean": [mean] * 3, "std": [std] * 3},
             "temperature": {"terrain": 0.8, "star": 0.6}, "log_prior_shift": {"terrain": _SHIFT}}
    (directory / "manifest.json").write_text(json.dumps({"models": {"cell": entry}}))
    return net


def _calibrated(net: CellNet, pixels: torch.Tensor, mean: float, std: float) -> tuple[torch.Tensor, ...]:
    """The net's calibrated log-probabilities on pixels (0-1) normalised its own way."""
    with torch.no_grad():
        terrain, star, _ = net((pixels - mean) / std)
    return (torch.log_softmax(terrain / 0.8 + torch.tensor(_SHIFT), dim=1),
            torch.log_softmax(star / 0.6, dim=1))


def test_a_member_reads_a_student_normalised_batch_as_its_own_normalisation(tmp_path: Path) -> None:
    net = _member(tmp_path / "a", 0, mean=0.7, std=0.2)
    pixels = torch.rand(6, 3, 32, 32)
    s_mean, s_std = np.full(3, 0.5, np.float32), np.full(3, 0.3, np.float32)
    member = load_member(tmp_path / "a", s_mean, s_std)
    with torch.no_grad():
        got = member((pixels - 0.5) / 0.3)
    want = _calibrated(net, pixels, 0.7, 0.2)
    for g, w in zip(got, want, strict=True):
        assert torch.allclose(g, w, atol=1e-5)


def test_a_committee_averages_its_members_log_probabilities(tmp_path: Path) -> None:
    a = _member(tmp_path / "a", 0, mean=0.7, std=0.2)
    b = _member(tmp_path / "b", 1, mean=0.6, std=0.25, pool="avgmax")
    pixels = torch.rand(5, 3, 32, 32)
    zero, one = np.zeros(3, np.float32), np.ones(3, np.float32)
    committee = load_committee([tmp_path / "a", tmp_path / "b"], zero, one)
    with torch.no_grad():
        got = committee(pixels)
    wa, wb = _calibrated(a, pixels, 0.7, 0.2), _calibrated(b, pixels, 0.6, 0.25)
    for g, x, y in zip(got, wa, wb, strict=True):
        assert torch.allclose(g, (x + y) / 2, atol=1e-5)
        assert not torch.allclose(g, x, atol=1e-3)  # both members count


def test_a_member_without_its_files_is_one_teacher_error(tmp_path: Path) -> None:
    with pytest.raises(TeacherError, match="teacher"):
        load_member(tmp_path / "absent", np.zeros(3, np.float32), np.ones(3, np.float32))
    _member(tmp_path / "a", 0, mean=0.7, std=0.2)
    (tmp_path / "a" / "manifest.json").write_text(json.dumps({"models": {}}))
    with pytest.raises(TeacherError):
        load_member(tmp_path / "a", np.zeros(3, np.float32), np.ones(3, np.float32))
    with pytest.raises(TeacherError):
        load_committee([], np.zeros(3, np.float32), np.ones(3, np.float32))


def test_fit_learns_towards_a_committee_teacher(tmp_path: Path) -> None:
    """A fine-tune whose labels contradict the committee keeps more of the committee's reading with
    ``teachers`` and a distillation weight than without."""
    rng = np.random.default_rng(5)
    n = 64
    x = rng.normal(size=(n, 3, 32, 32)).astype(np.float32)
    zero, one = np.zeros(3, np.float32), np.ones(3, np.float32)

    def fit(labels: list[np.ndarray], **kw: Any) -> torch.nn.Module:
        return train.fit(train.TASKS["cell"], x, labels, mean=zero, std=one, seed=3, log=lambda _: None,
                         lr=1e-2, **kw)

    stars = rng.integers(0, 2, n)
    member = fit([rng.integers(0, 8, n), stars], epochs=30)  # a net that reads these patches its way
    (tmp_path / "a").mkdir()
    torch.save({"epoch": 30, "state_dict": member.state_dict()}, tmp_path / "a" / "cell.pt")
    entry = {"input": {"mean": [0.0] * 3, "std": [1.0] * 3}, "temperature": {"terrain": 1.0, "star": 1.0}}
    (tmp_path / "a" / "manifest.json").write_text(json.dumps({"models": {"cell": entry}}))
    with torch.no_grad():
        said = load_committee([tmp_path / "a"], zero, one)(torch.from_numpy(x))[0].argmax(dim=1).numpy()
    contrary = [(said + 1) % 8, stars]

    def kept(net: torch.nn.Module) -> float:
        with torch.no_grad():
            return float((net(torch.from_numpy(x))[0].argmax(dim=1).numpy() == said).mean())

    # from scratch, not from the member: only the committee can pull the student towards its reading
    assert kept(fit(contrary, epochs=20)) < 0.25 < kept(fit(contrary, epochs=20, distill=5.0,
                                                             teachers=[tmp_path / "a"]))


def test_train_refuses_a_teacher_before_rendering(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing teacher, or a teacher without --distill, is one usage error, before any sheet is made."""
    cache = tmp_path / "cache"
    base = ["--out", str(tmp_path / "out"), "--cells", "121", "--epochs", "1", "--cache", str(cache)]
    with pytest.raises(SystemExit) as missing:
        train.main([*base, "--distill", "1", "--teacher", str(tmp_path / "absent")])
    assert missing.value.code == 2 and "teacher" in capsys.readouterr().err
    _member(tmp_path / "a", 0, mean=0.7, std=0.2)
    with pytest.raises(SystemExit) as undistilled:
        train.main([*base, "--teacher", str(tmp_path / "a")])
    assert undistilled.value.code == 2 and "--distill" in capsys.readouterr().err
    assert not cache.exists()
