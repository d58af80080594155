"""scanner.pipeline: a photo file and the same image in memory read alike; bad arrays are falsy."""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
