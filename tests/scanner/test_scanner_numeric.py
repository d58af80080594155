"""scanner.numeric: the numpy stand-ins give SciPy's answers (SciPy is only imported here, in tests)."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.numeric import average_linkage_groups, gaussian_blur

scipy_hierarchy = pytest.importorskip("scipy.cluster.hierarchy")
scipy_ndimage = pytest.importorskip("scipy.ndimage")


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    return len(set(zip(a.tolist(), b.tolist(), strict=True))) == len(set(a.tolist())) == len(set(b.tolist()))


@pytest.mark.parametrize("seed", range(40))
def test_average_linkage_cut_is_scipys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(2, 122)), int(rng.integers(1, 8))
    centres = rng.normal(size=(k, 16))
    points = np.abs(centres[rng.integers(0, k, n)] + rng.normal(0, rng.uniform(0.05, 0.8), (n, 16)))
    distance = float(rng.uniform(0.02, 0.6))
    expected = scipy_hierarchy.fcluster(
        scipy_hierarchy.linkage(points, "average", metric="cosine"), distance, "distance"
    )
    got = average_linkage_groups(points, distance)
    assert _same_partition(got, np.asarray(expected))
    assert got[0] == 1 and set(got.tolist()) == set(range(1, got.max() + 1))  # numbered by first row


def test_average_linkage_small_and_zero_rows() -> None:
    assert average_linkage_groups(np.zeros((0, 3)), 0.25).tolist() == []
    assert average_linkage_groups(np.ones((1, 3)), 0.25).tolist() == [1]
    groups = average_linkage_groups(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.01]]), 0.25)
    assert groups.tolist() == [1, 2, 2]  # a zero row is far from everything, not NaN


@pytest.mark.parametrize("sigma", [0.6, 1.0, 2.5])
def test_gaussian_blur_is_ndimages(sigma: float) -> None:
    x = np.random.default_rng(3).uniform(0, 1.2, (5, 21, 19, 3)).astype(np.float32)
    expected = scipy_ndimage.gaussian_filter(x, (0, sigma, sigma, 0))
    got = gaussian_blur(x, sigma, (1, 2))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)
