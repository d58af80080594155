"""Read a photo file into a BGR ``uint8`` array, safely.

EXIF orientation is applied (the array shows the scene upright as the phone displayed it), the pixel
count is checked from the header before decoding (decompression bombs), and a reduced decode is
available where a quarter or an eighth of the pixels suffice: :func:`load_photo` lets libjpeg shrink a
large JPEG while decoding it (a 12 MP photo decodes in half the time at half the side) and says by how
much, so that positions can be given in the photo's own pixels.

Hostile files are expected failures, not hangs or noise: only regular files are opened (a FIFO or a
device would block or never end), at most :data:`scanner.constants.MAX_FILE_BYTES` are read, a JPEG or
PNG cut short is named as such before decoding, and what the decoders print on the process's stderr
(libjpeg's "Corrupt JPEG data" and friends) is caught around the decode instead of leaking.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

import cv2
import numpy as np

from scanner.constants import MAX_PIXELS, WORK_SIDE
from scanner.failure import Failure
from scanner.files import read_file

_REDUCED_FLAGS = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
_HEIF_SUFFIXES = {".heic", ".heif"}


def cut_short(data: bytes) -> str:
    """Why `data` is a JPEG or PNG file cut short ('' when it is whole, or another format).

    A JPEG must end its first scan with an end-of-image marker (bytes after it, such as a motion
    photo's video, are allowed); a PNG must hold its ``IEND`` chunk."""
    if data[:2] == b"\xff\xd8":
        sos = _first_scan(data)
        if sos < 0 or data.find(b"\xff\xd9", sos) < 0:
            return "the JPEG file is cut short (truncated)"
    elif data[:8] == b"\x89PNG\r\n\x1a\n" and data.find(b"IEND", 8) < 0:
        return "the PNG file is cut short (truncated)"
    return ""


def _first_scan(data: bytes) -> int:
    """Offset of the first start-of-scan marker of a JPEG, walking the marker segments (-1 if none)."""
    return next((at for marker, at in _jpeg_segments(data) if marker == 0xDA), -1)


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int]]:
    """``(marker, offset)`` of a JPEG's header segments, up to and including its first scan."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        yield marker, i
        if marker == 0xDA:
            return
        if 0xD0 <= marker <= 0xD9 or marker == 0x01:  # markers without a length
            i += 2
            continue
        i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")


_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # start of frame: the image's size


def _header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height read straight from a JPEG frame header or a PNG IHDR chunk (None otherwise:
    PIL is asked then; importing it and its format plugins costs more than reading a small photo)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        for marker, at in _jpeg_segments(data):
            if marker in _SOF_MARKERS and at + 9 <= len(data):
                height = int.from_bytes(data[at + 5 : at + 7], "big")
                width = int.from_bytes(data[at + 7 : at + 9], "big")
                return (width, height) if width and height else None
    return None


_STDERR_LOCK = threading.Lock()


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send what C libraries print on file descriptor 2 to a scratch file while the block runs.

    The decoders' warnings go straight to the descriptor, past Python's ``sys.stderr``; a command's
    stderr is its one error line, so they are dropped (a decode that fails is reported as a Failure)."""
    with _STDERR_LOCK, tempfile.TemporaryFile() as scratch:
        try:
            saved = os.dup(2)
        except OSError:  # no stderr at all: nothing can leak
            yield
            return
        try:
            os.dup2(scratch.fileno(), 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def image_size(path: str | Path | bytes | BinaryIO) -> tuple[int, int] | Failure:
    """Width and height from the file header (a path, or the file's bytes), without decoding the pixels.

    Returns
    -------
    (width, height) or Failure
        ``unreadable`` when the file is missing or not an image PIL can identify, ``too_large`` when
        PIL itself refuses the header as a decompression bomb.
    """
    if isinstance(path, bytes):
        size = _header_size(path)
        if size is not None:
            return size
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # PIL warns (DecompressionBombWarning) on big headers; the caller applies its own cap.
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(path) if isinstance(path, bytes) else path) as im:
                return int(im.width), int(im.height)
    except FileNotFoundError:
        return Failure("unreadable", "no such file")
    except Image.DecompressionBombError:
        # PIL refuses headers above twice its own limit before reading any pixel
        return Failure("too_large", "the file announces more pixels than PIL will open")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        return Failure("unreadable", f"not an image file ({type(exc).__name__})")


def decode_image(data: bytes, *, max_pixels: int = MAX_PIXELS, reduce: int = 1) -> np.ndarray | Failure:
    """Decode an image held in memory (an upload, or a file's bytes) to a BGR ``uint8`` array.

    The header's pixel count is checked before any pixel is decoded, a JPEG or PNG cut short is named
    as such, the decoder's complaints on stderr are caught, and EXIF orientation is applied.

    Parameters
    ----------
    data : the encoded image (JPEG, PNG, WebP, BMP, TIFF).
    max_pixels : refuse images whose header announces more pixels than this.
    reduce : {1, 2, 4, 8}; decode at 1/reduce of the width and height (JPEG decodes this much faster).

    Returns
    -------
    ndarray or Failure
        ``(H, W, 3)`` uint8 BGR, or ``Failure`` with reason ``unreadable`` or ``too_large``.
    """
    if reduce not in _REDUCED_FLAGS:
        raise ValueError(f"reduce must be one of {sorted(_REDUCED_FLAGS)}, not {reduce}")
    if not data:
        return Failure("unreadable", "the image is empty (0 bytes)")
    size = image_size(data)
    if isinstance(size, Failure):
        return size
    if size[0] * size[1] > max_pixels:
        return Failure("too_large", f"the image has {size[0]}x{size[1]} pixels, more than {max_pixels}")
    short = cut_short(data)
    if short:
        return Failure("unreadable", short)
    with _quiet_stderr():
        image = cv2.imdecode(np.frombuffer(data, np.uint8), _REDUCED_FLAGS[reduce])
    if image is None or image.size == 0:
        return Failure("unreadable", "cannot decode the image")
    return np.ascontiguousarray(image)


def jpeg_reduction(data: bytes, min_side: int) -> int:
    """The largest factor (2, 4 or 8) by which libjpeg may shrink the JPEG in `data` while decoding it
    and keep its long side at least `min_side` px; 1 when none may, and for other formats (their
    decoders decode whole and resize after: nothing gained) or a header that cannot be read.

    >>> jpeg_reduction(b"not a JPEG", 1000)
    1
    """
    size = _header_size(data) if data[:2] == b"\xff\xd8" else None
    if size is None:
        return 1
    return next((f for f in (8, 4, 2) if max(size) / f >= min_side), 1)


class Photo(NamedTuple):
    """A decoded photo and the reduction it was decoded at (see :func:`load_photo`)."""

    image: np.ndarray
    """``(H, W, 3)`` uint8 BGR, EXIF orientation applied."""
    scale: int
    """Photo px per image px: 1, or the factor libjpeg shrank the photo by while decoding it."""

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """Image px -> the photo's own px (pixel centres: image px ``i`` covers photo px ``s*i`` to
        ``s*i + s - 1``)."""
        return np.asarray(points, dtype=np.float64) * self.scale + (self.scale - 1) / 2

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """The photo's own px -> image px (the inverse of :meth:`to_photo`)."""
        return (np.asarray(points, dtype=np.float64) - (self.scale - 1) / 2) / self.scale


def load_photo(
    path: str | Path, *, min_side: int | None = WORK_SIDE, max_pixels: int = MAX_PIXELS
) -> Photo | Failure:
    """Decode a photo file as :func:`load_image` does, a large JPEG shrunk while decoding it.

    Parameters
    ----------
    path : str or Path
    min_side : int or None
        A JPEG is decoded at the largest reduction (2, 4 or 8) that keeps its long side at least this
        many px (:func:`jpeg_reduction`); other formats, and every photo when None, whole.
    max_pixels : int
        Refuse images whose header announces more pixels than this (the photo's full size).

    Returns
    -------
    Photo or Failure
        The image and its reduction, or ``Failure`` with reason ``unreadable`` or ``too_large``.
    """
    path = Path(path)
    data = read_file(path)
    if isinstance(data, Failure):
        return data
    return decode_photo(data, min_side=min_side, max_pixels=max_pixels, heif=is_heif(path))


def decode_photo(
    data: bytes, *, min_side: int | None = WORK_SIDE, max_pixels: int = MAX_PIXELS, heif: bool = False
) -> Photo | Failure:
    """:func:`load_photo` of a photo held in memory (an upload, or a file's bytes read once): see
    :func:`decode_image`; ``heif`` for HEIC/HEIF bytes (:func:`is_heif` of their file name)."""
    scale = 1 if min_side is None else jpeg_reduction(data, min_side)
    image = _decode(data, max_pixels=max_pixels, reduce=scale, heif=heif)
    return image if isinstance(image, Failure) else Photo(image, scale)


def is_heif(path: str | Path) -> bool:
    """True for a HEIC/HEIF file name (decoded through the optional ``pillow-heif``)."""
    return Path(path).suffix.lower() in _HEIF_SUFFIXES


def load_image(path: str | Path, *, max_pixels: int = MAX_PIXELS, reduce: int = 1) -> np.ndarray | Failure:
    """Decode an image file to a BGR ``uint8`` array with EXIF orientation applied.

    The file is read whole first (:func:`scanner.files.read_file`: regular files only, size capped),
    then decoded by :func:`decode_image`.

    Parameters
    ----------
    path : str or Path
        JPEG, PNG, WebP, BMP or TIFF; HEIC/HEIF when the optional ``pillow-heif`` package is installed.
    max_pixels : int
        Refuse images whose header announces more pixels than this (checked before decoding).
    reduce : {1, 2, 4, 8}
        Decode at 1/reduce of the width and height (JPEG decodes this much faster).

    Returns
    -------
    ndarray or Failure
        ``(H, W, 3)`` uint8 BGR, or ``Failure`` with reason ``unreadable`` or ``too_large``.
    """
    if reduce not in _REDUCED_FLAGS:
        raise ValueError(f"reduce must be one of {sorted(_REDUCED_FLAGS)}, not {reduce}")
    data = read_file(Path(path))
    if isinstance(data, Failure):
        return data
    return _decode(data, max_pixels=max_pixels, reduce=reduce, heif=is_heif(path))


def _decode(data: bytes, *, max_pixels: int, reduce: int, heif: bool) -> np.ndarray | Failure:
    return (_load_heif if heif else decode_image)(data, max_pixels=max_pixels, reduce=reduce)


def _load_heif(data: bytes, *, max_pixels: int, reduce: int) -> np.ndarray | Failure:
    try:
        import pillow_heif  # optional: only when a HEIC file is actually given
    except ImportError:
        return Failure("unreadable", "HEIC/HEIF needs the optional package pillow-heif")
    pillow_heif.register_heif_opener()
    size = image_size(data)
    if isinstance(size, Failure):
        return size
    if size[0] * size[1] > max_pixels:
        return Failure("too_large", f"{size[0]}x{size[1]} pixels, more than {max_pixels}")
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as im:
        rgb = ImageOps.exif_transpose(im).convert("RGB")
        if reduce > 1:
            rgb = rgb.reduce(reduce)
        return np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])
