"""The live camera at the table: follow the sheet, read it when it holds still, vote over frames, score.

:class:`Session` is the loop's pure part, fed one frame at a time (``session.step(frame)`` returns
the :class:`Event`\\ s that frame caused), so that tests and benchmarks drive it with synthetic videos
and no camera:

* no sheet yet (or lost): the full locator (:func:`scanner.locate.locate_sheet`) every
  :data:`LOCATE_EVERY` frames;
* a sheet: followed frame to frame (:func:`scanner.track.follow`), checked against its printed lines
  every few frames and snapped back to them when it drifts;
* a steady sheet (:func:`scanner.track.steady`): read every :data:`READ_EVERY` frames
  (:func:`front.vote.cast`), each reading a ballot; the ballots are tallied (:func:`front.vote.tally`)
  and the tally goes to the one scoring policy (:func:`rules.policy.decide`);
* the policy is asked when its verdict is wanted (:attr:`Session.verdict`: an event, the overlay), and
  again only when what it weighs changed (:meth:`Session.decided`): most ballots leave the tally as it
  was, and a decision costs a frame's time or more;
* a tally that changed is a ``reading`` event; one that stayed the same over :data:`CAPTURE_STABLE`
  ballots (or a key press, :meth:`Session.capture`, or the end of the video, :meth:`Session.finish`)
  is ``captured``.

:func:`run` drives a session from a camera or a video file, with an optional window
(:func:`has_window`); :func:`draw` is the overlay.  No printing here: the caller gets the events.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from front.vote import Ballot, cast, tally, voters
from rules.policy import Verdict, decide
from scanner.constants import TRACK_CHECK_EVERY, TRACK_DRIFT
from scanner.failure import Failure
from scanner.pipeline import Reading
from scanner.track import Track, follow, misalignment, start_track, steady

__all__ = [
    "KEYS", "Event", "LiveError", "Session", "Stats", "draw", "frames_of", "has_window", "open_source", "run",
    "score_json", "score_line",
]

READ_EVERY = 6
"""Frames between two readings of a steady sheet: five ballots a second at 30 frames per second, so
that a doubtful cell meets several different glares and hands within a couple of seconds."""

LOCATE_EVERY = 5
"""Frames between two searches of the whole frame while no sheet is followed (a search costs about
three frames' time at 720p)."""

CAPTURE_BALLOTS = 5
"""Ballots a tally needs at least before it may be captured."""

CAPTURE_STABLE = 3
"""... and the last this many tallies must agree (same grid, coins, side and stars)."""

FORGET_FRAMES = 90
"""A sheet lost for longer than this (3 s at 30 fps) may be another sheet when found: its ballots are
dropped."""

MAX_BALLOTS = 40
"""Ballots kept (the newest): older frames of a sheet that is being drawn on are out of date."""


class LiveError(ValueError):
    """A source that cannot be opened (no camera at that index, an unreadable video file)."""


@dataclass(frozen=True)
class Event:
    """Something that happened at one frame.

    Attributes
    ----------
    kind : ``"found"``, ``"lost"``, ``"reading"`` (the tally changed) or ``"captured"``.
    frame : the frame's index.
    reading : the tally (reading and captured events).
    verdict : the scoring policy's verdict on it, when cards were given.
    ballots : how many frames the tally rests on.
    message : one line for a person (why it was lost...).
    """

    kind: str
    frame: int
    reading: Reading | None = None
    verdict: Verdict | None = None
    ballots: int = 0
    message: str = ""

    def to_json(self, cards: Sequence[Any] = (), season: Any = None) -> dict[str, Any]:
        """The ``live --json`` line (docs/INTERFACES.md §3, ``live``): the ``scan --json`` object plus
        ``"frames"`` (ballots), with this project's ``"event"``, ``"frame"`` and, with cards,
        ``"verdict"`` and ``"score"`` (the ``score --json`` object) or ``"stake"`` (why it cannot be
        scored yet)."""
        out: dict[str, Any] = self.reading.to_json() if self.reading is not None else {}
        out |= {"frames": self.ballots, "event": self.kind, "frame": self.frame}
        if self.verdict is not None:
            out["verdict"] = self.verdict.outcome.value
            if self.verdict and self.verdict.sheet is not None:
                out["score"] = score_json(self.verdict, cards, season)
            else:
                out["stake"] = self.verdict.stake
        return out


def score_json(verdict: Verdict, cards: Sequence[Any], season: Any = None) -> dict[str, Any]:
    """The ``score --json`` object of a verdict that may be scored (:func:`front.results.score_json`)."""
    from front.results import score_json as sheet_json

    assert verdict.sheet is not None
    return sheet_json(verdict.sheet, list(cards), season, verdict)


def score_line(verdict: Verdict, cards: Sequence[Any], season: Any = None) -> str:
    """One line of a verdict that may be scored: the total and its parts (with a season, the two edicts
    it scores: the other cards' points would not add up to the total)."""
    score = score_json(verdict, cards, season)
    counted = score.get("season", score)
    title = f"{counted['name']} total" if "season" in score else "total"
    parts = [f"{card} {points}" for card, points in counted.get("edicts", score["cards"]).items()]
    return (f"{title} {score['total']}: {', '.join(parts)}, coins {counted['coins']}, "
            f"monsters {counted['monsters']}")


def _key(reading: Reading) -> tuple[Any, ...]:
    """What must stay the same for tallies to agree."""
    return (reading.sheet.rows, reading.coins, reading.spent, reading.side, reading.stars)


def _grey(frame: np.ndarray) -> np.ndarray:
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def _rotation(found: np.ndarray, followed: np.ndarray) -> int:
    """How many places the reader's corners are rolled against the followed ones (0: same A1)."""
    errors = [float(np.linalg.norm(np.roll(found, -k, axis=0) - followed, axis=1).sum()) for k in range(4)]
    return int(np.argmin(errors))


@dataclass
class Session:
    """The live loop's state, fed one frame at a time.

    Parameters
    ----------
    cards, season : the scoring cards (and season) for :func:`rules.policy.decide`; none: no verdict.
    allow_doubtful : passed to :func:`rules.policy.decide`.
    read_every : frames between readings of a steady sheet.
    background : read in a worker thread (a camera: the overlay keeps up while a frame is read);
        otherwise in :meth:`step` itself (a file: every run gives the same events).
    reader : ``(frame, corners, index=...) -> Ballot | Failure`` (default :func:`front.vote.cast`).
    locator : ``frame -> Location | Failure`` (default :func:`scanner.locate.locate_sheet`).
    """

    cards: Sequence[Any] = ()
    season: Any = None
    allow_doubtful: bool = False
    read_every: int = READ_EVERY
    background: bool = False
    reader: Callable[..., Ballot | Failure] = cast
    locator: Callable[[np.ndarray], Any] | None = None
    track: Track | None = None
    ballots: list[Ballot] = field(default_factory=list)
    result: Reading | None = None
    sat_out: np.ndarray | None = None  # (11, 11) cells the newest ballot did not vote on (hand, glare)
    captured: bool = False
    frame: int = -1
    status: str = "searching"
    steady_since: int | None = None
    _lost_at: int | None = None
    _last_read: int = -(10**9)
    _last_locate: int = -(10**9)
    _stable: int = 0
    _pending: Future[Ballot | Failure] | None = None
    _pool: ThreadPoolExecutor | None = None
    _decided: tuple[tuple[Any, ...], Verdict] | None = None

    # ---------------------------------------------------------------------------- the loop's step

    def step(self, frame: np.ndarray) -> list[Event]:
        """Feed the next frame (BGR uint8); returns the events it caused, oldest first."""
        self.frame += 1
        i = self.frame
        events: list[Event] = []
        grey = _grey(frame)
        if self._pending is not None and self._pending.done():
            events += self._ingest(self._pending.result(), None, grey)
            self._pending = None
        if self.track is not None:
            followed = follow(self.track, grey)
            if isinstance(followed, Failure):
                self._lose(events, followed.message)
            else:
                self.track = followed
                if i % TRACK_CHECK_EVERY == 0 and misalignment(grey, followed.corners) > TRACK_DRIFT:
                    self._snap(frame, grey, events)
        if self.track is None and i - self._last_locate >= LOCATE_EVERY:
            self._last_locate = i
            self._find(frame, grey, events)
        if self.track is None:
            self.steady_since = None
            return events
        if not steady(self.track):
            self.status, self.steady_since = "following", None
            return events
        if self.steady_since is None:
            self.steady_since = i
        self.status = "steady"
        if i - self._last_read >= self.read_every and self._pending is None:
            self._last_read = i
            corners = self.track.corners.copy()
            if self.background:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=1)
                self._pending = self._pool.submit(self.reader, frame.copy(), corners, index=i)
            else:
                events += self._ingest(self.reader(frame, corners, index=i), corners, grey)
        return events

    def capture(self) -> Event | None:
        """Capture the current tally now (a key press); None when nothing has been read yet."""
        if self.result is None:
            return None
        self.captured = True
        return Event("captured", self.frame, self.result, self.verdict, len(self.ballots))

    def finish(self) -> Event | None:
        """The end of the source: the tally is captured as it stands, unless it already was."""
        return None if self.captured else self.capture()

    def reset(self) -> None:
        """Forget the ballots (another sheet, or the sheet was drawn on)."""
        self.ballots.clear()
        self.result, self.captured, self._stable = None, False, 0
        self.sat_out = None

    def close(self) -> None:
        """Stop the reader thread, if any."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    @property
    def verdict(self) -> Verdict | None:
        """The scoring policy's verdict on the tally (None before a reading or without cards), worked out
        when asked (an event, the overlay): without a window, a ballot that changes nothing shown is not
        decided at all."""
        return self.decided(self.result) if self.result is not None and self.cards else None

    def decided(self, reading: Reading) -> Verdict:
        """:func:`rules.policy.decide` on ``reading`` with this session's cards, season and
        ``allow_doubtful``; the last verdict again when none of these changed.

        The tally of a steady sheet mostly stays the same from ballot to ballot, and a decision
        (``check``, every reading of the doubtful cells) costs 10 ms or so, at times over 100 ms, on
        the thread that draws the window.  What it weighs is compared whole: the guess, each doubtful
        cell's terrains in their order, the whole-sheet doubts, the cards, the season and the flag."""
        asked = (reading.uncertain, tuple(self.cards), self.season, self.allow_doubtful)
        if self._decided is None or self._decided[0] != asked:
            uncertain, cards, season, allow_doubtful = asked
            self._decided = (asked, decide(uncertain, cards, season, allow_doubtful=allow_doubtful))
        return self._decided[1]

    # ---------------------------------------------------------------------------- the stages

    def _lose(self, events: list[Event], why: str) -> None:
        self.track, self.status, self._lost_at = None, "searching", self.frame
        events.append(Event("lost", self.frame, message=why))

    def _find(self, frame: np.ndarray, grey: np.ndarray, events: list[Event]) -> None:
        from scanner.locate import locate_sheet

        located = (self.locator or locate_sheet)(frame)
        if isinstance(located, Failure):
            return
        started = start_track(grey, located.corners)
        if isinstance(started, Failure):
            return
        if self._lost_at is not None and self.frame - self._lost_at > FORGET_FRAMES:
            self.reset()
        self.track, self.status, self._lost_at = started, "following", None
        events.append(Event("found", self.frame))

    def _snap(self, frame: np.ndarray, grey: np.ndarray, events: list[Event]) -> None:
        """Put a drifted track back on the printed lines (or lose it)."""
        from scanner.locate import locate_from_corners

        assert self.track is not None
        snapped = locate_from_corners(frame, self.track.corners)
        if isinstance(snapped, Failure):
            started: Track | Failure = snapped
        else:  # keep the followed A1: the ballots so far are in its order
            found = np.asarray(snapped.corners, dtype=np.float64)
            started = start_track(grey, np.roll(found, -_rotation(found, self.track.corners), axis=0))
        if isinstance(started, Failure):
            self._lose(events, "the followed grid drifted off the print")
        else:
            self.track = replace(started, history=self.track.history)

    def _ingest(self, ballot: Ballot | Failure, corners: np.ndarray | None, grey: np.ndarray) -> list[Event]:
        """Count one frame's reading; the events of the new tally."""
        if isinstance(ballot, Failure) or self.track is None:
            return []
        found = ballot.reading.corners
        turned = _rotation(found, self.track.corners)
        if turned and self.ballots:
            return []  # the print says A1 is elsewhere than the ballots so far agree: not counted
        if corners is not None:  # read in this very frame: follow the print's corners from now on
            started = start_track(grey, found)
            if not isinstance(started, Failure):
                self.track = replace(started, history=self.track.history)
        self.ballots.append(ballot)
        del self.ballots[:-MAX_BALLOTS]
        before = self.result
        self.result = tally(self.ballots)
        self.sat_out = ~voters(self.ballots)[-1]
        same = before is not None and _key(before) == _key(self.result)
        self._stable = self._stable + 1 if same else 0
        n = len(self.ballots)
        if not same:
            self.captured = False
            return [Event("reading", ballot.frame, self.result, self.verdict, n)]
        if not self.captured and n >= CAPTURE_BALLOTS and self._stable >= CAPTURE_STABLE - 1:
            self.captured = True
            return [Event("captured", ballot.frame, self.result, self.verdict, n)]
        return []


# -------------------------------------------------------------------------------------------- overlay


def draw(frame: np.ndarray, session: Session, fps: float | None = None) -> np.ndarray:
    """The frame with the followed grid, each cell's tallied reading and the running score on it."""
    from front.overlay import draw_cells, photo_quads

    track = session.track
    if track is not None and session.result is not None:
        quads = photo_quads(track.corners)
        # only the grid's bounding box is drawn on: a third of a 720p frame, a third of the work
        h, w = frame.shape[:2]
        x0, y0 = np.clip(np.floor(quads.reshape(-1, 2).min(axis=0)).astype(int) - 2, 0, [w, h])
        x1, y1 = np.clip(np.ceil(quads.reshape(-1, 2).max(axis=0)).astype(int) + 3, 0, [w, h])
        out = frame.copy()
        out[y0:y1, x0:x1] = draw_cells(frame[y0:y1, x0:x1], quads - [x0, y0], session.result.sheet)
        if session.sat_out is not None:  # the last frame read did not count here: a hand, glare
            for r, c in zip(*np.nonzero(session.sat_out), strict=True):
                q = quads[r, c]
                a, b = q[0] * 0.8 + q[2] * 0.2, q[2] * 0.8 + q[0] * 0.2  # a grey slash across the cell
                cv2.line(out, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), (128, 128, 128), 1,
                         cv2.LINE_AA)
    else:
        out = frame.copy()
    if track is not None:
        colour = (60, 200, 60) if session.status == "steady" else (0, 200, 255)
        cv2.polylines(out, [np.round(track.corners).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        a1 = track.corners[0]
        cv2.circle(out, (int(a1[0]), int(a1[1])), 6, colour, -1, cv2.LINE_AA)
    lines = [_status_line(session, fps)]
    if session.result is not None:
        lines.append(_score_line(session))
    y = 28
    for text in lines:
        for ink, width in (((0, 0, 0), 4), ((255, 255, 255), 1)):
            cv2.putText(out, text, (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, ink, width, cv2.LINE_AA)
        y += 30
    return out


def _status_line(session: Session, fps: float | None) -> str:
    what = {"searching": "looking for a sheet", "following": "following (hold still to read)",
            "steady": "steady: reading"}[session.status]
    parts = [what]
    if session.ballots:
        parts.append(f"{len(session.ballots)} frame(s) read")
    if session.result is not None:
        parts.append(f"{len(session.result.doubtful)} '?'")
    if session.captured:
        parts.append("CAPTURED")
    if fps is not None:
        parts.append(f"{fps:.0f} fps")
    return " | ".join(parts)


def _score_line(session: Session) -> str:
    verdict = session.verdict
    if verdict is None:
        reading = session.result
        assert reading is not None
        return f"side {reading.side}, {reading.coins} coin(s); give --cards to score"
    if not verdict or verdict.sheet is None:
        return "not scored yet: " + verdict.stake[:90]
    return score_line(verdict, session.cards, session.season)


# -------------------------------------------------------------------------------------------- sources


def open_source(source: str) -> cv2.VideoCapture:
    """A camera (``source`` a number: its index) or a video file, opened.

    Raises
    ------
    LiveError
        When it cannot be opened.
    """
    if source.isdigit():
        cap = cv2.VideoCapture(int(source))
        if not cap.isOpened():
            raise LiveError(f"camera {source} cannot be opened (is one connected, and free?)")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, 1280)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, 720)
        return cap
    if not os.path.isfile(source):
        raise LiveError(f"{source}: no such video file (or give a camera index such as 0)")
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        raise LiveError(f"{source}: cannot read this video")
    return cap


def frames_of(cap: cv2.VideoCapture, limit: int = 0) -> Iterator[np.ndarray]:
    """The source's frames until it ends (or ``limit`` frames, when given)."""
    n = 0
    while not limit or n < limit:
        ok, frame = cap.read()
        if not ok or frame is None:
            return
        n += 1
        yield frame


def has_window() -> bool:
    """Whether a window can be shown: OpenCV built with a GUI (the headless wheel has none) and, on
    Linux, a display to show it on."""
    gui = [line for line in cv2.getBuildInformation().splitlines() if line.strip().startswith("GUI:")]
    if not gui or gui[0].split(":", 1)[1].strip().upper() in ("", "NONE"):
        return False
    on_linux = sys.platform.startswith("linux")
    return not on_linux or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


WINDOW = "cartoscan live"
KEYS = "space: capture, r: read again, q: quit"


@dataclass
class Stats:
    """What a run did: frames, seconds, and the frames per second."""

    frames: int = 0
    seconds: float = 0.0

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def run(frames: Iterator[np.ndarray], session: Session, on_event: Callable[[Event], None], *,
        window: bool = False) -> Stats:
    """Feed ``frames`` to ``session``, handing each event to ``on_event``; with ``window``, show the
    overlay and take keys (space captures, r forgets the ballots, q or Esc stops)."""
    stats = Stats()
    start = time.perf_counter()
    fps: float | None = None
    tick = start
    try:
        for frame in frames:
            for event in session.step(frame):
                on_event(event)
            stats.frames += 1
            if window:
                now = time.perf_counter()
                rate = 1.0 / max(now - tick, 1e-6)
                fps = rate if fps is None else 0.9 * fps + 0.1 * rate
                tick = now
                cv2.imshow(WINDOW, draw(frame, session, fps))
                key = cv2.waitKey(1) & 0xFF
                if key in (ord("q"), 27):
                    break
                if key == ord(" "):
                    captured = session.capture()
                    if captured is not None:
                        on_event(captured)
                if key == ord("r"):
                    session.reset()
        last = session.finish()
        if last is not None:
            on_event(last)
    finally:
        stats.seconds = time.perf_counter() - start
        session.close()
        if window:
            cv2.destroyAllWindows()
    return stats

