"""Two small numeric routines the decoder needs, written in numpy.

SciPy has both (``scipy.cluster.hierarchy`` average linkage cut at a distance, ``scipy.ndimage``'s
Gaussian filter), but importing either costs about 0.3 s per process (its array-API layer imports
all of numpy's submodules), more than a whole photo's reading.  The sets here are small (at most 121
cells, a dozen coin patches), so plain numpy is fast enough; the tests check both against SciPy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["average_linkage_groups", "gaussian_blur"]


def average_linkage_groups(points: np.ndarray, distance: float) -> np.ndarray:
    """Flat clusters of average-linkage (UPGMA) clustering under the cosine distance, cut at `distance`.

    The same partition as ``fcluster(linkage(points, "average", metric="cosine"), distance,
    "distance")``: two groups merge while their mean pairwise cosine distance is at most `distance`.

    Parameters
    ----------
    points : (N, D) float
        Feature rows; an all-zero row is at distance 1 from every other row.
    distance : float
        Largest mean cosine distance at which groups still merge.

    Returns
    -------
    (N,) int
        Group numbers 1..k, numbered in the order of each group's first row.
    """
    x = np.asarray(points, dtype=np.float64)
    n = len(x)
    if n < 2:
        return np.ones(n, int)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    unit = np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)
    d = np.clip(1.0 - unit @ unit.T, 0.0, 2.0)
    np.fill_diagonal(d, np.inf)
    size = np.ones(n)
    rows = np.arange(n)
    into = np.arange(n)  # the row each merged-away row went into (itself while it is alive)
    nearest = d.argmin(axis=1)  # each row's closest group, so a merge step scans N values, not N^2
    for _ in range(n - 1):
        i = int(np.argmin(d[rows, nearest]))
        j = int(nearest[i])
        if not d[i, j] <= distance:
            break
        i, j = min(i, j), max(i, j)
        # Lance-Williams update for average linkage: the merged group's mean distance to every other
        merged = (size[i] * d[i] + size[j] * d[j]) / (size[i] + size[j])
        d[i], d[:, i] = merged, merged
        d[i, i] = np.inf
        d[j], d[:, j] = np.inf, np.inf
        size[i] += size[j]
        into[j] = i
        stale = (nearest == i) | (nearest == j)
        stale[i] = True
        nearest[stale] = d[stale].argmin(axis=1)
        nearest[d[:, i] < d[rows, nearest]] = i
    owner = into
    for _ in range(n):  # follow the merges to each point's surviving row
        nxt = into[owner]
        if np.array_equal(nxt, owner):
            break
        owner = nxt
    _, first, groups = np.unique(owner, return_index=True, return_inverse=True)
    rank = np.empty(len(first), int)
    rank[np.argsort(first, kind="stable")] = np.arange(1, len(first) + 1)
    return np.asarray(rank[groups], int)


def gaussian_blur(x: np.ndarray, sigma: float, axes: Sequence[int], truncate: float = 4.0) -> np.ndarray:
    """Gaussian blur of `x` along `axes`, as ``scipy.ndimage.gaussian_filter`` with ``mode="reflect"``.

    Parameters
    ----------
    x : float array.
    sigma : standard deviation in samples, the same on every axis in `axes`.
    axes : the axes to blur.
    truncate : the kernel reaches ``truncate * sigma`` samples each way.

    Returns
    -------
    Array of `x`'s shape and float dtype (each axis pass is summed in float64 and stored as that dtype).
    """
    radius = int(truncate * float(sigma) + 0.5)
    taps = np.arange(-radius, radius + 1, dtype=np.float64)
    weights = np.exp(-0.5 / (float(sigma) ** 2) * taps**2)
    weights /= weights.sum()
    out = np.asarray(x)
    dtype = out.dtype if np.issubdtype(out.dtype, np.floating) else np.dtype(np.float64)
    for axis in axes:
        pad = [(0, 0)] * out.ndim
        pad[axis] = (radius, radius)
        # numpy's "symmetric" repeats the edge sample, which is ndimage's "reflect"
        padded = np.pad(out.astype(np.float64), pad, mode="symmetric")
        length = out.shape[axis]
        acc = np.zeros(out.shape, np.float64)
        for k, w in enumerate(weights):
            acc += w * np.take(padded, np.arange(k, k + length), axis=axis)
        out = acc.astype(dtype)
    return out
