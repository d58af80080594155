"""The one reader of the known-answer files (``tests/data/**/*.cases``).

A ``.cases`` file is a list of chunks separated by lines ``---``. A chunk holding only comments is the
file's preamble (it says what the file pins and how) and is skipped. Every other chunk is one case: a
sheet in the notation of docs/INTERFACES.md whose comment lines ``# key: value`` carry the case's name
(``case``), the rule it pins and its known answer (a key repeated on the next lines continues its
value); which keys a suite reads is the suite's business.
Comment lines with other words are left alone (they are comments), but a case lacking a key its
suite requires is an error, so a case cannot silently stop checking.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
_META = re.compile(r"#\s*(\w+)\s*:\s*(.*?)\s*$")


@dataclass(frozen=True)
class KnownCase:
    """One case of a ``.cases`` file.

    Attributes
    ----------
    path : the file it comes from.
    index : its place in the file, from 1.
    meta : the ``# key: value`` comments its suite reads.
    text : the whole chunk (comments and sheet), ready for ``Sheet.parse``.
    """

    path: Path
    index: int
    meta: Mapping[str, str]
    text: str

    @property
    def name(self) -> str:
        return self.meta["case"]

    @property
    def id(self) -> str:
        """``"<file stem>#<index>:<name>"``, the pytest id of the case."""
        return f"{self.path.stem}#{self.index}:{self.name}"


def _chunks(text: str) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip() == "---":
            chunks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    chunks.append("\n".join(current))
    return chunks


def read_cases(path: Path, *, required: Collection[str], optional: Collection[str] = ()) -> list[KnownCase]:
    """The cases of one ``.cases`` file, with the `required` and `optional` keys of each.

    Raises
    ------
    ValueError
        Naming the file and the case, if a case lacks ``case`` or a required key.
    """
    wanted = {"case", *required, *optional}
    out: list[KnownCase] = []
    for chunk in _chunks(path.read_text(encoding="utf-8")):
        lines = [line.strip() for line in chunk.splitlines() if line.strip()]
        if all(line.startswith("#") for line in lines):
            continue
        meta: dict[str, str] = {}
        for line in lines:
            m = _META.fullmatch(line)
            if m and m.group(1) in wanted:
                key, value = m.groups()
                meta[key] = f"{meta[key]} {value}" if key in meta else value  # a repeated key continues
        missing = sorted({"case", *required} - set(meta))
        if missing:
            raise ValueError(f"{path.name}: the case at {lines[0]!r} lacks {', '.join(missing)}")
        out.append(KnownCase(path, len(out) + 1, meta, chunk))
    return out


def read_folder(
    folder: Path, *, required: Collection[str], optional: Collection[str] = ()
) -> list[KnownCase]:
    """The cases of every ``.cases`` file in `folder`, files in name order."""
    return [
        case
        for path in sorted(folder.glob("*.cases"))
        for case in read_cases(path, required=required, optional=optional)
    ]
