"""Failure values: falsy, frozen, readable."""

from __future__ import annotations

import dataclasses

import pytest

from scanner import REASONS, Failure


@pytest.mark.parametrize("reason", REASONS)
def test_failure_is_falsy_and_says_why(reason: str) -> None:
    f = Failure(reason, "because")  # type: ignore[arg-type]
    assert not f
    assert str(f) == f"{reason}: because"


def test_failure_is_frozen() -> None:
    f = Failure("no_sheet", "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.reason = "too_small"  # type: ignore[misc]


def test_unknown_reason_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown failure reason"):
        Failure("sunburn", "x")  # type: ignore[arg-type]
