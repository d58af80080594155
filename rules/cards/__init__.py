"""The 32 scoring cards ("edicts") of Cartographers and Cartographers Heroes.

Each card's rule is written once, as a small function over a scoring view of the sheet, in one
module per card back (:mod:`.forest`, :mod:`.farm_water`, :mod:`.village`, :mod:`.space`); the
printed facts (names, solo values, card numbers) are data in ``rules/data/cards.json``.

>>> from rules.cards import find_card
>>> find_card("Schildwald").id
'sentinel_wood'
"""

from __future__ import annotations

from rules.cards.lookup import CARDS, UnknownCardError, find_card, normalize_name, parse_card_list, score_all
from rules.cards.model import CardScore, Category, ScoreItem, ScoringCard

__all__ = [
    "CARDS",
    "CardScore",
    "Category",
    "ScoreItem",
    "ScoringCard",
    "UnknownCardError",
    "find_card",
    "normalize_name",
    "parse_card_list",
    "score_all",
]
