"""Photo in, reading out: load -> locate (or given corners) -> rectify -> sample -> classify.

:func:`read_photo` (a file) and :func:`read_image` (an image already in memory, e.g. a camera frame or
an upload) return a :class:`Reading` or a falsy :class:`scanner.failure.Failure`.  Whether a reading
with doubts may be scored is not the scanner's business: :attr:`Reading.uncertain` hands it to
:func:`rules.policy.decide`, the one scoring policy of every front end.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rules import Cell, Sheet, Terrain, cell_label, cells_label
from rules.grid import SIZE
from scanner.classify import Models, SheetReading, classify_sheet
from scanner.constants import ALTERNATIVE_PROBABILITY, CANON_PPC, MAX_PIXELS, TERRAIN_SYMBOLS, WORK_SIDE
from scanner.debug import DebugSink, emit
from scanner.failure import Failure
from scanner.files import read_file
from scanner.load import Photo, decode_photo, is_heif, load_image
from scanner.rectify import rectify
from scanner.sample import cell_patches, coin_patches, edge_strips

if TYPE_CHECKING:
    from rules.policy import UncertainSheet
    from scanner.locate import Location

__all__ = [
    "Reading",
    "alternatives_of",
    "parse_corners",
    "read_image",
    "read_location",
    "read_photo",
    "read_photo_data",
    "read_photo_sheets",
    "read_sheets",
]


@dataclass(frozen=True)
class Reading:
    """Everything read from one photo.

    Attributes
    ----------
    sheet : rules.Sheet
        The reading, ``?`` on every doubtful cell.
    guess : rules.Sheet
        The same with the most likely class on the doubtful cells (for ``--allow-doubtful``).
    confidence : (11, 11) float
        Calibrated probability of each cell's label (1.0 on printed cells).
    doubtful : tuple of str
        Labels of the ``?`` cells, e.g. ``("C4", "H10")``.
    outlines : dict
        ``{"horizontal": (10, 11), "vertical": (11, 10)}`` probabilities of a drawn outline on each
        internal edge (see :class:`scanner.sample.EdgeStrips`).
    corners : (4, 2) float
        Grid corners A1, A11, K11, K1 in photo px.
    orientation : int
        Clockwise rotation (degrees) the sheet shows in the photo.
    timings : dict
        Seconds per stage.
    doubts : tuple of str
        The locator's verdicts too close to call (which corner is A1, the printed side) and unsure
        coins, one line each; a wrong one would ruin the whole score, so scoring refuses them like ``?``
        cells.
    alternatives : Mapping[(row, col), tuple of Terrain]
        Each ``?`` cell's plausible readings, most likely first (see :func:`alternatives_of`).
    groups : tuple of tuples of (row, col)
        The drawable cells drawn alike, two or more per group (the reader pools their evidence), so
        that a person fixing one cell can fix the cells drawn like it at once.
    canonical : (H, W, 3) uint8 or None
        The rectified top-down image the cells were read from (:func:`scanner.rectify.rectify`), for
        overlays; not part of the JSON.
    """

    sheet: Sheet
    guess: Sheet
    confidence: np.ndarray
    doubtful: tuple[str, ...]
    doubtful_coins: tuple[int, ...]
    coin_states: tuple[str, ...]
    outlines: dict[str, np.ndarray]
    corners: np.ndarray
    orientation: int
    timings: dict[str, float] = field(default_factory=dict)
    probabilities: np.ndarray | None = None
    doubts: tuple[str, ...] = ()
    groups: tuple[tuple[Cell, ...], ...] = ()
    canonical: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def side(self) -> str:
        return self.sheet.side

    @property
    def coins(self) -> int:
        return self.sheet.coins

    @property
    def spent(self) -> int:
        return self.sheet.spent

    @property
    def stars(self) -> frozenset[tuple[int, int]]:
        return self.sheet.stars

    @property
    def alternatives(self) -> dict[Cell, tuple[Terrain, ...]]:
        cells = self.sheet.unknown  # the '?' cells, the same as ``doubtful``
        if self.probabilities is None:  # only the guess is known
            return {cell: (self.guess[cell],) for cell in cells}
        return alternatives_of(self.probabilities, cells)

    @property
    def uncertain(self) -> UncertainSheet:
        """The reading as :func:`rules.policy.decide` weighs it: the guess, each ``?`` cell's plausible
        terrains and the whole-sheet doubts (side, A1 corner, coins); a machine's reading, so the policy
        checks that it does not contradict itself."""
        from rules.policy import UncertainSheet  # the policy and its cards only when asked

        return UncertainSheet(self.guess, self.alternatives, self.doubts, from_photo=True)

    def to_json(self) -> dict[str, Any]:
        """The ``scan --json`` object of docs/INTERFACES.md §3 plus this project's extra fields."""
        return {
            "side": self.side,
            "grid": list(self.sheet.rows),
            "coins": self.coins,
            "spent": self.spent,
            "stars": cells_label(self.stars).split(),
            "confidence": [[round(float(v), 4) for v in row] for row in self.confidence],
            "orientation": self.orientation,
            "doubtful": list(self.doubtful),
            "alternatives": {
                cell_label(cell): "".join(alts) for cell, alts in self.alternatives.items()
            },
            "warnings": list(self.doubts),
            "doubtful_coins": [i + 1 for i in self.doubtful_coins],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "outlines": {
                k: [[round(float(v), 3) for v in row] for row in a] for k, a in self.outlines.items()
            },
            "timings_ms": {k: round(v * 1000, 1) for k, v in self.timings.items()},
            "groups": [[cell_label(cell) for cell in group] for group in self.groups],
        }


def parse_corners(text: str) -> np.ndarray:
    """``"x1,y1,x2,y2,x3,y3,x4,y4"`` (A1, A11, K11, K1 corners) -> (4, 2) array.

    Raises
    ------
    ValueError
        When the text is not eight numbers.
    """
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"--corners wants eight numbers x1,y1,...,x4,y4; got {text!r}") from None
    if len(values) != 8:
        raise ValueError(
            f"--corners wants eight numbers x1,y1,...,x4,y4 (A1, A11, K11, K1), not {len(values)}"
        )
    if not all(math.isfinite(v) for v in values):
        raise ValueError("--corners wants eight finite numbers (no nan or inf)")
    return np.asarray(values, dtype=np.float64).reshape(4, 2)


def read_photo(
    path: str | Path,
    *,
    corners: np.ndarray | None = None,
    side: str | None = None,
    debug: DebugSink | None = None,
    models: Models | None = None,
) -> Reading | Failure:
    """Read one photo file of a map sheet: decoded as :func:`scanner.load.load_photo` does, then
    :func:`read_image`.

    A large JPEG is read shrunk while decoding (to :data:`scanner.constants.WORK_SIDE`); it is read
    again at full size when that fails or leaves the grid under ``CANON_PPC`` px per cell, the
    canonical image's own resolution.  `corners` and the reading's corners are in the photo's own px.

    Returns
    -------
    Reading, or a falsy Failure (``unreadable``, ``too_large``, ``no_sheet``, ...).
    """
    data = read_file(Path(path))  # read once: the full-size fall-back decodes the same bytes again
    if isinstance(data, Failure):
        return data
    heif = is_heif(path)
    return _read_shrunk(lambda min_side: decode_photo(data, min_side=min_side, heif=heif),
                        corners=corners, side=side, debug=debug, models=models)


def read_photo_data(
    data: bytes, *, max_pixels: int = MAX_PIXELS, side: str | None = None, models: Models | None = None
) -> Reading | Failure:
    """:func:`read_photo` of a photo held in memory (an upload's bytes), decoded and shrunk alike, so
    that the web page reads what the command reads; `max_pixels` caps the photo's own size."""
    return _read_shrunk(lambda min_side: decode_photo(data, min_side=min_side, max_pixels=max_pixels),
                        corners=None, side=side, debug=None, models=models)


def _read_shrunk(
    decode: Callable[[int | None], Photo | Failure],
    *,
    corners: np.ndarray | None,
    side: str | None,
    debug: DebugSink | None,
    models: Models | None,
) -> Reading | Failure:
    """Read ``decode(WORK_SIDE)``, or ``decode(None)`` (full size) when that fails or leaves the grid
    under ``CANON_PPC`` px per cell; positions in the photo's own px."""

    def read(photo: Photo, started: float) -> Reading | Failure:
        given = None if corners is None else photo.to_image(corners)
        reading = read_image(photo.image, corners=given, side=side, debug=debug, models=models,
                             timings={"load": time.perf_counter() - started})
        if isinstance(reading, Failure) or photo.scale == 1:
            return reading
        return replace(reading, corners=photo.to_photo(reading.corners))

    t = time.perf_counter()
    photo = decode(WORK_SIDE)
    if isinstance(photo, Failure):
        return photo
    reading = read(photo, t)
    if photo.scale == 1 or (
        isinstance(reading, Reading) and _grid_pitch(reading.corners) >= CANON_PPC * photo.scale
    ):
        return reading
    t = time.perf_counter()
    photo = decode(None)
    return photo if isinstance(photo, Failure) else read(photo, t)


def _grid_pitch(corners: np.ndarray) -> float:
    """Mean side of the grid quadrilateral (A1, A11, K11, K1 corners) per cell, in px."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    return float(sides.mean()) / SIZE


def read_image(
    image: np.ndarray,
    *,
    corners: np.ndarray | None = None,
    side: str | None = None,
    debug: DebugSink | None = None,
    models: Models | None = None,
    timings: dict[str, float] | None = None,
) -> Reading | Failure:
    """Read a map sheet from an image in memory (a camera frame, an upload).

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR, upright as the camera saw it (EXIF already applied).
    corners : (4, 2), optional
        Grid corners A1, A11, K11, K1 in image px, instead of searching the image; they are still
        snapped to the printed lines, and side and orientation are read from the print.
    side : ``"A"``..``"D"``, optional; overrides the side the locator found.
    debug : optional sink for intermediate images.
    models : optional loaded models (default: the committed ones, loaded once).
    timings : optional seconds already spent (e.g. ``{"load": ...}``); the stages' are added.

    Returns
    -------
    Reading, or a falsy Failure (``no_sheet``, ``too_small``, ``cut_off``, ...).
    """
    timings = dict(timings or {})
    t = time.perf_counter()
    checked = _bgr(image)
    if isinstance(checked, Failure):
        return checked
    image = checked
    h, w = image.shape[:2]
    if corners is not None:
        given = np.asarray(corners, dtype=np.float64)
        if given.shape != (4, 2) or not np.all((given >= -0.5 * max(h, w)) & (given <= 1.5 * max(h, w))):
            return Failure("no_sheet", "the given corners lie far outside the photo")
    # The locator is the heaviest import; only load it when a photo is read.
    from scanner.locate import locate_from_corners, locate_sheet

    location = (
        locate_sheet(image, debug=debug)
        if corners is None
        else locate_from_corners(image, given, debug=debug)
    )
    timings["locate"] = time.perf_counter() - t
    if isinstance(location, Failure):
        return location
    return read_location(image, location, side=side, debug=debug, models=models, timings=timings)


def read_sheets(
    image: np.ndarray,
    *,
    side: str | None = None,
    debug: DebugSink | None = None,
    models: Models | None = None,
    timings: dict[str, float] | None = None,
) -> tuple[Reading, ...] | Failure:
    """Read every map sheet in an image (an organiser's photo of a table), left to right.

    Parameters are those of :func:`read_image`; `side` applies to every sheet.

    Returns
    -------
    tuple of Reading, one per sheet found (one for a photo of one sheet), in the order of the
    grids' centres from the image's left edge; or a falsy Failure as :func:`read_image`'s (never
    ``several_sheets``).
    """
    from scanner.locate import locate_sheets

    timings = dict(timings or {})
    checked = _bgr(image)
    if isinstance(checked, Failure):
        return checked
    image = checked
    t = time.perf_counter()
    found = locate_sheets(image, debug=debug)
    timings["locate"] = time.perf_counter() - t
    if isinstance(found, Failure):
        return found
    return tuple(
        read_location(image, location, side=side, debug=debug, models=models, timings=timings)
        for location in found
    )


def read_photo_sheets(
    path: str | Path, *, side: str | None = None, models: Models | None = None
) -> tuple[Reading, ...] | Failure:
    """:func:`read_sheets` of a photo file, decoded at full size (several sheets share the frame, each
    small in it, so :func:`read_photo`'s shrunk decode would rarely hold)."""
    t = time.perf_counter()
    image = load_image(path)
    if isinstance(image, Failure):
        return image
    return read_sheets(image, side=side, models=models, timings={"load": time.perf_counter() - t})


def _bgr(image: np.ndarray) -> np.ndarray | Failure:
    # the image as the stages want it: three uint8 channels (a grey frame or scan is repeated)
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 2:
        return Failure("unreadable", f"not a BGR uint8 image (shape {image.shape}, dtype {image.dtype})")
    return image


def read_location(
    image: np.ndarray,
    location: Location,
    *,
    side: str | None = None,
    debug: DebugSink | None = None,
    models: Models | None = None,
    timings: dict[str, float] | None = None,
) -> Reading:
    """Read the sheet at a found :class:`scanner.locate.Location` of a BGR uint8 image (the stages
    after the locator: rectify, sample, classify, assemble)."""
    timings = dict(timings or {})
    found = np.asarray(location.corners, dtype=np.float64)
    orientation = int(location.orientation)
    crossings = location.crossings
    sheet_side = side or location.side
    t = time.perf_counter()
    canonical = rectify(image, found, crossings=crossings)
    timings["rectify"] = time.perf_counter() - t
    emit(debug, "canonical", canonical)
    t = time.perf_counter()
    cells = cell_patches(canonical)
    coins = coin_patches(canonical)
    strips = edge_strips(canonical)
    timings["sample"] = time.perf_counter() - t
    t = time.perf_counter()
    reading = classify_sheet(
        cells, sheet_side, coin_patches=coins, edge_strips=strips._asdict(), models=models
    )
    timings["classify"] = time.perf_counter() - t
    if "coin track" in location.cut:
        # the coins lie past the photo's edge: nothing was read there (Location.doubts says so)
        reading = replace(reading, coins=0, spent=0, coin_states=("unknown",) * len(reading.coin_states),
                          doubtful_coins=())
    if debug is not None:
        emit(debug, "reading", overlay(canonical, reading))
    # A side given by hand settles the side; the A1 corner can only be settled by the print.
    doubts = tuple(d for d in location.doubts() if not (side and d.startswith("printed side")))
    return assemble(reading, found, orientation, timings, doubts, canonical=canonical)


def assemble(
    reading: SheetReading,
    corners: np.ndarray,
    orientation: int,
    timings: dict[str, float],
    doubts: tuple[str, ...] = (),
    *,
    canonical: np.ndarray | None = None,
) -> Reading:
    """Turn the classifier's reading into a :class:`Reading` with its rules.Sheet.

    Unsure coins join ``doubts``: coins have no ``?`` in the notation, and a misread coin would change
    every season's score without a trace."""
    coins = min(reading.coins, 14 - reading.spent)
    if reading.doubtful_coins:
        which = ", ".join(str(i + 1) for i in reading.doubtful_coins)
        doubts = (*doubts, f"coin track unclear at coin(s) {which} (read as {coins} coins, "
                           f"{reading.spent} spent)")
    sheet = Sheet(reading.grid, side=reading.side, coins=coins, spent=reading.spent, stars=reading.stars)
    best = reading.probabilities.argmax(axis=-1)
    guess_rows = [
        "".join(TERRAIN_SYMBOLS[best[r, c]] if ch == "?" else ch for c, ch in enumerate(row))
        for r, row in enumerate(reading.grid)
    ]
    guess = sheet.replace({(r, c): guess_rows[r][c] for r, c in sheet.unknown})
    return Reading(
        sheet=sheet,
        guess=guess,
        confidence=reading.confidence,
        doubtful=reading.doubtful,
        doubtful_coins=reading.doubtful_coins,
        coin_states=reading.coin_states,
        outlines=reading.outlines,
        corners=corners,
        orientation=orientation,
        timings=timings,
        probabilities=reading.probabilities,
        doubts=doubts,
        groups=reading.groups,
        canonical=canonical,
    )


def alternatives_of(
    probabilities: np.ndarray, cells: Sequence[Cell], minimum: float = ALTERNATIVE_PROBABILITY
) -> dict[Cell, tuple[Terrain, ...]]:
    """The plausible terrains of `cells`: classes with probability >= `minimum`, most likely first.

    Parameters
    ----------
    probabilities : (11, 11, 8) float over :data:`scanner.classify.TERRAIN_CLASSES`.
    cells : (row, col) cells to look at.
    minimum : smallest probability of a plausible class; the most likely class is always kept.

    Returns
    -------
    dict mapping each cell to a non-empty tuple of :class:`rules.Terrain`.
    """
    out: dict[Cell, tuple[Terrain, ...]] = {}
    for r, c in cells:
        p = probabilities[r, c]
        order = [int(k) for k in np.argsort(-p, kind="stable")]  # ties: the lower class, like argmax
        keep = order[:1] + [k for k in order[1:] if p[k] >= minimum]
        out[(r, c)] = tuple(Terrain(TERRAIN_SYMBOLS[k]) for k in keep)
    return out


def overlay(canonical: np.ndarray, reading: SheetReading) -> np.ndarray:
    """The canonical image with each cell's label written on it (red for ``?``), for --debug."""
    import cv2

    from scanner.constants import CANON_MARGIN, CANON_PPC

    out = canonical.copy()
    o = round(CANON_MARGIN * CANON_PPC)
    for r, row in enumerate(reading.grid):
        for c, ch in enumerate(row):
            colour = (0, 0, 255) if ch == "?" else (160, 0, 0)
            pos = (o + c * CANON_PPC + 4, o + r * CANON_PPC + 16)
            cv2.putText(out, ch, pos, cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return out
