"""Known-answer suites for the 32 scoring cards, read from tests/data/rules/cards/<card_id>.cases.

File format: cases separated by a line ``---``.  A case is a sheet in the notation of docs/INTERFACES.md whose
comment lines carry the known answer::

    # case: corner forest
    # pins: a corner space counts once (base rulebook p.10)
    # expect: 1
    # cells: A1            (optional: exactly the cells that earned points)
    # choice: column 4     (optional: the choice reported by a choice card; "none" for None)
    side: custom
    F..........
    ...

The file's preamble (comments only) is skipped; a case without ``# pins:`` or ``# expect:`` is an
error (``tests/known_cases.py`` reads every ``.cases`` file).
"""

from __future__ import annotations

import pytest
from known_cases import DATA, KnownCase, read_folder

from rules import Sheet, parse_labels
from rules.cards import CARDS, find_card

MIN_CASES = 4
ALL_CASES = read_folder(DATA / "rules" / "cards", required=("pins", "expect"), optional=("cells", "choice"))


def test_every_card_has_a_suite() -> None:
    counts = {cid: sum(1 for c in ALL_CASES if c.path.stem == cid) for cid in CARDS}
    assert {cid for cid, n in counts.items() if n < MIN_CASES} == set()
    assert {c.path.stem for c in ALL_CASES} <= set(CARDS), "a .cases file is named after no card"


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.id)
def test_known_answer(case: KnownCase) -> None:
    sheet = Sheet.parse(case.text)
    pins = case.meta["pins"]
    result = find_card(case.path.stem).score(sheet)
    assert result.points == int(case.meta["expect"]), f"{pins}\n{result.detail}"
    assert result.points == sum(it.points for it in result.items)
    if "cells" in case.meta:
        assert result.cells == parse_labels(case.meta["cells"]), pins
    if "choice" in case.meta:
        choice = case.meta["choice"]
        assert result.choice == (None if choice.lower() == "none" else choice), pins
