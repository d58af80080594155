"""The debug sink: stages hand intermediate images to an optional callable, nothing else.

Library code never opens windows, prints or configures logging; the CLI passes a sink that writes
PNG files to its ``--debug DIR``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from scanner.files import write_atomic

DebugSink = Callable[[str, np.ndarray], None]


def emit(debug: DebugSink | None, name: str, image: np.ndarray) -> None:
    """Hand ``image`` to the sink under ``name`` if there is a sink."""
    if debug is not None:
        debug(name, image)


def png_writer(directory: str | Path) -> DebugSink:
    """A sink writing ``NN_name.png`` files, numbered in call order, into ``directory``.

    Parameters
    ----------
    directory : str or Path
        Created if missing.

    Returns
    -------
    callable
        ``sink(name, image)``; float images are scaled from [0, 1] to 8 bits.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    counter = [0]

    def sink(name: str, image: np.ndarray) -> None:
        img = image
        if img.dtype != np.uint8:
            img = np.clip(np.nan_to_num(img.astype(np.float64)) * 255.0, 0, 255).astype(np.uint8)
        counter[0] += 1
        ok, png = cv2.imencode(".png", img)
        if ok:  # written whole through a rename: a link planted at the name is replaced, not followed
            write_atomic(out / f"{counter[0]:02d}_{name}.png", png.tobytes())

    return sink
