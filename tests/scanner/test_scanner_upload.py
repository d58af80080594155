"""Images held in memory (uploads) decode like files; a reading exposes its look-alike groups."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

from scanner.failure import Failure
from scanner.load import decode_image, load_image
from scanner.pipeline import Reading, read_photo

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_bytes_decode_like_the_file() -> None:
    path = SAMPLES / "phone_clear_A.jpg"
    from_bytes = decode_image(path.read_bytes())
    assert isinstance(from_bytes, np.ndarray)
    np.testing.assert_array_equal(from_bytes, load_image(path))


def test_bad_bytes_are_falsy_failures() -> None:
    for data, reason in ((b"", "unreadable"), (b"not an image at all", "unreadable")):
        result = decode_image(data)
        assert isinstance(result, Failure) and not result and result.reason == reason
    empty = decode_image(b"")
    assert isinstance(empty, Failure) and "0 bytes" in empty.message


def test_a_pixel_bomb_is_refused_from_its_header() -> None:
    buffer = io.BytesIO()
    Image.new("L", (4000, 3000)).save(buffer, "PNG")  # compresses to a few kB
    result = decode_image(buffer.getvalue(), max_pixels=10_000_000)
    assert isinstance(result, Failure) and result.reason == "too_large" and "4000x3000" in result.message


def test_a_reading_names_its_look_alike_groups() -> None:
    reading = read_photo(SAMPLES / "phone_A.jpg")
    assert isinstance(reading, Reading)
    assert reading.groups and all(len(group) >= 2 for group in reading.groups)
    cells = [cell for group in reading.groups for cell in group]
    assert len(cells) == len(set(cells))  # each cell in one group at most
    printed = reading.sheet.printed.mountains | reading.sheet.printed.wasteland
    assert not printed & set(cells)
    assert reading.to_json()["groups"][0][0] == "ABCDEFGHIJK"[cells[0][0]] + str(cells[0][1] + 1)
    assert reading.canonical is not None and reading.canonical.ndim == 3
