"""Expected failures of the scanner stages, returned as falsy values rather than raised."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Reason = Literal[
    "unreadable", "too_large", "no_sheet", "too_small", "too_blurred", "cut_off", "lost", "several_sheets"
]

#: ``lost``: a followed sheet could not be followed into the next frame (``scanner.track``).
#: ``several_sheets``: more than one map sheet in the photo (``scanner.locate.locate_sheets`` finds each).
REASONS: tuple[Reason, ...] = (
    "unreadable",
    "too_large",
    "no_sheet",
    "too_small",
    "too_blurred",
    "cut_off",
    "lost",
    "several_sheets",
)


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a stage could not produce its result.

    A ``Failure`` is falsy, so ``if not (loc := locate_sheet(img)): ...`` handles every expected
    failure in one place.

    Attributes
    ----------
    reason : str
        One of :data:`REASONS` (machine-readable).
    message : str
        One readable line for a person.
    sheets : tuple of (4, 2) arrays
        With ``several_sheets``: each sheet's grid corners A1, A11, K11, K1 in photo px, so that a
        caller can read each (``--corners``); empty otherwise.
    """

    reason: Reason
    message: str
    sheets: tuple[Any, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise ValueError(f"unknown failure reason {self.reason!r}; expected one of {REASONS}")

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"
