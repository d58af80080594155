"""Small numeric routines the scanner needs, written in numpy.

SciPy has the first two (``scipy.cluster.hierarchy`` average linkage cut at a distance,
``scipy.ndimage``'s Gaussian filter), but importing either costs about 0.3 s per process (its
array-API layer imports all of numpy's submodules), more than a whole photo's reading.  The sets here
are small (at most 121 cells, a dozen coin patches), so plain numpy is fast enough (the blur's sums
are OpenCV's separable filter); the tests check both against SciPy.

:func:`median` and :func:`percentile` give numpy's own answers bit for bit, without what
``np.median`` and ``np.percentile`` (and a plain ``np.unique``) do on their first call in NumPy 2:
import ``numpy.ma`` (about 8 ms of a 0.4 s start) to ask whether the array is masked.  They also skip
numpy's generic reduction wrapper, which is most of their cost on the short profiles the locator
takes medians of; the tests compare them with numpy's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["average_linkage_groups", "blur_images", "byte_rank", "gaussian_blur", "median", "percentile"]


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
    total = np.clip(1.0 - unit @ unit.T, 0.0, 2.0)  # summed point distances between groups
    np.fill_diagonal(total, 0.0)
    size = np.ones(n)
    owner = np.arange(n)  # each point's group
    rows = owner.copy()
    # Average linkage is reducible (a merged group is no nearer to a third than the nearer of its
    # parts), so two groups that are each other's nearest are merged, at that distance, whatever else
    # merges first: every such pair within `distance` merges in one round (26 rounds for 121 cells
    # instead of 100 merges), until the closest pair is farther; the partition is the same.
    while len(size) > 1:
        m = len(size)
        rows = rows[:m]
        mean = total / np.outer(size, size)
        mean.flat[:: m + 1] = np.inf  # the diagonal
        nearest = mean.argmin(axis=1)
        mutual = (nearest[nearest] == rows) & (mean[rows, nearest] <= distance)
        lower = np.flatnonzero(mutual & (rows < nearest))
        if not lower.size:
            break
        upper = nearest[lower]  # each merges into the lower of its pair
        kept = np.ones(m, bool)
        kept[upper] = False
        first = np.flatnonzero(kept)
        number = np.cumsum(kept) - 1  # new group numbers, in the order of the kept groups
        merged = number[lower]
        # a merged group's sums are its parts' (rows first, then columns); the others' are kept as they
        # are, where a sum with a row of zeros did the same before
        summed = total[first]
        summed[merged] += total[upper]
        total = summed[:, first]
        total[:, merged] += summed[:, upper]
        size[lower] += size[upper]
        size = size[first]
        number[upper] = merged
        owner = number[owner]
    _, first, groups = np.unique(owner, return_index=True, return_inverse=True)
    rank = np.empty(len(first), int)
    rank[np.argsort(first, kind="stable")] = np.arange(1, len(first) + 1)
    return np.asarray(rank[groups], int)


def gaussian_blur(
    x: np.ndarray, sigma: float, axes: Sequence[int], truncate: float = 4.0, *, float32_sums: bool = False
) -> np.ndarray:
    """Gaussian blur of `x` along `axes`, as ``scipy.ndimage.gaussian_filter`` with ``mode="reflect"``.

    Parameters
    ----------
    x : float array.
    sigma : standard deviation in samples, the same on every axis in `axes`.
    axes : the axes to blur.
    truncate : the kernel reaches ``truncate * sigma`` samples each way.
    float32_sums : sum each pass in float32 (for float32 `x` longer than the kernel's reach along each
        axis): within 1e-4 of the float64 sums on 0-255 pixels, without their float64 copies.

    Returns
    -------
    Array of `x`'s shape and float dtype (each axis pass is summed in float64, or float32, and stored as
    that dtype).
    """
    weights = _gaussian_weights(float(sigma), float(truncate))
    radius = len(weights) // 2
    out = np.asarray(x)
    dtype = out.dtype if np.issubdtype(out.dtype, np.floating) else np.dtype(np.float64)
    for axis in axes:
        pre, length = math.prod(out.shape[:axis]), out.shape[axis]
        post = math.prod(out.shape[axis + 1 :])
        if length > radius and pre * post > 0:
            out = _blur_along(out.reshape(pre, length, post), weights, dtype, float32_sums).reshape(out.shape)
            continue
        pad = [(0, 0)] * out.ndim
        pad[axis] = (radius, radius)
        # numpy's "symmetric" repeats the edge sample, which is ndimage's "reflect"
        padded = np.pad(out.astype(np.float64), pad, mode="symmetric")
        acc = np.zeros(out.shape, np.float64)
        window = [slice(None)] * out.ndim
        for k, w in enumerate(weights):
            window[axis] = slice(k, k + length)  # a view, where np.take copied
            acc += w * padded[tuple(window)]
        out = acc.astype(dtype)
    return out


def blur_images(images: np.ndarray, sigma: float, truncate: float = 4.0) -> np.ndarray:
    """(N, h, w) float32 images each blurred on its own as :func:`gaussian_blur` blurs them along axes 1
    and 2, summed in float32 (``float32_sums``): five times faster on a sheet's cells than the float64
    sums. Each image at least as tall and wide as the kernel's reach (``truncate * sigma``).

    Returns
    -------
    (N, h, w) float32
    """
    return gaussian_blur(np.asarray(images, np.float32), sigma, (1, 2), truncate, float32_sums=True)


@cache
def _gaussian_weights(sigma: float, truncate: float) -> np.ndarray:
    """The normalised Gaussian taps of :func:`gaussian_blur`, ``truncate * sigma`` each way (read-only)."""
    radius = int(truncate * sigma + 0.5)
    taps = np.arange(-radius, radius + 1, dtype=np.float64)
    weights = np.exp(-0.5 / (sigma**2) * taps**2)
    weights /= weights.sum()
    weights.flags.writeable = False
    return weights


def _blur_along(
    x: np.ndarray, weights: np.ndarray, dtype: np.dtype, float32_sums: bool = False
) -> np.ndarray:
    """(P, L, Q) convolved with `weights` along L in float64 (or float32) and stored as `dtype`, edges
    reflected (``cv2.BORDER_REFLECT``, the edge sample repeated): OpenCV's separable filter, 4x faster on
    a sheet's coins than summing shifted copies; stored as float32 the two agree bit for bit (the tests
    check). OpenCV widens float32 pixels to its float64 sums itself, exactly as a copy would."""
    sums: type[np.floating[Any]] = np.float32 if float32_sums else np.float64
    depth = cv2.CV_32F if float32_sums else cv2.CV_64F
    taps: np.ndarray[Any, np.dtype[np.floating[Any]]] = np.asarray(weights, sums)
    one: np.ndarray[Any, np.dtype[np.floating[Any]]] = np.ones(1, sums)
    src = x if x.dtype in (np.float32, np.float64) else x.astype(np.float64)
    if x.shape[2] <= 4:  # a few channels: one image of P rows, filtered along its width
        out = cv2.sepFilter2D(src, depth, taps, one, borderType=cv2.BORDER_REFLECT)
        return np.asarray(out).astype(dtype, copy=False)
    # else the P images side by side, one image of L rows filtered along its height (each column is
    # filtered on its own, so the numbers are those of one image at a time); one copy each way
    p, length, q = x.shape
    lanes = np.empty((length, p, q), sums)
    lanes[...] = src.transpose(1, 0, 2)
    filtered = cv2.sepFilter2D(lanes.reshape(length, p * q), depth, one, taps, borderType=cv2.BORDER_REFLECT)
    result = np.empty((p, length, q), dtype)
    result[...] = np.asarray(filtered).reshape(length, p, q).transpose(1, 0, 2)
    return result


def median(values: ArrayLike, axis: int | None = None) -> Any:
    """``np.median(values, axis)``, the same values and dtype, without importing ``numpy.ma``.

    Parameters
    ----------
    values : array_like.
    axis : the axis to take the median along; None: of all values.

    Returns
    -------
    A numpy scalar (`axis` None or a 1-D input), else an array without `axis`.  A NaN anywhere in a
    slice makes its median NaN.
    """
    a = np.asarray(values)
    if axis is None:
        a, axis = a.ravel(), 0
    n = a.shape[axis]
    if n == 0:
        return np.mean(a, axis=axis)  # NaN and numpy's warning, as np.median gives
    if n <= 3 and a.ndim > 1 and np.issubdtype(a.dtype, np.floating):
        return _median_of_few(np.moveaxis(a, axis, 0))
    half = n // 2
    kth = [half - 1, half] if n % 2 == 0 else [half]
    inexact = np.issubdtype(a.dtype, np.inexact)
    part = np.partition(a, [*kth, n - 1] if inexact else kth, axis=axis)  # NaNs sort last
    middle = np.take(part, np.arange(kth[0], kth[-1] + 1), axis=axis)
    out = np.mean(middle, axis=axis)
    if inexact:
        nan = np.isnan(np.take(part, n - 1, axis=axis))
        if np.ndim(out) == 0:
            return out.dtype.type(np.nan) if nan else out
        out[nan] = np.nan
    return out


def _median_of_few(a: np.ndarray) -> Any:
    """The median along the first axis of 1-3 floats: numpy's bits (NaN too) with elementwise steps
    instead of a partition (4x faster on a stack of coin patches)."""
    if len(a) == 1:
        return a[0].copy()
    if len(a) == 2:  # what np.mean of the two gives: their sum, halved, in their dtype
        return (a[0] + a[1]) / 2
    return np.maximum(np.minimum(a[0], a[1]), np.minimum(np.maximum(a[0], a[1]), a[2]))


def percentile(values: ArrayLike, q: float, axis: int | None = None) -> Any:
    """``np.percentile(values, q, axis)`` of one percentile, the same values and dtype (numpy's linear
    method, `q` a Python number), without importing ``numpy.ma``.

    Parameters
    ----------
    values : array_like, not empty along `axis`.
    q : percentile in [0, 100].
    axis : the axis to take it along; None: of all values.

    Returns
    -------
    A numpy scalar (`axis` None or a 1-D input), else an array without `axis`.  A NaN anywhere in a
    slice makes its percentile NaN.
    """
    a = np.asarray(values)
    if axis is None:
        a, axis = a.ravel(), 0
    axis = axis % a.ndim  # partitioned along its own axis: fastest when that is the last
    n = a.shape[axis]
    virtual = (n - 1) * float(np.true_divide(q, 100))
    if 0.0 <= virtual < n - 1:
        lo = int(np.floor(virtual))
        hi, gamma = lo + 1, virtual - lo
    else:  # at or past an end: that end's value
        lo = hi = 0 if virtual < 0.0 else n - 1
        gamma = 0.0
    part = np.partition(a, sorted({0, n - 1, lo, hi}), axis=axis)
    below, above = np.take(part, lo, axis=axis), np.take(part, hi, axis=axis)
    diff = above - below
    # numpy's interpolation, step for step: from the lower value, or from the upper one at or past
    # half-way (so that the upper end is exact)
    out = np.asarray(np.add(below, diff * gamma))
    if gamma >= 0.5:
        out = np.asarray(np.subtract(above, diff * (1 - gamma), dtype=out.dtype, casting="unsafe"))
    if np.issubdtype(a.dtype, np.inexact):
        nan = np.isnan(np.take(part, n - 1, axis=axis))
        if out.ndim == 0:
            out = np.asarray(np.nan, dtype=out.dtype) if nan else out
        else:
            out[nan] = np.nan
    return out[()] if out.ndim == 0 else out


def byte_rank(values: np.ndarray, k: int) -> int:
    """The ``k``-th smallest (from 0) of some byte values: what ``np.partition(values, k)[k]`` gives,
    read off their histogram (several times faster on a sheet's thousands of pixels).

    Parameters
    ----------
    values : uint8 array, any shape, with more than ``k`` values.
    k : rank from 0.
    """
    return int((np.cumsum(np.bincount(values.ravel(), minlength=256)) <= k).sum())
