"""Where the reference images are: ``--reference DIR`` or the environment variable
``CARTOSCAN_REFERENCE``, a folder holding ``sheets/`` (the real printed sheets) and ``drawing/`` (real
drawings). No path is written in the code. The images are read at run time for evaluation, never copied
into the repository or trained on.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

ENV = "CARTOSCAN_REFERENCE"


def add_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--reference DIR`` to a benchmark's options."""
    parser.add_argument("--reference", type=Path, default=None, metavar="DIR",
                        help=f"folder holding the reference images' sheets/ and drawing/ (default: ${ENV})")


def folder(given: Path | None, part: str) -> Path | None:
    """``given/part``, or ``$CARTOSCAN_REFERENCE/part`` when `given` is None, if it is a folder; else
    None, after one line saying what is skipped and how to give it."""
    root = given if given is not None else Path(os.environ[ENV]) if os.environ.get(ENV) else None
    if root is None:
        print(f"(reference {part} skipped: no reference folder; give --reference DIR or set {ENV}=DIR, "
              f"the folder holding {part}/)")
        return None
    path = root / part
    if not path.is_dir():
        print(f"(reference {part} skipped: {path} is absent)")
        return None
    return path


def sheets_to_measure(given: Path | None) -> Path | None:
    """The reference ``sheets/`` folder for a benchmark that reads nothing else (:func:`folder`), or
    None after saying there is nothing to measure without it."""
    sheets = folder(given, "sheets")
    if sheets is None:
        print("nothing to measure without the reference sheets")
    return sheets
