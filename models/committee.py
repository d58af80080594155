"""A committee of trained cell nets as one teacher (``models.train --teacher DIR ...``).

Each member is a training run's directory: its ``cell.pt`` and the manifest beside it, whose cell entry
gives the member's input normalisation, calibrated temperatures and log-prior shift. The committee reads
a training batch (normalised for the student) as each member was trained to read it and answers, per
head, the members' calibrated log-probabilities averaged: the geometric mean of their readings, which the
student learns towards (:func:`models.train.distill_loss`). Two nets that read different drawings well
(one the training pictures, one new designs) read better together than either alone (README, fifteenth
session), and a student keeps one net's cost.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from models.net import CellNet, cell_pool_of


class TeacherError(ValueError):
    """A committee member's directory lacks its checkpoint or the manifest facts the committee needs."""


class Member(nn.Module):
    """One trained cell net, reading student-normalised batches: calibrated log-probabilities per head."""

    scale: torch.Tensor
    offset: torch.Tensor
    shift: torch.Tensor

    def __init__(
        self, net: nn.Module, entry: dict[str, Any], student_mean: np.ndarray, student_std: np.ndarray
    ) -> None:
        super().__init__()
        self.net = net.eval()
        mean = np.asarray(entry["input"]["mean"], np.float32)
        std = np.asarray(entry["input"]["std"], np.float32)
        # x_member = (x_student * s_std + s_mean - mean) / std, folded into one scale and offset
        scale = np.asarray(student_std, np.float32) / std
        offset = (np.asarray(student_mean, np.float32) - mean) / std
        self.register_buffer("scale", torch.from_numpy(scale).view(1, 3, 1, 1))
        self.register_buffer("offset", torch.from_numpy(offset).view(1, 3, 1, 1))
        t = entry["temperature"]
        self.temperatures = (float(t["terrain"]), float(t["star"]))
        shift = entry.get("log_prior_shift", {}).get("terrain")
        self.register_buffer("shift", torch.tensor(shift if shift is not None else 0.0, dtype=torch.float32))

    def forward(self, batch: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        terrain, star, _features = self.net(batch * self.scale + self.offset)
        return (torch.log_softmax(terrain / self.temperatures[0] + self.shift, dim=1),
                torch.log_softmax(star / self.temperatures[1], dim=1))


class Committee(nn.Module):
    """Members' calibrated log-probabilities averaged per head (terrain, star)."""

    def __init__(self, members: Sequence[Member]) -> None:
        super().__init__()
        if not members:
            raise TeacherError("a committee needs at least one member")
        self.members = nn.ModuleList(members)

    def forward(self, batch: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        outs = [m(batch) for m in self.members]
        return (torch.stack([o[0] for o in outs]).mean(dim=0),
                torch.stack([o[1] for o in outs]).mean(dim=0))


def load_member(directory: Path, student_mean: np.ndarray, student_std: np.ndarray) -> Member:
    """The member trained in ``directory`` (``cell.pt`` and ``manifest.json``).

    Raises
    ------
    TeacherError
        When either file is missing or unreadable, or the manifest lacks the cell entry's facts.
    """
    try:
        entry = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))["models"]["cell"]
        state = torch.load(directory / "cell.pt", map_location="cpu")["state_dict"]
        widths = tuple(int(w) for w in entry.get("widths", (16, 32, 48, 64)))
        pool = cell_pool_of(state, widths)
        net = CellNet(widths, pool)
        net.load_state_dict(state)
        return Member(net, entry, student_mean, student_std)
    except (OSError, ValueError, KeyError, RuntimeError) as e:
        raise TeacherError(f"teacher {directory}: {e}") from None


def load_committee(
    directories: Sequence[Path], student_mean: np.ndarray, student_std: np.ndarray
) -> Committee:
    """The committee of the members trained in ``directories`` (see :func:`load_member`)."""
    return Committee([load_member(Path(d), student_mean, student_std) for d in directories])
