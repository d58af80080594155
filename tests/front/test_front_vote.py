"""front.vote: hands do not vote; the tally of many frames reads better than the frame with a hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from front.vote import GLARE, Ballot, cast, hand_cover, tally, voters
from models.synth.video import Video, make_video
from scanner.failure import Failure


@pytest.fixture(scope="module")
def video() -> Video:
    return make_video(5, frames=60, size=(960, 540), family="color")


@pytest.fixture(scope="module")
def ballots(video: Video) -> list[Ballot]:
    out = []
    for i in range(10, 60, 4):
        if video.moving[i]:
            continue
        ballot = cast(video.frame(i), video.corners[i], index=i)
        assert not isinstance(ballot, Failure), ballot
        out.append(ballot)
    return out


def _right(reading, video: Video) -> int:  # type: ignore[no-untyped-def]
    return sum(reading.guess[r, c] == video.sheet[r, c] for r in range(11) for c in range(11))


def _wrong(reading, video: Video) -> int:  # type: ignore[no-untyped-def]
    return sum(reading.sheet[r, c] not in ("?", video.sheet[r, c]) for r in range(11) for c in range(11))


def test_hand_cover_finds_the_hand_and_nothing_else(video: Video) -> None:
    busy = max(range(len(video)), key=lambda i: int(video.covered(i).sum()))
    covered = video.covered(busy)
    cells, _ = hand_cover(video.frame(busy), video.corners[busy])
    found = cells >= 0.2
    assert (found & covered).sum() >= 0.8 * covered.sum()
    assert (found & ~covered).sum() <= 4
    calm = next(i for i in range(len(video)) if not video.covered(i).any() and not video.moving[i])
    cells, coins = hand_cover(video.frame(calm), video.corners[calm])
    assert cells.max() < 0.2 and coins.max() < 0.2  # red and orange fills are not a hand


def test_covered_cells_do_not_vote(video: Video, ballots: list[Ballot]) -> None:
    vote = voters(ballots)
    covered = np.stack([video.covered(b.frame) for b in ballots])
    assert covered.sum() > 20
    assert (~vote & covered).sum() >= 0.9 * covered.sum()
    assert (vote & ~covered).sum() >= 0.85 * (~covered).sum()  # glare and shadows sit out too


def test_tally_beats_the_frame_with_the_hand(video: Video, ballots: list[Ballot]) -> None:
    worst = max(ballots, key=lambda b: int(video.covered(b.frame).sum()))
    result = tally(ballots)
    singles = sorted(_right(b.reading, video) for b in ballots)
    assert _right(result, video) > _right(worst.reading, video) + 10
    assert _right(result, video) >= singles[len(singles) // 2]
    wrong = [_wrong(b.reading, video) for b in ballots]
    assert _wrong(result, video) <= sorted(wrong)[len(wrong) // 2]  # no more confident misreads than a frame
    assert result.timings["ballots"] == len(ballots)
    assert result.side == video.sheet.side


def test_a_star_needs_most_of_the_frames_that_could_see_its_cell(ballots: list[Ballot]) -> None:
    calm = min(ballots, key=lambda b: float(b.hand.sum()))
    sheet = calm.reading.sheet
    edge, mountain, drawn = (0, 8), min(sheet.printed.mountains), (5, 5)  # A9, a printed mountain, F6
    looks = calm.looks.copy()

    def ballot(k: int, stars: set[tuple[int, int]]) -> Ballot:
        # ten frames of one calm sheet; A9 and the mountain look like themselves in frames 7-9 only
        # (frames 0-3 glare over them, 4-6 a shadow), the middle cell in all of them
        own = looks.copy()
        for cell in (edge, mountain):
            if k < 7:
                own[cell] = np.full(own.shape[-1], GLARE + 0.3) if k < 4 else own[cell] * 0.3
        shown = frozenset(stars - {drawn} if k == 0 else stars)
        reading = replace(calm.reading, sheet=sheet.replace(stars=shown))
        return replace(calm, looks=own, reading=reading, frame=k)

    # two of the three frames that saw A9 and the mountain clearly saw a star there: two frames of ten
    seen = [ballot(k, {edge, mountain, drawn} if k in (7, 8) else {drawn}) for k in range(10)]
    vote = voters(seen)
    assert vote[:, edge[0], edge[1]].tolist() == [False] * 7 + [True] * 3  # the set-up: 3 voters of 10
    assert tally(seen).stars == {drawn}  # seen by 9 of 10: kept; A9 and the mountain: not
    # a star on a printed mountain seen by most frames stays (hit marks may overlap filled spaces)
    most = [ballot(k, {mountain, drawn}) for k in range(10)]
    assert tally([replace(b, looks=looks) for b in most]).stars == {mountain, drawn}
