"""Square the sheet up: map the photo to a canonical top-down image with the grid at a fixed place.

In the canonical image the grid spans ``[m, m + 11 * ppc]`` on both axes with ``m = margin * ppc``,
row A at the top.  With a map of the 12x12 grid crossings (from ``locate``) the warp follows curled
paper piecewise; without it a single homography is used.
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.grid import SIZE
from scanner.constants import CANON_MARGIN, CANON_PPC
from scanner.geometry import Geometry


def grid_homography(corners: np.ndarray) -> np.ndarray:
    """Homography from sheet cell units to photo px.

    Parameters
    ----------
    corners : (4, 2) array
        Grid corners A1, A11, K11, K1 in photo px.

    Returns
    -------
    (3, 3) float64 array
    """
    src = Geometry.grid_corners().astype(np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners, dtype=np.float32)).astype(np.float64)


def canon_matrix(ppc: float, margin: float) -> np.ndarray:
    """Affine map (3x3) from cell units to canonical px."""
    off = margin * ppc
    return np.array([[ppc, 0.0, off], [0.0, ppc, off], [0.0, 0.0, 1.0]])


def canon_size(ppc: float, margin: float) -> int:
    """Side in px of the (square) canonical image."""
    return round((SIZE + 2 * margin) * ppc)


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to an (..., 2) array of points."""
    pts = np.asarray(pts, dtype=np.float64)
    flat = pts.reshape(-1, 2)
    q = flat @ h[:, :2].T + h[:, 2]
    out: np.ndarray = (q[:, :2] / q[:, 2:3]).reshape(pts.shape)
    return out


def rectify(
    image: np.ndarray,
    corners: np.ndarray,
    *,
    ppc: float = CANON_PPC,
    margin: float = CANON_MARGIN,
    crossings: np.ndarray | None = None,
) -> np.ndarray:
    """Warp a photo to the canonical top-down image.

    Parameters
    ----------
    image : (H, W, 3) or (H, W) uint8 array
        The photo.
    corners : (4, 2) array
        Grid corners in photo px, sheet order A1, A11, K11, K1.
    ppc : float
        Canonical pixels per cell.
    margin : float
        Cells of margin around the grid (the default holds the coin track).
    crossings : (12, 12, 2) array, optional
        Photo px of every grid crossing ``[row_line, col_line]``; when given, the warp interpolates
        the crossings' departure from the corner homography (curled paper).

    Returns
    -------
    ndarray
        ``(S, S[, 3])`` uint8 with ``S = canon_size(ppc, margin)``.
    """
    size = canon_size(ppc, margin)
    h = grid_homography(corners)
    if crossings is None:
        m = h @ np.linalg.inv(canon_matrix(ppc, margin))
        return cv2.warpPerspective(
            image,
            m,
            (size, size),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    map_x, map_y = _crossing_maps(h, np.asarray(crossings, dtype=np.float64), ppc, margin, size)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _crossing_maps(
    h: np.ndarray, crossings: np.ndarray, ppc: float, margin: float, size: int
) -> tuple[np.ndarray, np.ndarray]:
    # Photo position = exact homography + a residual interpolated bilinearly between crossings;
    # outside the grid the residual of the nearest edge is carried on (frame and coin track bend with
    # it).  The smooth residual is computed on a coarse lattice placed where cv2.resize puts its
    # samples, so enlarging it is exact bilinear interpolation.
    n = SIZE
    nodes = np.stack(np.meshgrid(np.arange(n + 1.0), np.arange(n + 1.0), indexing="xy"), axis=-1)
    resid = crossings - apply_h(h, nodes)  # (12, 12, 2) indexed [y, x]
    count = max(2, size // _MAP_STEP)
    lattice = (np.arange(count) + 0.5) * size / count - 0.5
    cl = np.clip(lattice / ppc - margin, 0.0, float(n))
    i0 = np.minimum(np.floor(cl).astype(int), n - 1)
    t = cl - i0
    rx = resid[:, i0, :] * (1 - t)[None, :, None] + resid[:, i0 + 1, :] * t[None, :, None]
    rxy = rx[i0, :, :] * (1 - t)[:, None, None] + rx[i0 + 1, :, :] * t[:, None, None]
    dense = cv2.resize(rxy.astype(np.float32), (size, size), interpolation=cv2.INTER_LINEAR)
    m = h @ np.linalg.inv(canon_matrix(ppc, margin))
    u = np.arange(size, dtype=np.float64)
    along_x = [m[k, 0] * u for k in range(3)]
    along_y = [m[k, 1] * u + m[k, 2] for k in range(3)]
    maps = np.empty((2, size, size), np.float32)
    # the homography in float64, a band of rows at a time: whole-image temporaries (six of 4 MB)
    # each cost fresh memory, which in a short-lived process is most of their cost (~7 ms)
    for y0 in range(0, size, _MAP_ROWS):
        y1 = min(y0 + _MAP_ROWS, size)
        den = along_x[2][None, :] + along_y[2][y0:y1, None]
        for k in (0, 1):
            num = along_x[k][None, :] + along_y[k][y0:y1, None]
            num /= den
            num += dense[y0:y1, :, k]
            maps[k, y0:y1] = num
    return maps[0], maps[1]


_MAP_STEP = 6  # px of canonical image per lattice step of the residual map
_MAP_ROWS = 48  # rows of the maps computed at once (a band's float64 temporaries stay in the cache)
