"""Stroke primitives for drawn icons, in cell-local units (0..1 across one cell; y grows downwards).

Shared by the fixed icon designs (:mod:`models.synth.icons`) and the designs composed from parts
(:mod:`models.synth.grammar`).
"""

from __future__ import annotations

import numpy as np

Path = np.ndarray  # (N, 2) points in cell-local units


def circle_path(cx: float, cy: float, r: float, n: int = 14, bump: float = 0.0, start: float = 0.0) -> Path:
    t = np.linspace(start, start + 2 * np.pi, n + 1)
    rr = r * (1 + bump * np.sin(t * 5))
    return np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t)], 1)


def turning(angle: float) -> np.ndarray:
    """The 2x2 matrix turning points by `angle` radians (``points @ turning(a).T``)."""
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def turned(paths: list[Path], angle: float, centre: tuple[float, float] = (0.5, 0.5)) -> list[Path]:
    """``paths`` turned by ``angle`` radians about ``centre``."""
    c, rot = np.asarray(centre), turning(angle)
    return [(p - c) @ rot.T + c for p in paths]


def wave(x0: float, x1: float, y: float, amp: float, periods: float, n: int = 16) -> Path:
    """A sine line from ``x0`` to ``x1`` about height ``y``."""
    x = np.linspace(x0, x1, n)
    return np.stack([x, y + amp * np.sin((x - x0) / (x1 - x0) * periods * 2 * np.pi)], 1)


def ellipse(
    cx: float, cy: float, rx: float, ry: float, t0: float = 0.0, t1: float = 2 * np.pi, n: int = 16
) -> Path:
    t = np.linspace(t0, t1, n)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], 1)


def poly(*pts: tuple[float, float]) -> Path:
    """A polyline through ``pts``."""
    return np.array(pts, float)


def rect(x0: float, y0: float, x1: float, y1: float) -> Path:
    """A closed rectangle, drawn as one stroke."""
    return poly((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0))


def zigzag(x0: float, x1: float, n: int, y_even: float, y_odd: float) -> Path:
    """``n`` points from ``x0`` to ``x1``, at ``y_even`` and ``y_odd`` in turn: teeth, crests, spikes."""
    return np.stack([np.linspace(x0, x1, n), np.where(np.arange(n) % 2, y_odd, y_even)], 1)


__all__ = ["Path", "circle_path", "ellipse", "poly", "rect", "turned", "turning", "wave", "zigzag"]
