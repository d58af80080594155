"""The card registry (facts from ``rules/data/cards.json``, rules from the category modules), name lookup."""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType

from rules.cards import farm_water, forest, space, village
from rules.cards.model import CardScore, Category, Rule, ScoringCard, told_apart
from rules.cards.view import view_of
from rules.errors import SheetError
from rules.sheet import Sheet

__all__ = ["CARDS", "UnknownCardError", "find_card", "normalize_name", "parse_card_list", "score_all"]

_RULES: dict[str, Rule] = {**forest.RULES, **farm_water.RULES, **village.RULES, **space.RULES}

# Letters that Unicode decomposition leaves alone but a player types plainly.
_FOLD = str.maketrans({"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d"})
_ARTICLES = ("the ", "die ", "der ", "das ")


class UnknownCardError(SheetError):
    """A card name that matches no scoring card (a ``ValueError``; the message suggests the nearest)."""


def normalize_name(name: str) -> str:
    """Fold `name` for lookup: case, accents, ``ß``/``ł``/``ё``, spaces and punctuation removed.

    >>> normalize_name("Ulem's  Wallow") == normalize_name("ulems_wallow")
    True
    """
    text = name.casefold().translate(_FOLD)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[\W_]+", "", text)


# German typed without umlauts: "Huegel der Toleranz", "Aeusserste Enklave" (both spellings are found).
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def _variants(name: str) -> list[str]:
    out = []
    for form in dict.fromkeys((name, name.translate(_UMLAUTS))):
        out.append(form)
        low = form.casefold()
        out += [form[len(art) :] for art in _ARTICLES if low.startswith(art)]
    return out


@cache
def _load() -> tuple[Mapping[str, ScoringCard], Mapping[str, str]]:
    raw = json.loads(resources.files("rules").joinpath("data/cards.json").read_text(encoding="utf-8"))
    cards: dict[str, ScoringCard] = {}
    index: dict[str, str] = {}
    for entry in raw["cards"]:
        rule = _RULES[entry["id"]]
        sees, adds_over = told_apart(rule)  # KeyError: a rule without @tells_apart
        card = ScoringCard(
            id=entry["id"],
            names=MappingProxyType(dict(entry["names"])),
            aliases=tuple(entry["aliases"]),
            category=Category(entry["category"]),
            solo_value=int(entry["solo_value"]),
            card_no=entry["card_no"],
            expansion=entry["expansion"],
            text=entry["rule"],
            rule=rule,
            sees=sees,
            adds_over=adds_over,
        )
        cards[card.id] = card
        for name in (card.id, *card.names.values(), *card.aliases):
            for variant in _variants(name):
                key = normalize_name(variant)
                if index.setdefault(key, card.id) != card.id:
                    raise RuntimeError(f"card name {variant!r} is ambiguous in cards.json")
    if set(cards) != set(_RULES):
        raise RuntimeError(f"cards.json and the rule modules disagree: {sorted(set(cards) ^ set(_RULES))}")
    return MappingProxyType(cards), MappingProxyType(index)


CARDS: Mapping[str, ScoringCard] = _load()[0]


def find_card(name: str) -> ScoringCard:
    """The card called `name`: its id, English name (with or without "The"), printed de/pl/ru name or alias.

    Matching ignores case, accents and punctuation.

    Raises
    ------
    UnknownCardError
        If nothing matches; the message suggests the closest names.
    """
    _, index = _load()
    key = normalize_name(name)
    try:
        return CARDS[index[key]]
    except KeyError:
        pass
    near = difflib.get_close_matches(key, list(index), n=3, cutoff=0.6)
    ids = list(dict.fromkeys(index[k] for k in near))
    hint = f"; did you mean {' or '.join(repr(CARDS[i].name) for i in ids)}?" if ids else ""
    raise UnknownCardError(f"unknown scoring card {name.strip()!r}{hint}")


def parse_card_list(text: str) -> list[ScoringCard]:
    """Cards named in a comma-separated list, in order (``"sentinel_wood, Metropole,silos"``).

    Raises
    ------
    UnknownCardError
        On the first unknown name, or when the list is empty.
    """
    names = [part.strip() for part in text.split(",")]
    if not any(names):
        raise UnknownCardError("no scoring card named: give ids or names separated by commas")
    return [find_card(n) for n in names if n]


def score_all(sheet: Sheet, cards: list[ScoringCard] | None = None) -> dict[str, CardScore]:
    """Score `cards` (default: all 32) on `sheet`, analysing the sheet once.

    Raises
    ------
    SheetError
        If the sheet has an unreadable (``?``) cell.
    """
    view_of(sheet)  # validate once, before the first card (the view stays on the sheet)
    chosen = list(CARDS.values()) if cards is None else cards
    return {card.id: card.score(sheet) for card in chosen}
