"""load_image: formats, EXIF orientation, pixel cap before decoding, reduced decode, bad files."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scanner import Failure, load_image


def _pattern(h: int = 60, w: int = 90) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    img[: h // 2, : w // 3] = (255, 0, 0)  # blue block top-left marks the orientation
    img[h // 2 :, 2 * w // 3 :] = (0, 0, 255)
    return img


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".webp", ".bmp", ".tiff"])
def test_formats_decode_to_bgr(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"p{suffix}"
    assert cv2.imwrite(str(path), _pattern())
    img = load_image(path)
    assert isinstance(img, np.ndarray)
    assert img.shape == (60, 90, 3) and img.dtype == np.uint8
    assert img[5, 5, 0] > 200 and img[5, 5, 2] < 60  # still blue at the top-left


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    # Orientation 6: the stored pixels must be turned 90 degrees clockwise to display upright.
    rgb = _pattern()[:, :, ::-1]
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "rot.jpg"
    Image.fromarray(np.ascontiguousarray(rgb)).save(path, exif=exif.tobytes(), quality=95)
    img = load_image(path)
    assert isinstance(img, np.ndarray)
    assert img.shape == (90, 60, 3)
    # after a clockwise turn the blue top-left block sits at the top-right
    assert img[5, 55, 0] > 200 and img[5, 55, 2] < 60
    assert img[5, 5, 0] < 60
    half = load_image(path, reduce=2)  # the reduced decode turns the photo as well
    assert isinstance(half, np.ndarray) and half.shape == (45, 30, 3)


def test_pixel_cap_refuses_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "p.png"
    cv2.imwrite(str(path), _pattern())
    got = load_image(path, max_pixels=1000)
    assert isinstance(got, Failure) and got.reason == "too_large"


def test_oversized_header_is_refused(tmp_path: Path) -> None:
    # A PNG whose header claims 100000 x 100000 pixels and carries no pixel data at all.
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    path = tmp_path / "bomb.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b""))
    got = load_image(path)
    assert isinstance(got, Failure) and got.reason == "too_large"


def test_reduced_decode_halves_the_size(tmp_path: Path) -> None:
    path = tmp_path / "p.jpg"
    cv2.imwrite(str(path), _pattern(120, 160))
    img = load_image(path, reduce=2)
    assert isinstance(img, np.ndarray) and img.shape == (60, 80, 3)


@pytest.mark.parametrize(("name", "content"), [("notes.jpg", b"this is not an image"), ("empty.png", b"")])
def test_unreadable_files(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    got = load_image(path)
    assert isinstance(got, Failure) and got.reason == "unreadable"


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    got = load_image(tmp_path / "nope.jpg")
    assert isinstance(got, Failure) and got.reason == "unreadable" and "no such file" in got.message


def test_heic_without_plugin_fails_clearly(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    try:
        import pillow_heif  # noqa: F401
    except ImportError:
        path = tmp_path / "photo.heic"
        path.write_bytes(b"\x00\x00\x00\x18ftypheic")
        got = load_image(path)
        assert isinstance(got, Failure) and got.reason == "unreadable" and "pillow-heif" in got.message
    else:
        pytest.skip("pillow-heif is installed; the missing-plugin message does not apply")


def test_bad_reduce_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reduce"):
        load_image(tmp_path / "x.png", reduce=3)
