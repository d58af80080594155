"""scanner.pipeline: a photo file and the same image in memory read alike; bad arrays are falsy."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scanner.constants import CONFIDENCE_THRESHOLD
from scanner.failure import Failure
from scanner.load import load_image
from scanner.pipeline import Reading, read_image, read_photo

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "phone_clear_A.jpg"


def test_an_image_in_memory_reads_like_its_file() -> None:
    image = load_image(SAMPLE)
    assert isinstance(image, np.ndarray)
    from_file = read_photo(SAMPLE)
    in_memory = read_image(image)
    assert isinstance(from_file, Reading) and isinstance(in_memory, Reading)
    assert in_memory.sheet == from_file.sheet and in_memory.doubts == from_file.doubts
    assert "load" in from_file.timings and "load" not in in_memory.timings
    # The policy's view of the reading carries the guess, the '?' cells' readings and the doubts.
    uncertain = in_memory.uncertain
    assert uncertain.guess == in_memory.guess and uncertain.doubtful == in_memory.doubtful


def test_a_grey_image_is_read_as_three_channels() -> None:
    image = load_image(SAMPLE)
    assert isinstance(image, np.ndarray)
    grey = image.mean(axis=2).astype(np.uint8)
    assert isinstance(read_image(grey), Reading)


def test_arrays_that_are_not_images_are_falsy_failures() -> None:
    bad_arrays = (np.zeros((10, 10, 3), np.float32), np.zeros((10, 10, 4), np.uint8), np.zeros((1, 5, 3)))
    for bad in bad_arrays:
        result = read_image(bad)
        assert isinstance(result, Failure) and not result and result.reason == "unreadable"


def _photo_of(image: np.ndarray, path: Path) -> Path:
    import cv2

    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return path


def _reads_alike(reading: Reading, sample: Reading) -> None:
    """The same doubts, best guess everywhere and odds within 0.1 where either reading is sure (0.2 where
    both doubt: the 2026-12-08 net reads phone_clear_A's J8 forest at 0.84 and, from the large photo, at
    0.69); a cell right at the `?` cut may tip either way, every other cell reads the same."""
    assert reading.doubts == sample.doubts
    assert reading.probabilities is not None and sample.probabilities is not None
    assert (reading.probabilities.argmax(-1) == sample.probabilities.argmax(-1)).all()
    sure = np.maximum(reading.probabilities.max(-1), sample.probabilities.max(-1)) >= CONFIDENCE_THRESHOLD
    np.testing.assert_allclose(reading.probabilities[sure], sample.probabilities[sure], atol=0.1)
    np.testing.assert_allclose(reading.probabilities, sample.probabilities, atol=0.2)
    tipped = [(a, b) for a, b in zip(str(reading.sheet), str(sample.sheet), strict=True) if a != b]
    assert len(tipped) <= 1 and all("?" in pair for pair in tipped), tipped


def test_a_large_jpeg_is_read_shrunk_and_answers_in_its_own_pixels(tmp_path: Path) -> None:
    # The sample at twice its size (3200 px): decoded at half size, it reads as the sample does, and
    # the corners come back in the large photo's own pixels.
    import cv2

    image = load_image(SAMPLE)
    assert isinstance(image, np.ndarray)
    sample = read_image(image)
    big = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    reading = read_photo(_photo_of(big, tmp_path / "big.jpg"))
    assert isinstance(sample, Reading) and isinstance(reading, Reading)
    _reads_alike(reading, sample)
    # (within 4 px: 0.03 cell, what two decodes of the same sheet leave the line fit)
    np.testing.assert_allclose(reading.corners, sample.corners * 2 + 0.5, atol=4.0)
    # corners given in the photo's pixels are taken in the photo's pixels
    given = read_photo(tmp_path / "big.jpg", corners=reading.corners)
    assert isinstance(given, Reading)
    _reads_alike(given, sample)
    np.testing.assert_allclose(given.corners, reading.corners, atol=4.0)


def test_a_sheet_small_in_a_large_jpeg_is_read_at_full_size(tmp_path: Path) -> None:
    # The sample's grid (~75 px per cell) with a wide border around it: shrunk to half, the grid would
    # fall under the canonical image's 48 px per cell, so the photo is read again at full size.
    import cv2

    image = load_image(SAMPLE)
    assert isinstance(image, np.ndarray)
    wide = cv2.copyMakeBorder(image, 500, 500, 900, 900, cv2.BORDER_REPLICATE)
    path = _photo_of(wide, tmp_path / "wide.jpg")
    full = load_image(path)
    assert isinstance(full, np.ndarray)
    expected = read_image(full)
    reading = read_photo(path)
    assert isinstance(expected, Reading) and isinstance(reading, Reading)
    assert reading.sheet == expected.sheet
    np.testing.assert_array_equal(reading.corners, expected.corners)


def test_photo_bytes_read_as_their_file(tmp_path: Path) -> None:
    # An upload's bytes go through the same shrunk decode and fall-back as the file.
    import cv2

    from scanner.pipeline import read_photo_data

    image = load_image(SAMPLE)
    assert isinstance(image, np.ndarray)
    path = _photo_of(cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), tmp_path / "b.jpg")
    from_file, from_bytes = read_photo(path), read_photo_data(path.read_bytes())
    assert isinstance(from_file, Reading) and isinstance(from_bytes, Reading)
    assert from_bytes.sheet == from_file.sheet
    np.testing.assert_array_equal(from_bytes.corners, from_file.corners)
    capped = read_photo_data(path.read_bytes(), max_pixels=1000)  # the cap is on the photo's own size
    assert isinstance(capped, Failure) and capped.reason == "too_large"
