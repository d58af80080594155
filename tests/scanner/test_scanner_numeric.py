"""scanner.numeric: the numpy stand-ins give SciPy's answers (SciPy is only imported here, in tests)."""

from __future__ import annotations

import numpy as np
import pytest

from scanner.numeric import average_linkage_groups, blur_images, byte_rank, gaussian_blur

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


def _blur_by_shifted_sums(x: np.ndarray, sigma: float, axes: tuple[int, ...]) -> np.ndarray:
    """The blur as plain numpy sums it: each axis, the taps in order in float64, stored in x's dtype."""
    radius = int(4.0 * sigma + 0.5)
    taps = np.arange(-radius, radius + 1, dtype=np.float64)
    weights = np.exp(-0.5 / sigma**2 * taps**2)
    weights /= weights.sum()
    out = x
    for axis in axes:
        pad = [(0, 0)] * x.ndim
        pad[axis] = (radius, radius)
        padded = np.pad(out.astype(np.float64), pad, mode="symmetric")
        acc = np.zeros(x.shape, np.float64)
        for k, w in enumerate(weights):
            acc += w * np.take(padded, np.arange(k, k + x.shape[axis]), axis=axis)
        out = acc.astype(x.dtype)
    return out


@pytest.mark.parametrize("seed", range(30))
def test_gaussian_blur_of_float32_is_the_in_order_sum_bit_for_bit(seed: int) -> None:
    """OpenCV's separable filter sums in another order; stored as float32 the numbers are the same (the
    coin-track doubts compare them with thresholds)."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 9)), int(rng.integers(3, 40)), int(rng.integers(3, 40)), 3)
    x = rng.uniform(0, 1.3, shape).astype(np.float32)
    sigma = (0.6, 1.0, 1.5, 2.5)[seed % 4]  # radius 2..10: some longer than a short side
    axes = ((1, 2), (2, 1), (1,), (2,), (0, 1))[seed % 5]
    np.testing.assert_array_equal(gaussian_blur(x, sigma, axes), _blur_by_shifted_sums(x, sigma, axes))


@pytest.mark.parametrize("seed", range(12))
def test_blur_images_blurs_each_image_as_gaussian_blur_does(seed: int) -> None:
    """The images are blurred together but each on its own: none bleeds into the next."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 9)), int(rng.integers(12, 40)), int(rng.integers(12, 40)))
    x = rng.uniform(0, 255, shape).astype(np.float32)
    sigma = (0.6, 1.0, 2.0, 2.5)[seed % 4]
    fast = blur_images(x, sigma)
    assert fast.dtype == np.float32 and fast.shape == x.shape
    np.testing.assert_allclose(fast, gaussian_blur(x, sigma, (1, 2)), atol=1e-3)


def _numpys_and_ours(seed: int) -> tuple[np.ndarray, int | None, float]:
    # an array of a random shape and dtype (ties and NaNs included), an axis and a percentile
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 9, int(rng.integers(1, 4))))
    values = rng.normal(100.0, 50.0, shape)
    if seed % 3 == 0:
        values = np.round(values / 20.0)  # ties
    dtype = (np.uint8, np.int64, np.float32, np.float64)[seed % 4]
    a = np.clip(values, 0, 255).astype(dtype) if dtype is np.uint8 else values.astype(dtype)
    if seed % 8 == 7:
        a.flat[int(rng.integers(a.size))] = np.nan  # a float dtype (7 % 4 == 3)
    axis = None if seed % 5 == 0 else int(rng.integers(len(shape)))
    q = [0, 5, 10, 25, 50, 90, 97, 100, 33.3, 87.5][seed % 10]
    return a, axis, q


@pytest.mark.parametrize("seed", range(120))
def test_median_and_percentile_are_numpys_bit_for_bit(seed: int) -> None:
    from scanner.numeric import median, percentile

    a, axis, q = _numpys_and_ours(seed)
    pairs = ((median(a, axis), np.median(a, axis)), (percentile(a, q, axis), np.percentile(a, q, axis)))
    for ours, theirs in pairs:
        assert np.asarray(ours).dtype == np.asarray(theirs).dtype
        assert np.ndim(ours) == np.ndim(theirs)
        assert isinstance(ours, np.ndarray) == isinstance(theirs, np.ndarray)
        np.testing.assert_array_equal(ours, theirs)


def test_median_of_a_list_and_of_nothing() -> None:
    from scanner.numeric import median

    assert median([3.0, 1.0, 2.0, 10.0]) == 2.5
    with pytest.warns(RuntimeWarning):
        assert np.isnan(median(np.zeros(0)))


@pytest.mark.parametrize("count", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_of_few_is_numpys_bit_for_bit(count: int, dtype: type) -> None:
    from scanner.numeric import median

    rng = np.random.default_rng(count)
    values = rng.random((3, count, 8, 8, 3)).astype(dtype) * rng.uniform(0.5, 3.0)
    values[0, :, 0, 0, 0] = 0.25  # ties
    for axis in (0, 1):
        if values.shape[axis] > 3:
            continue
        ours, theirs = median(values, axis), np.median(values, axis=axis)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        assert ours.tobytes() == theirs.tobytes()
    assert median(values, 1).tobytes() == np.median(values, axis=1).tobytes()


@pytest.mark.parametrize("seed", range(4))
def test_byte_rank_is_numpys_partition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 256, (int(rng.integers(1, 3000)),)).astype(np.uint8)
    values[: len(values) // 3] = 200  # ties, as a sheet's paper gives
    for k in {0, len(values) // 2, (len(values) - 1) // 2, len(values) - 1}:
        assert byte_rank(values, k) == int(np.partition(values, k)[k])
    assert byte_rank(values.reshape(1, -1), 0) == int(values.min())  # any shape
