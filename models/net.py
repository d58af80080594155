"""The classifier networks (torch; training only — inference runs the exported ONNX files).

Three small CNNs, each exported to its own ONNX file:

- :class:`CellNet` reads one grid-cell patch: a terrain head (``TERRAIN_CLASSES``, the destroyed ``X``
  is a class of its own because it replaces the terrain), a binary hit-star head, and the pooled
  penultimate features (a second output used by the per-sheet prototype vote in ``scanner.classify``).
- :class:`CoinNet` reads one coin circle: empty, filled or crossed out.
- :class:`EdgeNet` reads the strip along one internal cell edge: pencil outline drawn or not.

Colour matters (coloured pencils) and so does stroke shape (graphite icons), so the nets see RGB at a
resolution where a pencil stroke is still a couple of pixels wide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch
from torch import nn

# the class orders the scanner checks the exported models against
from scanner.constants import COIN_CLASSES, EDGE_CLASSES, TERRAIN_CLASSES

STAR_CLASSES = ("none", "star")

#: Input sizes (height, width) of the three nets, in pixels.
CELL_INPUT = (32, 32)
COIN_INPUT = (32, 32)
EDGE_INPUT = (16, 32)


def _block(cin: int, cout: int, *, pool: bool) -> nn.Sequential:
    layers: list[nn.Module] = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                               nn.ReLU()]
    if pool:
        layers.append(nn.MaxPool2d(2))
    return nn.Sequential(*layers)


#: How a trunk pools its last feature map: ``"avg"``, the mean over the map; ``"avgmax"``, the mean and the
#: maximum side by side (twice the features): where on the cell a part of a drawing lies matters less
#: than that it is there at all (issue 13: four-epoch leave-one-family-out runs, 2026-12-06, read the
#: unseen pencil icons 3.1-3.3 points better over two seeds, README).
POOLS = ("avg", "avgmax")


def cell_pool_of(state: Mapping[str, torch.Tensor], widths: Sequence[int]) -> str:
    """The :data:`POOLS` entry a cell net's ``state_dict`` was trained with: its heads read twice the last
    width for ``"avgmax"``."""
    return "avgmax" if state["terrain.weight"].shape[1] == 2 * widths[-1] else "avg"


class _Trunk(nn.Module):
    """Conv blocks then global pooling (:data:`POOLS`) -> a feature vector."""

    def __init__(self, widths: tuple[int, ...], pools: tuple[bool, ...], pool: str = "avg") -> None:
        super().__init__()
        if pool not in POOLS:
            raise ValueError(f"pool {pool!r}: one of {', '.join(POOLS)}")
        blocks = []
        cin = 3
        for w, p in zip(widths, pools, strict=True):
            blocks.append(_block(cin, w, pool=p))
            cin = w
        self.blocks = nn.Sequential(*blocks)
        self.pool = pool
        self.features = cin * (2 if pool == "avgmax" else 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.blocks(x)
        pooled: torch.Tensor = y.mean(dim=(2, 3))
        if self.pool == "avgmax":
            pooled = torch.cat([pooled, y.amax(dim=(2, 3))], dim=1)
        return pooled


class CellNet(nn.Module):
    """Cell patch (N, 3, 32, 32) normalised -> (terrain logits, star logits, features)."""

    def __init__(self, widths: tuple[int, ...] = (16, 32, 48, 64), pool: str = "avg") -> None:
        super().__init__()
        self.trunk = _Trunk(widths, (True, True, True, False), pool)
        self.drop = nn.Dropout(0.1)
        self.terrain = nn.Linear(self.trunk.features, len(TERRAIN_CLASSES))
        self.star = nn.Linear(self.trunk.features, len(STAR_CLASSES))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self.trunk(x)
        g = self.drop(f)
        return self.terrain(g), self.star(g), f


class SmallNet(nn.Module):
    """A tiny one-head classifier (coins, edges) -> (logits, features)."""

    def __init__(self, classes: int, widths: tuple[int, ...] = (12, 24, 32)) -> None:
        super().__init__()
        self.trunk = _Trunk(widths, (True, True, False))
        self.head = nn.Linear(self.trunk.features, classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.trunk(x)
        return self.head(f), f


def CoinNet(widths: tuple[int, ...] = (12, 24, 32)) -> SmallNet:
    return SmallNet(len(COIN_CLASSES), widths)


def EdgeNet() -> SmallNet:
    return SmallNet(len(EDGE_CLASSES))
