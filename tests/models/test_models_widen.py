"""models.widen: a wider cell net computes what the narrow one did (exactly without the copies' noise,
nearly with it), loads as the trainer builds it, and a checkpoint it cannot widen gets one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from models import widen
from models.net import CellNet


def _trained_like(widths: tuple[int, ...], pool: str) -> CellNet:
    """A net with random weights and batch-norm statistics far from the defaults (so a wrongly copied
    norm shows)."""
    torch.manual_seed(3)
    net = CellNet(widths, pool)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                assert m.running_mean is not None and m.running_var is not None
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    return net.eval()


def _outputs(net: CellNet, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    with torch.no_grad():
        terrain, star, _ = net(x)
    return terrain, star


@pytest.mark.parametrize("pool", ["avg", "avgmax"])
def test_widening_keeps_the_function(pool: str) -> None:
    narrow = _trained_like((8, 12, 16, 20), pool)
    wide = CellNet((8, 20, 24, 40), pool).eval()
    wide.load_state_dict(widen.widen_cell(narrow.state_dict(), (8, 20, 24, 40), noise=0.0))
    x = torch.randn(16, 3, 32, 32)
    for a, b in zip(_outputs(narrow, x), _outputs(wide, x), strict=True):
        assert torch.allclose(a, b, atol=1e-4), float((a - b).abs().max())


def test_noise_parts_the_copies_but_barely_moves_the_logits() -> None:
    narrow = _trained_like((8, 12, 16, 20), "avgmax")
    state = widen.widen_cell(narrow.state_dict(), (8, 12, 24, 40), seed=1)
    w = state["trunk.blocks.3.0.weight"]
    assert not torch.equal(w[20], w[int(widen.channel_map(20, 40, np.random.default_rng(1))[20])])
    wide = CellNet((8, 12, 24, 40), "avgmax").eval()
    wide.load_state_dict(state)
    x = torch.randn(16, 3, 32, 32)
    terrain_a, _ = _outputs(narrow, x)
    terrain_b, _ = _outputs(wide, x)
    gap = float((terrain_a - terrain_b).abs().max())
    assert 0 < gap < 0.1 * float(terrain_a.abs().max())


def test_channel_map_copies_each_channel_before_any_twice() -> None:
    m = widen.channel_map(4, 11, np.random.default_rng(0))
    assert list(m[:4]) == [0, 1, 2, 3]
    counts = np.bincount(m, minlength=4)
    assert counts.max() - counts.min() <= 1 and counts.sum() == 11


@pytest.mark.parametrize("widths", [(8, 12, 16), (8, 12, 8, 20)])
def test_what_cannot_be_widened_is_refused(widths: tuple[int, ...]) -> None:
    narrow = _trained_like((8, 12, 16, 20), "avg")
    with pytest.raises(widen.WidenError):
        widen.widen_cell(narrow.state_dict(), widths)


def test_cli_writes_a_checkpoint_and_its_lineage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    narrow = _trained_like((8, 12, 16, 20), "avgmax")
    src = tmp_path / "cell.pt"
    torch.save({"epoch": 2, "state_dict": narrow.state_dict()}, src)
    out = tmp_path / "wide"
    assert widen.main([str(src), "--widths", "8,12,16,40", "--out", str(out)]) == 0
    CellNet((8, 12, 16, 40), "avgmax").load_state_dict(torch.load(out / "cell.pt")["state_dict"])
    entry = json.loads((out / "manifest.json").read_text())["models"]["cell"]
    assert entry["widths"] == [8, 12, 16, 40] and entry["started_from"]["checkpoint"] == "cell.pt"
    assert widen.main([str(src), "--widths", "8,4,16,40", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "widened" in err[0]
