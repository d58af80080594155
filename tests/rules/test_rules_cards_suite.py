"""Known-answer suites for the 32 scoring cards, read from tests/data/rules/cards/<card_id>.cases.

File format: cases separated by a line ``---``.  A case is a sheet in CONTRACT notation whose
comment lines carry the known answer::

    # case: corner forest
    # pins: a corner space counts once (base rulebook p.10)
    # expect: 1
    # cells: A1            (optional: exactly the cells that earned points)
    # choice: column 4     (optional: the choice reported by a choice card; "none" for None)
    side: custom
    F..........
    ...

A chunk holding only comments (the file's preamble) is skipped; any other chunk without
``# expect:`` is an error, so a case cannot silently stop checking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules import Sheet, parse_labels
from rules.cards import CARDS, find_card

DATA = Path(__file__).resolve().parents[1] / "data" / "rules" / "cards"
MIN_CASES = 4
_META = re.compile(r"#\s*(case|pins|expect|cells|choice)\s*:\s*(.*?)\s*$")


@dataclass(frozen=True)
class Case:
    card_id: str
    index: int
    name: str
    pins: str
    expect: int
    cells: str | None
    choice: str | None
    text: str

    @property
    def id(self) -> str:
        return f"{self.card_id}#{self.index}:{self.name}"


def _chunks(path: Path) -> list[str]:
    chunks, cur = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() == "---":
            chunks.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    chunks.append("\n".join(cur))
    return chunks


def load_cases(path: Path) -> list[Case]:
    """All cases of one ``.cases`` file (raises ValueError on a malformed case)."""
    out = []
    for chunk in _chunks(path):
        lines = [ln.strip() for ln in chunk.splitlines() if ln.strip()]
        if all(ln.startswith("#") for ln in lines):
            continue
        meta: dict[str, str] = {}
        for ln in lines:
            m = _META.match(ln)
            if m:
                meta[m.group(1)] = m.group(2)
        if "expect" not in meta or "pins" not in meta:
            raise ValueError(f"{path.name}: a case lacks '# expect:' or '# pins:' ({lines[:2]})")
        out.append(
            Case(
                path.stem,
                len(out) + 1,
                meta.get("case", "unnamed"),
                meta["pins"],
                int(meta["expect"]),
                meta.get("cells"),
                meta.get("choice"),
                chunk,
            )
        )
    return out


ALL_CASES = [case for path in sorted(DATA.glob("*.cases")) for case in load_cases(path)]


def test_every_card_has_a_suite() -> None:
    counts = {cid: sum(1 for c in ALL_CASES if c.card_id == cid) for cid in CARDS}
    assert {cid for cid, n in counts.items() if n < MIN_CASES} == set()
    assert {c.card_id for c in ALL_CASES} <= set(CARDS), "a .cases file is named after no card"


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.id)
def test_known_answer(case: Case) -> None:
    sheet = Sheet.parse(case.text)
    result = find_card(case.card_id).score(sheet)
    assert result.points == case.expect, f"{case.pins}\n{result.detail}"
    assert result.points == sum(it.points for it in result.items)
    if case.cells is not None:
        assert result.cells == parse_labels(case.cells), case.pins
    if case.choice is not None:
        expected = None if case.choice.lower() == "none" else case.choice
        assert result.choice == expected, case.pins
