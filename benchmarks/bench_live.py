"""The live camera on synthetic videos (``models.synth.video``), one core.

    OMP_NUM_THREADS=1 python benchmarks/bench_live.py [--speed-frames 90] [--loop-videos 1] [--videos 2]
        [--frames 150] [--screenshot docs/live_overlay.png]

Reports

* following and drawing at 720p: per frame, the grey conversion, ``scanner.track.follow`` and the
  overlay (``front.live.draw`` with a tally on it); frames per second and each part's median ms
  (a webcam delivers 30 frames per second); decoding a frame of the MJPG file, for reference;
* the whole loop as ``cartoscan live --cards ... --season winter`` runs it (``Session.step`` and the
  overlay), one video per drawing family: CPU ms per frame and frames per second, with and without
  reading the frame (a camera reads in a worker thread, so its window waits only for the rest), and
  the shares of the rest spent in ``rules.policy.decide`` (its ``check`` and ``score_spread``) and
  the tally; the frames that take a ballot (follow, tally, decide, overlay) are the slow ones;
* time from a steady sheet to its first reading: frames from the start of the first hold to the first
  ``reading`` event, and the seconds the frame that read it took (read, tally, verdict);
* the vote's gain per drawing family (``models.synth.style.TRAINABLE_FAMILIES``): cells right (not ``?`` and
  equal to the truth), ``?`` and wrong after the first frame read, on the average single frame read,
  and after the vote at the end of the video.

The videos are made in memory (seed 1000 + k per family), frames as the renderer draws them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from front.live import Session, draw
from front.vote import cast, tally
from models.synth.style import TRAINABLE_FAMILIES
from models.synth.video import make_video, write_video
from rules import Sheet
from rules.policy import Verdict
from scanner.constants import STEADY_FRAMES
from scanner.failure import Failure
from scanner.pipeline import Reading
from scanner.track import follow, start_track

CARDS = "sentinel_wood,canal_lake,wildholds,borderlands"


def _counts(reading: Reading, truth: Sheet) -> tuple[int, int, int]:
    """(right, '?', wrong) over the 121 cells."""
    right = unsure = wrong = 0
    for r in range(11):
        for c in range(11):
            got = str(reading.sheet[r, c])
            if got == "?":
                unsure += 1
            elif got == str(truth[r, c]):
                right += 1
            else:
                wrong += 1
    return right, unsure, wrong


def speed(frames: int) -> None:
    video = make_video(1, frames=frames)
    images = [video.frame(i) for i in range(len(video))]
    session = Session()
    for image in images:  # one pass to have a tally to draw
        session.step(image)
    if session.result is None:
        print("no reading on the speed video; overlay timed without cells")
    grey0 = cv2.cvtColor(images[0], cv2.COLOR_BGR2GRAY)
    track = start_track(grey0, video.corners[0])
    assert not isinstance(track, Failure)
    t_grey, t_follow, t_draw, cpu = [], [], [], []
    for image in images[1:]:
        c0 = time.process_time()
        t0 = time.perf_counter()
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        t1 = time.perf_counter()
        followed = follow(track, grey)
        t2 = time.perf_counter()
        if isinstance(followed, Failure):
            track = start_track(grey, video.corners[images.index(image)])  # type: ignore[assignment]
            continue
        track = followed
        session.track = track
        draw(image, session, 30.0)
        t3 = time.perf_counter()
        cpu.append(time.process_time() - c0)
        t_grey.append(t1 - t0)
        t_follow.append(t2 - t1)
        t_draw.append(t3 - t2)
    per_frame = [a + b + c for a, b, c in zip(t_grey, t_follow, t_draw, strict=True)]
    with tempfile.TemporaryDirectory() as tmp:
        write_video(make_video(1, frames=30), tmp, "clip")
        cap = cv2.VideoCapture(str(Path(tmp) / "clip.avi"))
        t_decode = []
        while True:
            t = time.perf_counter()
            ok, _ = cap.read()
            if not ok:
                break
            t_decode.append(time.perf_counter() - t)
        cap.release()
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    print(f"following + drawing, 1280x720, one core: {1.0 / statistics.mean(per_frame):6.1f} frames/s "
          f"(median frame {ms(per_frame):.1f} ms: grey {ms(t_grey):.1f}, follow {ms(t_follow):.1f}, "
          f"draw {ms(t_draw):.1f}); {len(per_frame)} frames")
    print(f"  the same in CPU time (one thread; wall time above suffers from other processes): "
          f"{1.0 / statistics.mean(cpu):6.1f} frames/s, median {ms(cpu):.1f} ms; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"decoding one MJPG 720p frame: median {ms(t_decode):.1f} ms")
    # one reading of a steady frame: read_image with the followed corners, looks, hands, the tally
    held = [i for i in range(len(video)) if not video.moving[max(0, i - 5) : i + 1].any()][:5]
    r_cpu, r_wall = [], []
    for i in held:
        c0, t0 = time.process_time(), time.perf_counter()
        ballot = cast(images[i], video.corners[i], index=i)
        if not isinstance(ballot, Failure):
            tally([*session.ballots, ballot])
        r_cpu.append(time.process_time() - c0)
        r_wall.append(time.perf_counter() - t0)
    print(f"one reading of a steady frame (read, looks, hand, tally): median {ms(r_cpu):.0f} ms CPU, "
          f"{ms(r_wall):.0f} ms wall; the first comes {STEADY_FRAMES} frames after the sheet stops "
          f"({STEADY_FRAMES / 30:.2f} s at 30 fps) plus that")


def _timed(spent: dict[str, list[float]], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, adding the CPU seconds of each call to ``spent[name]``."""
    def timed(*args: Any, **kwargs: Any) -> Any:
        c0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent.setdefault(name, []).append(time.process_time() - c0)
    return timed


class _EveryBallot(Session):
    """The session as it was before its verdict was kept and worked out when asked: the policy asked once
    on every ballot."""

    def _ingest(self, ballot: Any, corners: Any, grey: np.ndarray) -> list[Any]:
        before = self.result
        self._decided = None
        events = super()._ingest(ballot, corners, grey)
        if self.result is not before:  # a ballot counted: a new tally
            _ = self.verdict
        return events


def loop(videos: int, frames: int, families: tuple[str, ...] = TRAINABLE_FAMILIES) -> None:
    """Every frame through ``Session.step`` and ``draw`` with cards and a season, as ``live`` does; each
    video twice, interleaved: the policy asked on every ballot, and only when what it weighs changed."""
    import front.live
    import rules.policy
    from rules.cards import parse_card_list
    from rules.season import Season

    variants = {"every ballot": (_EveryBallot, True), "on change": (Session, True),
                "on change, no window": (Session, False)}
    spent: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    per_frame: dict[str, dict[str, list[float]]] = {name: {"all": [], "ballot": [], "other": []}
                                                    for name in variants}
    verdicts: dict[str, list[Verdict | None]] = {name: [] for name in variants}
    parts = ((front.live, "decide"), (front.live, "tally"), (rules.policy, "suspect_findings"),
             (rules.policy, "score_spread"))
    saved = [getattr(module, name) for module, name in parts]
    try:
        for family in families:
            for k in range(videos):
                video = make_video(1000 + k, frames=frames, family=family)
                for variant, (kind, window) in variants.items():
                    times, frame_times = spent[variant], per_frame[variant]
                    for (module, name), fn in zip(parts, saved, strict=True):
                        setattr(module, name, _timed(times, name, fn))
                    session = kind(cards=parse_card_list(CARDS), season=Season.parse("winter"),
                                   reader=_timed(times, "read", cast))
                    for i in range(len(video)):
                        image = video.frame(i)
                        read_before = len(times.get("read", ()))
                        c0 = time.process_time()
                        events = session.step(image)
                        if window:
                            draw(image, session, 30.0)
                        took = time.process_time() - c0
                        verdicts[variant] += [event.verdict for event in events if event.reading is not None]
                        if len(times.get("read", ())) > read_before:
                            took -= times["read"][-1]  # read in the camera's worker thread
                            frame_times["ballot"].append(took)
                        else:
                            frame_times["other"].append(took)
                        frame_times["all"].append(took)
    finally:
        for (module, name), fn in zip(parts, saved, strict=True):
            setattr(module, name, fn)
    ms = lambda xs: 1000 * statistics.median(xs) if xs else float("nan")  # noqa: E731
    same = all(got == verdicts["every ballot"] for got in verdicts.values())
    print(f"the whole loop (step + overlay) with --cards and --season winter, {len(families) * videos} "
          f"videos of {frames} frames, 1280x720, CPU time, each video with the policy asked on every "
          f"ballot, only on a change, and only on a change and when asked (no window: for the events); "
          f"the same verdicts in the events: {'yes' if same else 'NO'}")
    for variant in variants:
        times, frame_times = spent[variant], per_frame[variant]
        n, rest, read = len(frame_times["all"]), sum(frame_times["all"]), sum(times.get("read", ()))
        share = lambda key: 100 * sum(times.get(key, ())) / rest  # noqa: E731,B023
        calls = lambda key: len(times.get(key, ()))  # noqa: E731,B023
        decides = times.get("decide", [])
        print(f"{variant}:")
        print(f"  reading in the loop (a video file): {n / (rest + read):6.1f} frames/s, "
              f"{1000 * (rest + read) / n:.1f} ms a frame; reading is {100 * read / (rest + read):.0f} % "
              f"({calls('read')} frames read, {ms(times.get('read', [])):.0f} ms each)")
        print(f"  the rest (the loop's own thread: a camera reads in a worker thread): {n / rest:6.1f} "
              f"frames/s, {1000 * rest / n:.1f} ms a frame, median {ms(frame_times['all']):.1f} ms")
        print(f"    decide {share('decide'):.1f} % of it ({calls('decide')} calls for {calls('tally')} "
              f"ballots, median {ms(decides):.1f} ms, slowest {1000 * max(decides, default=0):.0f} ms): "
              f"check {share('suspect_findings'):.1f} %, score_spread {share('score_spread'):.1f} %; "
              f"tally {share('tally'):.1f} %")
        print(f"    a frame that takes a ballot (follow, tally, decide, overlay if any): median "
              f"{ms(frame_times['ballot']):.1f} ms, slowest "
              f"{1000 * max(frame_times['ballot'], default=0):.0f} ms; the others median "
              f"{ms(frame_times['other']):.1f} ms")


def vote_gain(videos: int, frames: int, families: tuple[str, ...] = TRAINABLE_FAMILIES) -> None:
    from rules.cards import parse_card_list

    cards = parse_card_list(CARDS)
    print(f"{'family':<11} {'videos':>6}  first frame read (right/?/wrong)   one frame, mean            "
          "after the vote            ballots  steady->read frames  read s")
    total: dict[str, list[np.ndarray]] = {"first": [], "single": [], "vote": []}
    for family in families:
        rows: dict[str, list[np.ndarray]] = {"first": [], "single": [], "vote": []}
        ballots, delays, seconds = [], [], []
        for k in range(videos):
            video = make_video(1000 + k, frames=frames, family=family)
            hold = int(np.argmax(~video.moving))
            session = Session(cards=cards)
            first_at = None
            for i in range(len(video)):
                t = time.perf_counter()
                events = session.step(video.frame(i))
                spent = time.perf_counter() - t
                if first_at is None and any(e.kind == "reading" for e in events):
                    first_at = i
                    seconds.append(spent)
                    delays.append(i - hold)
            if session.result is None:
                print(f"{family}: video {1000 + k}: never read")
                continue
            singles = np.array([_counts(b.reading, video.sheet) for b in session.ballots])
            rows["first"].append(singles[0])
            rows["single"].append(singles.mean(axis=0))
            rows["vote"].append(np.array(_counts(session.result, video.sheet)))
            ballots.append(len(session.ballots))
        for key in rows:
            total[key] += rows[key]
        fmt = lambda xs: "/".join(f"{v:5.1f}" for v in np.mean(xs, axis=0)) if xs else "-"  # noqa: E731
        print(f"{family:<11} {len(rows['vote']):>6}  {fmt(rows['first']):<32} {fmt(rows['single']):<26} "
              f"{fmt(rows['vote']):<25} {np.mean(ballots) if ballots else 0:7.1f}  "
              f"{np.median(delays) if delays else float('nan'):19.0f}  "
              f"{np.median(seconds) if seconds else float('nan'):6.2f}")
    fmt_all = lambda xs: "/".join(f"{v:5.1f}" for v in np.mean(xs, axis=0))  # noqa: E731
    print(f"{'all':<11} {len(total['vote']):>6}  {fmt_all(total['first']):<32} "
          f"{fmt_all(total['single']):<26} {fmt_all(total['vote']):<25}")


def screenshot(path: Path) -> None:
    """The overlay at two moments of one video, side by side at half size: a hand over the sheet while
    the frames are voted on, and the captured reading with its score."""
    from rules.cards import parse_card_list
    from rules.season import Season

    video = make_video(1001, frames=150, family="color_icon")
    session = Session(cards=parse_card_list(CARDS), season=Season.parse("winter"))
    busy = max(range(len(video)), key=lambda i: int(video.covered(i).sum()))
    shots = []
    for i in range(len(video)):
        frame = video.frame(i)
        session.step(frame)
        if i in (busy, len(video) - 1):
            shots.append(draw(frame, session, 30.0))
    half = [cv2.resize(s, (s.shape[1] // 2, s.shape[0] // 2), interpolation=cv2.INTER_AREA) for s in shots]
    cv2.imwrite(str(path), np.hstack(half))
    print(f"wrote {path} (frames {busy} and {len(video) - 1} of video 1001)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--speed-frames", type=int, default=90, help="frames of the speed video (0: skip)")
    ap.add_argument("--videos", type=int, default=2, help="videos per drawing family (0: skip)")
    ap.add_argument("--frames", type=int, default=150, help="frames per video (vote, loop)")
    ap.add_argument("--loop-videos", type=int, default=1,
                    help="videos per drawing family for the whole loop with cards (0: skip)")
    ap.add_argument("--families", default=",".join(TRAINABLE_FAMILIES),
                    help="drawing families, comma-separated (default: those a training-split hand draws, "
                         "the videos' split)")
    ap.add_argument("--screenshot", type=Path, default=None, help="write the overlay screenshot PNG here")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.screenshot:
        screenshot(args.screenshot)
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("note: set OMP_NUM_THREADS=1 for one-core figures")
    if args.speed_frames:
        speed(args.speed_frames)
    if args.loop_videos:
        loop(args.loop_videos, args.frames, tuple(args.families.split(",")))
    if args.videos:
        vote_gain(args.videos, args.frames, tuple(args.families.split(",")))


if __name__ == "__main__":
    main()
