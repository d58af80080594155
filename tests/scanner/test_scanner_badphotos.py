"""Photos that are not a readable sheet get the right failure reason."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scanner_fixtures import draw_page, photograph, sheet_photo

from scanner import Failure, locate_sheet

BACKGROUND = (60, 80, 100)


def blank_page() -> np.ndarray:
    img = np.full((800, 1000, 3), BACKGROUND, np.uint8)
    cv2.rectangle(img, (200, 100), (800, 700), (230, 235, 240), -1)
    return img


def chessboard() -> np.ndarray:
    img = np.full((800, 1000, 3), BACKGROUND, np.uint8)
    for i in range(8):
        for j in range(8):
            colour = (240, 240, 240) if (i + j) % 2 else (20, 20, 20)
            cv2.rectangle(img, (200 + 75 * j, 100 + 75 * i), (275 + 75 * j, 175 + 75 * i), colour, -1)
    return img


def plain_grid() -> np.ndarray:
    # an 11x11 grid with the frame but no Cartographers landmarks (another game's board)
    page, corners = draw_page("A", mountains=False, coins=False)
    return photograph(page, corners)[0]


def cut_off_right() -> np.ndarray:
    return np.ascontiguousarray(sheet_photo("A")[0][:, :600])


def cut_off_top() -> np.ndarray:
    return np.ascontiguousarray(sheet_photo("B", turn=1)[0][350:])


def heavy_blur() -> np.ndarray:
    return cv2.GaussianBlur(sheet_photo("A")[0], (0, 0), 3.0)  # ~0.07 cell


def tiny() -> np.ndarray:
    return cv2.resize(sheet_photo("A")[0], (220, 176), interpolation=cv2.INTER_AREA)  # ~7 px per cell


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (blank_page, "no_sheet"),
        (chessboard, "no_sheet"),
        (plain_grid, "no_sheet"),
        (cut_off_right, "cut_off"),
        (cut_off_top, "cut_off"),
        (heavy_blur, "too_blurred"),
        (tiny, "too_small"),
    ],
)
def test_bad_photo_reason(make, reason: str) -> None:  # type: ignore[no-untyped-def]
    got = locate_sheet(make())
    assert isinstance(got, Failure), got
    assert got.reason == reason, got


def test_grey_or_tiny_arrays_are_not_sheets() -> None:
    got = locate_sheet(np.zeros((8, 8, 3), np.uint8))
    assert isinstance(got, Failure) and got.reason == "no_sheet"
