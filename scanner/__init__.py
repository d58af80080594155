"""The scanner: find the sheet in a photo, square it up, know its side and orientation, cut it up.

Stages (each a pure function; expected failures are returned as a falsy :class:`Failure`)::

    load_image(path)            -> ndarray | Failure
    locate_sheet(image)         -> Location | Failure
    locate_from_corners(image, corners) -> Location | Failure
    rectify(image, corners)     -> canonical ndarray
    cell_patches / coin_patches / edge_strips (canonical) -> arrays
"""

from scanner.failure import REASONS, Failure
from scanner.load import load_image
from scanner.locate import Location, locate_from_corners, locate_sheet
from scanner.orient import Orientation, judge
from scanner.rectify import rectify
from scanner.sample import EdgeStrips, cell_patches, coin_patches, edge_strips

__all__ = [
    "REASONS",
    "EdgeStrips",
    "Failure",
    "Location",
    "Orientation",
    "cell_patches",
    "coin_patches",
    "edge_strips",
    "judge",
    "load_image",
    "locate_from_corners",
    "locate_sheet",
    "rectify",
]
