"""The scanner: find the sheet in a photo, square it up, know its side and orientation, cut it up, read it.

Stages (each a pure function; expected failures are returned as a falsy :class:`Failure`)::

    load_image(path)            -> ndarray | Failure
    load_photo(path)            -> Photo | Failure   (a large JPEG shrunk while decoding)
    locate_sheet(image)         -> Location | Failure
    locate_from_corners(image, corners) -> Location | Failure
    rectify.rectify(image, corners) -> canonical ndarray
    cell_patches / coin_patches / edge_strips (canonical) -> arrays
    read_photo(path) / read_image(array) -> Reading | Failure   (all of the above, then the classifier)
    locate_sheets / read_photo_sheets / read_sheets: every sheet of a table photo, left to right

The names are imported on first use (PEP 562), so that ``import scanner`` (and a command that never
reads a photo) does not pay for OpenCV, onnxruntime and the locator.  ``rectify`` is not among them:
``scanner.rectify`` is its module (a lazy name cannot shadow a submodule once that is imported).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scanner.failure import REASONS, Failure
    from scanner.load import Photo, load_image, load_photo
    from scanner.locate import Location, locate_from_corners, locate_sheet, locate_sheets
    from scanner.orient import Orientation, judge
    from scanner.pipeline import Reading, read_image, read_photo, read_photo_sheets, read_sheets
    from scanner.sample import EdgeStrips, cell_patches, coin_patches, edge_strips

_WHERE = {
    "REASONS": "failure",
    "Failure": "failure",
    "load_image": "load",
    "load_photo": "load",
    "Photo": "load",
    "Location": "locate",
    "locate_from_corners": "locate",
    "locate_sheet": "locate",
    "locate_sheets": "locate",
    "Orientation": "orient",
    "judge": "orient",
    "Reading": "pipeline",
    "read_image": "pipeline",
    "read_photo": "pipeline",
    "read_photo_sheets": "pipeline",
    "read_sheets": "pipeline",
    "EdgeStrips": "sample",
    "cell_patches": "sample",
    "coin_patches": "sample",
    "edge_strips": "sample",
}

__all__ = [
    "REASONS",
    "EdgeStrips",
    "Failure",
    "Location",
    "Orientation",
    "Photo",
    "Reading",
    "cell_patches",
    "coin_patches",
    "edge_strips",
    "judge",
    "load_image",
    "load_photo",
    "locate_from_corners",
    "locate_sheet",
    "locate_sheets",
    "read_image",
    "read_photo",
    "read_photo_sheets",
    "read_sheets",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'scanner' has no attribute {name!r}")
    return getattr(importlib.import_module(f"scanner.{_WHERE[name]}"), name)


def __dir__() -> list[str]:
    return __all__
