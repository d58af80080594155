"""A sheet filmed at the table: a moving camera, a hand passing over the sheet, glare and light changes.

``make_video(seed, ...)`` plays a random legal game, renders its page once (with the page renderer,
untouched) and films it along a smooth path of poses that moves, holds still, moves and holds again,
while a hand crosses the sheet, a reflection drifts over it and the exposure breathes. Frames are made
on demand (``Video.frame(i)`` is a pure function of the seed and ``i``), so a long video costs no
memory; the truth (grid corners and the cells a hand covers, per frame) is known before any frame is
drawn. ``write_video`` stores ``<stem>.avi`` (MJPG, which every OpenCV build writes), ``<stem>.sheet``
and ``<stem>.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models.synth import scene
from models.synth.generate import THEME_WEIGHTS, SynthError, rng_for
from models.synth.paper import Page, render_page
from models.synth.play import Game, random_game
from models.synth.style import ALL_FAMILIES, HELD_OUT_FAMILIES, DrawStyle
from rules.grid import SIZE as GRID_SIZE
from rules.grid import cell_label
from rules.sheet import Sheet

__all__ = ["Video", "make_video", "write_video"]

FORMAT_VERSION = 1
VIDEO_SIZE = (1280, 720)  # a laptop webcam's 720p
VIDEO_FPS = 30.0
PAGE_PPC = 40.0  # rendered page pixels per cell; shrunk once to the filmed size
PAGE_FILL = (0.72, 0.88)  # page height / frame height at the holds
ROLL_SPREAD = 10.0  # degrees around upright (or turned a quarter) of the sheet's roll
TILT = 0.12  # largest projective tilt term (perspective of a webcam looking down at an angle)
# The path: (share of the video, moving?) segments; the holds are where the sheet can be read.
PATH = ((0.15, True), (0.35, False), (0.15, True), (0.35, False))
JITTER_PX = 0.15  # hand-held shake during a hold, px (a laptop on a table barely moves)
HAND_SPAN = (0.25, 0.40)  # hand length / frame height
HAND_WINDOW = (0.25, 0.45)  # the hand crosses during this part of the video (inside the first hold)
GLARE_LEVEL = (40.0, 110.0)  # peak glare added, 8-bit levels
EXPOSURE_SWING = 0.18  # relative exposure change over the video
NOISE = (2.0, 5.0)  # sensor noise sigma, levels
JPEG_QUALITY = 90  # MJPG quality of the written file
COVERED = 0.25  # a cell counts as covered by the hand when this share of it is under the hand


@dataclass(frozen=True, eq=False)
class Video:
    """A synthetic video of one sheet with its exact truth.

    Attributes
    ----------
    seed, split : what names the video (``make_video(seed, split=split, ...)`` makes it again).
    game : the random game; ``game.sheet`` is the truth.
    page : the rendered page (its ``style.family`` is the drawing family).
    size : (width, height) of the frames.
    fps : frames per second.
    homographies : (T, 3, 3) page px -> frame px, per frame.
    corners : (T, 4, 2) grid corners A1, A11, K11, K1 in frame px, per frame.
    hands : per frame, the hand's polygon (N, 2) in frame px, or None when no hand is in view.
    moving : (T,) bool, the camera is moving (outside the holds).
    """

    seed: int
    split: str
    game: Game
    page: Page
    size: tuple[int, int]
    fps: float
    homographies: np.ndarray
    corners: np.ndarray
    hands: tuple[np.ndarray | None, ...]
    moving: np.ndarray
    _table: np.ndarray = field(repr=False)
    _light: np.ndarray = field(repr=False)  # (h, w, 3) float32 gain, still
    _small: np.ndarray = field(repr=False)  # the page shrunk to about the filmed size
    _shrink: float = 1.0
    _glare: tuple[float, ...] = ()  # x0, y0, x1, y1 (frame share), rx, ry, level
    _exposure: tuple[float, float, float] = (1.0, 0.0, 0.0)  # base, swing, phase

    def __len__(self) -> int:
        return len(self.homographies)

    @property
    def sheet(self) -> Sheet:
        return self.game.sheet

    @property
    def family(self) -> str:
        return self.page.style.family

    def frame(self, i: int) -> np.ndarray:
        """Frame ``i`` (BGR uint8), the same every time."""
        rng = np.random.default_rng([7, self.seed, i])
        w, h = self.size
        img = self._table.copy()
        k = self._shrink
        to_small = np.array([[k, 0, (k - 1) / 2], [0, k, (k - 1) / 2], [0, 0, 1]])
        hom = self.homographies[i] @ np.linalg.inv(to_small)
        # the page's shadow on the table, then the page
        sh, sw = self._small.shape[:2]
        paper = np.array([[0, 0], [sw - 1, 0], [sw - 1, sh - 1], [0, sh - 1]], np.float32)
        quad = cv2.perspectiveTransform(paper.reshape(-1, 1, 2), hom).reshape(-1, 2)
        _shade(img, quad + 3.0, 0.7, 3.0)
        cv2.warpPerspective(self._small, hom, (w, h), dst=img, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        hand = self.hands[i]
        if hand is not None:
            _shade(img, hand + np.array([12.0, 16.0]), 0.55, 9.0)
            _draw_hand(img, hand, rng)
        t = i / max(1, len(self) - 1)
        base, swing, phase = self._exposure
        gain = self._light * float(base * (1.0 + swing * np.sin(2 * np.pi * t + phase)))
        out = img.astype(np.float32) * gain
        x0, y0, x1, y1, rx, ry, level = self._glare
        flare = np.zeros((h, w), np.float32)
        centre = (int((x0 + (x1 - x0) * t) * w), int((y0 + (y1 - y0) * t) * h))
        cv2.ellipse(flare, centre, (int(rx * w), int(ry * h)), 20.0, 0, 360, 1.0, -1)
        flare = cv2.GaussianBlur(flare, (0, 0), 0.04 * h) * level * (0.6 + 0.4 * np.sin(3 * np.pi * t) ** 2)
        out += flare[..., None]
        out += rng.normal(0.0, rng.uniform(*NOISE), (h, w, 1)).astype(np.float32)
        return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame in order."""
        for i in range(len(self)):
            yield self.frame(i)

    def covered(self, i: int) -> np.ndarray:
        """(11, 11) bool: the cells the hand covers (at least :data:`COVERED` of the cell) in frame ``i``."""
        hand = self.hands[i]
        out = np.zeros((GRID_SIZE, GRID_SIZE), bool)
        if hand is None:
            return out
        # the hand in cell units, rasterised at 8 px per cell
        to_cells = np.linalg.inv(self.homographies[i] @ self.page.affine)
        local = cv2.perspectiveTransform(hand.reshape(-1, 1, 2).astype(np.float64), to_cells).reshape(-1, 2)
        s = 8
        mask = np.zeros((GRID_SIZE * s, GRID_SIZE * s), np.uint8)
        cv2.fillPoly(mask, [np.round(local * s).astype(np.int32)], 1)
        share = mask.reshape(GRID_SIZE, s, GRID_SIZE, s).mean(axis=(1, 3))
        return np.asarray(share >= COVERED)

    def truth(self) -> dict[str, object]:
        """The JSON-able truth written next to the video."""
        return {
            "format": FORMAT_VERSION,
            "seed": self.seed,
            "split": self.split,
            "family": self.family,
            "side": self.sheet.side,
            "size": list(self.size),
            "fps": self.fps,
            "frames": len(self),
            "corners": np.round(self.corners, 2).tolist(),
            "moving": self.moving.astype(int).tolist(),
            "covered": [
                [cell_label((int(r), int(c))) for r, c in zip(*np.nonzero(self.covered(i)), strict=True)]
                for i in range(len(self))
            ],
            "coin_states": list(self.page.coin_states),
        }


def _shade(img: np.ndarray, polygon: np.ndarray, gain: float, blur: float) -> None:
    """Darken ``img`` in place under a soft-edged ``polygon`` (a shadow)."""
    h, w = img.shape[:2]
    mask = np.zeros((h // 4, w // 4), np.float32)
    cv2.fillPoly(mask, [np.round(polygon / 4.0).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), blur / 4.0 + 0.5)
    full = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    np.multiply(img, (1.0 - (1.0 - gain) * full)[..., None], out=img, casting="unsafe")


def _draw_hand(img: np.ndarray, polygon: np.ndarray, rng: np.random.Generator) -> None:
    """Paint a skin-coloured hand (shaded, soft-edged) into ``img`` in place."""
    h, w = img.shape[:2]
    sharp = np.zeros((h, w), np.float32)
    cv2.fillPoly(sharp, [np.round(polygon).astype(np.int32)], 1.0)
    mask = np.asarray(cv2.GaussianBlur(sharp, (0, 0), 2.0))
    skin = np.array([120.0, 150.0, 205.0], np.float32) * float(rng.uniform(0.97, 1.03))  # BGR
    shade = 0.85 + 0.15 * np.asarray(cv2.GaussianBlur(mask, (0, 0), 15.0))  # darker towards the edge
    paint = skin[None, None, :] * shade[..., None]
    m = mask[..., None]
    img[:] = np.clip(img * (1.0 - m) + paint * m, 0, 255).astype(np.uint8)


def _hand_polygon(centre: np.ndarray, span: float, angle: float) -> np.ndarray:
    """A hand seen from above: palm and four fingers and a thumb, as one polygon (frame px)."""
    # outline in hand units (wrist at y = 1, fingertips at y = -1), drawn once around
    pts = [(-0.35, 1.0), (-0.38, 0.2), (-0.62, -0.05), (-0.66, -0.15), (-0.55, -0.12), (-0.32, -0.05),
           (-0.33, -0.85), (-0.22, -0.88), (-0.16, -0.3), (-0.12, -1.0), (0.0, -1.02), (0.05, -0.3),
           (0.1, -0.95), (0.22, -0.93), (0.22, -0.28), (0.3, -0.8), (0.4, -0.76), (0.36, -0.1),
           (0.38, 1.0)]
    local = np.array(pts) * span / 2.0
    c, s = np.cos(angle), np.sin(angle)
    return np.asarray(local @ np.array([[c, s], [-s, c]]) + centre, dtype=np.float64)


def _smoothstep(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    return np.asarray(x * x * (3.0 - 2.0 * x))


def _pose_homography(page_size: tuple[int, int], centre: np.ndarray, scale: float, roll: float,
                     tilt: np.ndarray) -> np.ndarray:
    """Page px -> frame px: centre the page, tilt it (projective), scale, roll and place it."""
    pw, ph = page_size
    norm = max(pw, ph) / 2.0
    to_unit = np.array([[1 / norm, 0, -pw / 2 / norm], [0, 1 / norm, -ph / 2 / norm], [0, 0, 1]])
    persp = np.array([[1, 0, 0], [0, 1, 0], [tilt[0], tilt[1], 1]])
    c, s = np.cos(roll), np.sin(roll)
    place = np.array([[scale * c, -scale * s, centre[0]], [scale * s, scale * c, centre[1]], [0, 0, 1]])
    return np.asarray(place @ persp @ to_unit)


def make_video(seed: int, *, frames: int = 150, size: tuple[int, int] = VIDEO_SIZE,
               family: str | None = None, split: str = "train", fps: float = VIDEO_FPS) -> Video:
    """Film sample ``seed``: a random legal game drawn by a player of ``family``, on a moving camera.

    Parameters
    ----------
    seed : any non-negative int.
    frames : how many frames (at ``fps``).
    size : (width, height) of the frames.
    family : drawing family (:data:`models.synth.style.ALL_FAMILIES`); default random (not ``glyph``).
    split : ``train``, ``eval`` or ``params`` drawing styles (see :mod:`models.synth.style`).

    Raises
    ------
    SynthError
        Unknown family or split, a held-out family in the train split, or fewer than 2 frames.
    """
    if family is not None and family not in ALL_FAMILIES:
        raise SynthError(f"unknown drawing family {family!r}; choose one of {', '.join(ALL_FAMILIES)}")
    if frames < 2:
        raise SynthError(f"a video needs at least 2 frames, not {frames}")
    if family in HELD_OUT_FAMILIES and split == "train":
        raise SynthError(f"the {family} family is held out: draw it with split 'eval' or 'params'")
    rng = rng_for(seed, split)
    game = random_game(rng)
    theme = str(rng.choice(list(THEME_WEIGHTS), p=list(THEME_WEIGHTS.values())))
    style = DrawStyle.random(rng, split, family)
    page = render_page(game.sheet, rng, ppc=PAGE_PPC, theme=theme, style=style, pieces=game.pieces)
    w, h = size
    ph, pw = page.image.shape[:2]

    # keyframes: one pose per move's end; a hold rests where the move before it ended
    quarter = 0 if rng.random() < 0.6 else int(rng.choice([1, 2, 3]))
    moves = sum(moving for _, moving in PATH)
    bounds = np.concatenate([[0.0], np.cumsum([share for share, _ in PATH])]) * (frames - 1)
    times = np.arange(frames, dtype=np.float64)
    seg = np.clip(np.searchsorted(bounds, times, side="right") - 1, 0, len(PATH) - 1)
    before = np.cumsum([0] + [int(m) for _, m in PATH])  # moves before each segment
    moving = np.array([PATH[k][1] for k in seg])
    start = before[seg]
    end = start + moving.astype(int)
    share = (times - bounds[seg]) / np.maximum(1e-9, bounds[seg + 1] - bounds[seg])
    u = np.where(moving, _smoothstep(share), 1.0)
    jitter = rng.normal(0.0, JITTER_PX, (frames, 2))
    g = page.cells_to_page(np.array([[-0.3, -0.3], [GRID_SIZE + 0.3, -0.3], [GRID_SIZE + 0.3, 12.9],
                                     [-0.3, 12.9]]))  # the grid and the coin track stay in frame
    for _ in range(100):
        fill = rng.uniform(*PAGE_FILL, moves + 1)
        # the page's long side spans 2 * scale px (see _pose_homography)
        upright = quarter % 2 == 0
        scales = fill * h / 2.0 if upright else np.minimum(fill * w / 2.0 * 0.8, 0.9 * h / 2.0 * ph / pw)
        rolls = np.deg2rad(90.0 * quarter + rng.normal(0.0, ROLL_SPREAD / 2, moves + 1))
        tilts = rng.uniform(-TILT, TILT, (moves + 1, 2))
        centres = np.stack([rng.uniform(0.35 * w, 0.65 * w, moves + 1),
                            rng.uniform(0.46 * h, 0.54 * h, moves + 1)], 1)
        homs = np.zeros((frames, 3, 3))
        for i in range(frames):
            a, b, t = start[i], end[i], u[i]
            centre = centres[a] * (1 - t) + centres[b] * t + (0.0 if moving[i] else jitter[i])
            scale = float(scales[a] * (1 - t) + scales[b] * t)
            roll = float(rolls[a] * (1 - t) + rolls[b] * t)
            homs[i] = _pose_homography((pw, ph), centre, scale, roll, tilts[a] * (1 - t) + tilts[b] * t)
        seen = np.stack([cv2.perspectiveTransform(g.reshape(-1, 1, 2), hm).reshape(-1, 2) for hm in homs])
        if (seen.min(axis=(0, 1)) >= 2).all() and (seen.max(axis=(0, 1)) <= [w - 3, h - 3]).all():
            break
    else:
        raise SynthError(f"could not keep the sheet in a {w}x{h} frame")
    corners = np.stack([cv2.perspectiveTransform(page.corners.reshape(-1, 1, 2), hm).reshape(-1, 2)
                        for hm in homs])

    # the hand enters from one side of the frame, crosses the sheet and leaves
    hands: list[np.ndarray | None] = [None] * frames
    span = float(rng.uniform(*HAND_SPAN) * h * 1.6)
    h0, h1 = (int(x * (frames - 1)) for x in HAND_WINDOW)
    from_right = rng.random() < 0.5
    y_at = rng.uniform(0.35, 0.75) * h
    for i in range(h0, h1 + 1):
        t = (i - h0) / max(1, h1 - h0)
        reach = np.sin(np.pi * t)  # in, over the sheet, back out
        x = w + span * 0.5 - reach * (0.55 * w) if from_right else -span * 0.5 + reach * (0.55 * w)
        angle = (-np.pi / 2 if from_right else np.pi / 2) + 0.3 * np.sin(2 * np.pi * t)
        hands[i] = _hand_polygon(np.array([x, y_at + 0.1 * h * np.sin(np.pi * t)]), span, float(angle))

    table = scene.table(rng, (w, h), str(rng.choice(scene.TABLES)))
    light = scene.random_light(rng, (w, h), gradient=0.3, vignette=0.25, shadows=0, shadow_depth=0.0,
                               glare=0.0, cast=0.05)
    gain = cv2.resize(light.gain, (w, h), interpolation=cv2.INTER_LINEAR)
    shrink = min(1.0, float(scales.max()) / (max(pw, ph) / 2.0) * 1.25)
    small = cv2.resize(page.image, (max(2, round(pw * shrink)), max(2, round(ph * shrink))),
                       interpolation=cv2.INTER_AREA)
    glare = (*rng.uniform(0.3, 0.7, 4), float(rng.uniform(0.05, 0.12)), float(rng.uniform(0.04, 0.1)),
             float(rng.uniform(*GLARE_LEVEL)))
    exposure = (float(rng.uniform(0.8, 1.0)), EXPOSURE_SWING, float(rng.uniform(0, 2 * np.pi)))
    return Video(seed=seed, split=split, game=game, page=page, size=(w, h), fps=fps, homographies=homs,
                 corners=corners, hands=tuple(hands), moving=moving, _table=table,
                 _light=np.asarray(gain, np.float32), _small=small, _shrink=small.shape[1] / pw,
                 _glare=tuple(float(v) for v in glare), _exposure=exposure)


def write_video(video: Video, out_dir: Path | str, stem: str) -> list[Path]:
    """Write ``<stem>.avi`` (MJPG), ``<stem>.sheet`` and ``<stem>.json`` into ``out_dir``.

    Raises
    ------
    SynthError
        The directory or the video cannot be written.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SynthError(f"cannot write to {out}: {exc.strerror or exc}") from None
    paths = [out / f"{stem}.avi", out / f"{stem}.sheet", out / f"{stem}.json"]
    writer = cv2.VideoWriter(str(paths[0]), cv2.VideoWriter.fourcc(*"MJPG"), video.fps, video.size)
    if not writer.isOpened():
        raise SynthError(f"cannot write the video {paths[0]}")
    writer.set(cv2.VIDEOWRITER_PROP_QUALITY, JPEG_QUALITY)
    try:
        for frame in video.frames():
            writer.write(frame)
    finally:
        writer.release()
    try:
        header = f"# synthetic video {video.split} seed {video.seed}, family {video.family}\n"
        paths[1].write_text(header + video.sheet.to_text(), encoding="utf-8")
        paths[2].write_text(json.dumps(video.truth(), separators=(",", ":")) + "\n", encoding="utf-8")
    except OSError as exc:
        raise SynthError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return paths
