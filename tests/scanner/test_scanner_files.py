"""scanner.files: inputs read whole only when they are regular files of bounded size; outputs written
whole through a rename, never through a planted link."""

from __future__ import annotations

import os
from pathlib import Path

from scanner.failure import Failure
from scanner.files import read_file, write_atomic


def test_read_file_refuses_what_is_not_a_small_regular_file(tmp_path: Path) -> None:
    (tmp_path / "ok").write_bytes(b"abc")
    assert read_file(tmp_path / "ok") == b"abc"
    os.mkfifo(tmp_path / "fifo")  # opening it for reading would wait for a writer for ever
    cases = {
        "fifo": ("unreadable", "not a regular file"),
        "missing": ("unreadable", "no such file"),
        ".": ("unreadable", "folder"),
    }
    for name, (reason, words) in cases.items():
        got = read_file(tmp_path / name)
        assert isinstance(got, Failure) and got.reason == reason and words in got.message, name
    (tmp_path / "big").write_bytes(b"x" * 1001)
    got = read_file(tmp_path / "big", max_bytes=1000)
    assert isinstance(got, Failure) and got.reason == "too_large"
    (tmp_path / "empty").write_bytes(b"")
    assert isinstance(read_file(tmp_path / "empty"), Failure)


def test_write_atomic_replaces_a_planted_link_and_leaves_no_scratch(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep", encoding="utf-8")
    link = tmp_path / "out.csv"
    link.symlink_to(target)
    write_atomic(link, b"new")
    assert target.read_text(encoding="utf-8") == "keep"  # not written through the link
    assert not link.is_symlink() and link.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "precious.txt"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert link.stat().st_mode & 0o777 == 0o666 & ~umask  # the usual permissions, not mkstemp's 0600
