"""load_image and load_photo: formats, EXIF orientation, pixel cap before decoding, reduced decode."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scanner import Failure, load_image
from scanner.load import Photo, jpeg_reduction, load_photo


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


@pytest.mark.parametrize(("min_side", "scale"), [(30, 4), (50, 2), (80, 2), (81, 1), (1000, 1)])
def test_load_photo_shrinks_a_large_jpeg_as_far_as_min_side_allows(
    tmp_path: Path, min_side: int, scale: int
) -> None:
    path = tmp_path / "p.jpg"
    cv2.imwrite(str(path), _pattern(120, 160))
    photo = load_photo(path, min_side=min_side)
    assert isinstance(photo, Photo) and photo.scale == scale
    assert photo.image.shape == (120 // scale, 160 // scale, 3)
    assert photo.image[5, 5, 0] > 200 and photo.image[5, 5, 2] < 60  # still blue at the top-left


def test_load_photo_decodes_other_formats_whole(tmp_path: Path) -> None:
    path = tmp_path / "p.png"  # a PNG decoder would decode whole and resize after: nothing to gain
    cv2.imwrite(str(path), _pattern(120, 160))
    photo = load_photo(path, min_side=10)
    assert isinstance(photo, Photo) and photo.scale == 1 and photo.image.shape == (120, 160, 3)
    assert jpeg_reduction(path.read_bytes(), 10) == 1


def test_load_photo_keeps_the_exif_turn_and_refuses_like_load_image(tmp_path: Path) -> None:
    rgb = _pattern(120, 160)[:, :, ::-1]
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "rot.jpg"
    Image.fromarray(np.ascontiguousarray(rgb)).save(path, exif=exif.tobytes(), quality=95)
    photo = load_photo(path, min_side=60)
    assert isinstance(photo, Photo) and photo.scale == 2 and photo.image.shape == (80, 60, 3)
    assert photo.image[3, 55, 0] > 200 and photo.image[3, 3, 0] < 60  # turned clockwise
    got = load_photo(path, max_pixels=1000)  # the cap is on the photo's own size, not the reduced one
    assert isinstance(got, Failure) and got.reason == "too_large"


def test_photo_positions_map_pixel_centres_both_ways(tmp_path: Path) -> None:
    # A bright dot at photo px (x, y) shows at image px to_image((x, y)) of the reduced decode.
    big = np.full((400, 600, 3), 40, np.uint8)
    cv2.circle(big, (301, 157), 6, (255, 255, 255), -1)
    path = tmp_path / "dot.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 98])
    photo = load_photo(path, min_side=150)
    assert isinstance(photo, Photo) and photo.scale == 4
    grey = photo.image[:, :, 1].astype(np.float64) - 40
    ys, xs = np.mgrid[: grey.shape[0], : grey.shape[1]]
    centre = np.array([(xs * grey).sum(), (ys * grey).sum()]) / grey.sum()
    np.testing.assert_allclose(photo.to_photo(centre), (301, 157), atol=0.5)
    np.testing.assert_allclose(photo.to_image(photo.to_photo(centre)), centre)


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
