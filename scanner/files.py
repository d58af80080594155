"""Read a small input file whole, refusing what is not a regular file or too big (no heavy imports).

Shared by the photo loader and the command line's sheet files: both must never block on a FIFO or a
device, nor read an unbounded file into memory.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from scanner.constants import MAX_FILE_BYTES
from scanner.failure import Failure

__all__ = ["read_file", "write_atomic"]


def read_file(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes | Failure:
    """The bytes of a regular file of at most `max_bytes`, or a Failure saying why not.

    The file is opened without blocking and checked on the open descriptor, so a FIFO, a device or a
    folder is refused at once (a FIFO without a writer would otherwise wait for ever).

    Returns
    -------
    bytes or Failure
        ``unreadable`` (missing, not a regular file, no permission), ``too_large`` (over `max_bytes`).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return Failure("unreadable", "no such file")
    except PermissionError:
        return Failure("unreadable", "permission denied")
    except OSError as exc:
        return Failure("unreadable", f"cannot open ({exc.strerror or type(exc).__name__})")
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            return Failure("unreadable", "a folder, not a photo")
        if not stat.S_ISREG(info.st_mode):
            return Failure("unreadable", "not a regular file (a pipe or a device?)")
        if info.st_size > max_bytes:
            return Failure("too_large", f"{info.st_size} bytes, more than the {max_bytes} allowed")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        return Failure("unreadable", f"cannot read ({exc.strerror or type(exc).__name__})")
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # grew while being read
        return Failure("too_large", f"more than the {max_bytes} bytes allowed")
    if not data:
        return Failure("unreadable", "an empty file")
    return data


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and one rename.

    A reader never sees half a file, and a symbolic link planted at `path` is replaced, never written
    through.  The file gets the usual permissions (0666 less the umask).

    Raises
    ------
    OSError
        When the folder cannot be written.
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it; put it straight back
    os.umask(mask)
    return mask

