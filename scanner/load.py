"""Read a photo file into a BGR ``uint8`` array, safely.

EXIF orientation is applied (the array shows the scene upright as the phone displayed it), the pixel
count is checked from the header before decoding (decompression bombs), and a reduced decode is
available where a quarter or an eighth of the pixels suffice.
"""

from __future__ import annotations

import warnings
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from scanner.constants import MAX_PIXELS
from scanner.failure import Failure

_REDUCED_FLAGS = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
_HEIF_SUFFIXES = {".heic", ".heif"}


def image_size(path: str | Path | BinaryIO) -> tuple[int, int] | Failure:
    """Width and height from the file header, without decoding the pixels.

    Returns
    -------
    (width, height) or Failure
        ``unreadable`` when the file is missing or not an image PIL can identify, ``too_large`` when
        PIL itself refuses the header as a decompression bomb.
    """
    try:
        with warnings.catch_warnings():
            # PIL warns (DecompressionBombWarning) on big headers; the caller applies its own cap.
            warnings.simplefilter("ignore")
            with Image.open(path) as im:
                return int(im.width), int(im.height)
    except FileNotFoundError:
        return Failure("unreadable", f"no such file: {path}")
    except Image.DecompressionBombError:
        # PIL refuses headers above twice its own limit before reading any pixel
        return Failure("too_large", f"{_name(path)} announces more pixels than PIL will open")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        where = path if isinstance(path, str | Path) else "the data given"
        return Failure("unreadable", f"not an image file: {where} ({type(exc).__name__})")


def _name(path: str | Path | BinaryIO) -> str:
    return Path(path).name if isinstance(path, str | Path) else "the image"


def decode_image(data: bytes, *, max_pixels: int = MAX_PIXELS) -> np.ndarray | Failure:
    """Decode an image held in memory (an upload) like :func:`load_image` decodes a file.

    The header's pixel count is checked before any pixel is decoded; EXIF orientation is applied.

    Returns
    -------
    ndarray or Failure
        ``(H, W, 3)`` uint8 BGR, or ``Failure`` with reason ``unreadable`` or ``too_large``.
    """
    if not data:
        return Failure("unreadable", "the image is empty (0 bytes)")
    size = image_size(BytesIO(data))
    if isinstance(size, Failure):
        return size
    if size[0] * size[1] > max_pixels:
        return Failure("too_large", f"the image has {size[0]}x{size[1]} pixels, more than {max_pixels}")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        return Failure("unreadable", "cannot decode the image")
    return np.ascontiguousarray(image)


def load_image(path: str | Path, *, max_pixels: int = MAX_PIXELS, reduce: int = 1) -> np.ndarray | Failure:
    """Decode an image file to a BGR ``uint8`` array with EXIF orientation applied.

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
    path = Path(path)
    if path.suffix.lower() in _HEIF_SUFFIXES:
        return _load_heif(path, max_pixels=max_pixels, reduce=reduce)
    size = image_size(path)
    if isinstance(size, Failure):
        return size
    if size[0] * size[1] > max_pixels:
        return Failure("too_large", f"{path.name} has {size[0]}x{size[1]} pixels, more than {max_pixels}")
    image = cv2.imread(str(path), _REDUCED_FLAGS[reduce])
    if image is None or image.size == 0:
        return Failure("unreadable", f"cannot decode {path.name}")
    return np.ascontiguousarray(image)


def _load_heif(path: Path, *, max_pixels: int, reduce: int) -> np.ndarray | Failure:
    try:
        import pillow_heif  # optional: only when a HEIC file is actually given
    except ImportError:
        return Failure("unreadable", f"{path.name}: HEIC/HEIF needs the optional package pillow-heif")
    pillow_heif.register_heif_opener()
    size = image_size(path)
    if isinstance(size, Failure):
        return size
    if size[0] * size[1] > max_pixels:
        return Failure("too_large", f"{path.name} has {size[0]}x{size[1]} pixels, more than {max_pixels}")
    from PIL import ImageOps

    with Image.open(path) as im:
        rgb = ImageOps.exif_transpose(im).convert("RGB")
        if reduce > 1:
            rgb = rgb.reduce(reduce)
        return np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])
