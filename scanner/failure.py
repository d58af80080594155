"""Expected failures of the scanner stages, returned as falsy values rather than raised."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Reason = Literal["unreadable", "too_large", "no_sheet", "too_small", "too_blurred", "cut_off", "lost"]

#: ``lost``: a followed sheet could not be followed into the next frame (``scanner.track``).
REASONS: tuple[Reason, ...] = (
    "unreadable", "too_large", "no_sheet", "too_small", "too_blurred", "cut_off", "lost"
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
    """

    reason: Reason
    message: str

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise ValueError(f"unknown failure reason {self.reason!r}; expected one of {REASONS}")

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"
