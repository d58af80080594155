"""Benchmark the scanner's locate stage: detection rate, corner and crossing error, side, orientation, time.

Two photo sources:

* the synthetic camera (``models.synth``), every tier, eval split, exact truth;
* the real printed sheets in ``sheets/`` of the reference folder (``--reference DIR`` or
  ``$CARTOSCAN_REFERENCE``; read at run time, never copied), each
  photographed here by a simple pinhole warp onto a random table.  Their truth is the grid found on
  the flat sheet image itself, so this part measures robustness and consistency under the warp,
  not absolute accuracy (the flat-sheet grids were checked by eye in debug images).

Run (about 6-10 minutes on one free core)::

    nice python benchmarks/bench_scanner.py --phone 200 --others 50 --real 20 --reference ../shared/reference

Times are CPU time (``time.process_time``) per ``locate_sheet`` call with OpenCV on one thread,
decode excluded: CPU time does not depend on what else the shared machine runs meanwhile.  Run it
with ``OMP_NUM_THREADS=1`` so that numpy's BLAS stays on one thread too.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import reference_images

from rules.grid import SIZE
from scanner import Failure, Location, locate_sheet

N = SIZE


@dataclass
class Tally:
    """Running figures of one photo source."""

    name: str
    total: int = 0
    found: int = 0
    side_ok: int = 0
    orient_ok: int = 0
    corner_err: list[float] = field(default_factory=list)
    cross_err: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    worst: list[tuple[float, str]] = field(default_factory=list)
    silent: int = 0  # wrong side or A1 corner without a Location.doubts() warning

    def add(
        self,
        tag: str,
        loc: Location | Failure,
        dt: float,
        corners: np.ndarray,
        side: str | None,
        orientation: int,
        crossings: np.ndarray | None = None,
    ) -> None:
        self.total += 1
        self.times.append(dt)
        if isinstance(loc, Failure):
            self.failures[loc.reason] += 1
            self.worst.append((np.inf, f"{tag} {loc}"))
            return
        self.found += 1
        pitch = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1))) / N
        err = float(np.linalg.norm(loc.corners - corners, axis=1).max()) / pitch
        self.corner_err.append(err)
        if crossings is not None and loc.crossings is not None:
            self.cross_err.append(float(np.linalg.norm(loc.crossings - crossings, axis=2).max()) / pitch)
        self.side_ok += side is None or loc.side == side
        self.orient_ok += loc.orientation == orientation
        wrong = (side is not None and loc.side != side) or loc.orientation != orientation
        doubted = bool(loc.doubts())
        self.silent += wrong and not doubted
        if wrong or err > 0.1:
            note = (" (doubted)" if doubted else " (SILENT)") if wrong else ""
            verdict = f"side {loc.side}/{side} orient {loc.orientation}/{orientation}{note}"
            self.worst.append((err, f"{tag} err={err:.3f} {verdict}"))

    def row(self) -> str:
        ce = np.array(self.corner_err) if self.corner_err else np.array([np.nan])
        xe = np.array(self.cross_err) if self.cross_err else np.array([np.nan])
        t = np.array(self.times) * 1000
        f = max(self.found, 1)
        return (
            f"{self.name:<16}{self.total:>6}{100 * self.found / max(self.total, 1):>9.1f}"
            f"{np.median(ce):>9.4f}{np.percentile(ce, 95):>9.3f}{np.max(ce):>9.3f}{np.max(xe):>9.3f}"
            f"{100 * self.side_ok / f:>8.1f}{100 * self.orient_ok / f:>8.1f}"
            f"{np.median(t):>8.0f}{np.max(t):>8.0f}{self.silent:>8d}"
        )


HEADER = (
    f"{'source':<16}{'photos':>6}{'found%':>9}{'med err':>9}{'p95 err':>9}{'max err':>9}{'max x':>9}"
    f"{'side%':>8}{'orient%':>8}{'cpu ms':>8}{'max ms':>8}{'silent':>8}"
)


def timed_locate(image: np.ndarray) -> tuple[Location | Failure, float]:
    t = time.process_time()
    loc = locate_sheet(image)
    return loc, time.process_time() - t


# ---------------------------------------------------------------------------------------- synthetic


def bench_synth(
    tier: str, count: int, *, size: tuple[int, int] | None = None, name: str | None = None
) -> Tally:
    from models.synth.generate import make_sample

    tally = Tally(name or f"synth {tier}")
    nodes = np.stack(np.meshgrid(np.arange(N + 1.0), np.arange(N + 1.0), indexing="xy"), axis=-1)
    for seed in range(count):
        sample = make_sample(seed, tier=tier, split="eval", size=size)
        page = sample.page
        true_cross = sample.photo.page_to_photo(
            (np.asarray(page.grid_origin) + page.ppc * nodes).reshape(-1, 2)
        ).reshape(N + 1, N + 1, 2)
        loc, dt = timed_locate(sample.image)
        tally.add(f"{tier}#{seed}", loc, dt, sample.corners, sample.side, sample.orientation, true_cross)
    return tally


# ------------------------------------------------------------------------------------- real sheets


def pinhole_photo(sheet: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    """Photograph a flat sheet image: returns (photo, 3x3 sheet->photo homography, coarse rotation)."""
    h, w = sheet.shape[:2]
    out_w, out_h = (4000, 3000) if rng.random() < 0.3 else (2000, 1500)
    if rng.random() < 0.5:
        out_w, out_h = out_h, out_w
    roll = float(rng.uniform(0, 2 * np.pi))
    tilt = np.deg2rad(45.0 * np.sqrt(rng.random()))
    axis = float(rng.uniform(0, 2 * np.pi))
    dist = float(rng.uniform(1.3, 3.0))
    diag = float(np.hypot(w, h))
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    centred = np.c_[(pts - [w / 2, h / 2]) / diag, np.zeros(4)]
    ax = np.array([np.cos(axis), np.sin(axis), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    r_tilt = np.eye(3) + np.sin(tilt) * k + (1 - np.cos(tilt)) * k @ k
    r_roll = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]])
    cam = centred @ (r_roll @ r_tilt).T + [0, 0, dist]
    proj = cam[:, :2] / cam[:, 2:3]
    # the sheet covers 25-80 % of the frame's area (the scanner's stated range), if it fits
    span = proj.max(axis=0) - proj.min(axis=0)
    area = float(cv2.contourArea(proj.astype(np.float32)))
    target = float(rng.uniform(0.25, 0.8)) * out_w * out_h
    scale = min(np.sqrt(target / area), 0.98 * min(out_w / span[0], out_h / span[1]))
    proj = (proj - proj.min(axis=0)) * scale
    slack = np.array([out_w, out_h]) - (proj.max(axis=0))
    proj += slack * rng.uniform(0.1, 0.9, size=2)
    hom = cv2.getPerspectiveTransform(pts.astype(np.float32), proj.astype(np.float32)).astype(np.float64)
    # the table: a colour, a smooth texture and a few objects
    base = rng.uniform(30, 200, size=3)
    noise = cv2.resize(
        rng.normal(0, 25, size=(out_h // 40, out_w // 40, 3)).astype(np.float32), (out_w, out_h)
    )
    table = np.clip(base + noise, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(0, 5))):
        c = tuple(int(v) for v in rng.uniform(0, 255, size=3))
        x, y = int(rng.integers(0, out_w)), int(rng.integers(0, out_h))
        cv2.rectangle(table, (x, y), (x + int(rng.integers(50, 600)), y + int(rng.integers(50, 600))), c, -1)
    photo = cv2.warpPerspective(sheet, hom, (out_w, out_h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), hom, (out_w, out_h))
    photo = np.where(mask[..., None] > 127, photo, table)
    # light: a gradient, a soft glare spot, defocus, sensor noise, JPEG
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    g = rng.uniform(-0.35, 0.35, size=2)
    light = 1.0 + g[0] * (xx / out_w - 0.5) + g[1] * (yy / out_h - 0.5)
    img = photo.astype(np.float32) * light[..., None] * float(rng.uniform(0.75, 1.1))
    if rng.random() < 0.3:
        cx, cy, rad = rng.uniform(0, out_w), rng.uniform(0, out_h), rng.uniform(0.05, 0.2) * out_w
        img += 90.0 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad * rad))[..., None]
    sigma = float(rng.uniform(0.0, 1.5)) * out_w / 2000
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += rng.normal(0, rng.uniform(1, 5), size=img.shape).astype(np.float32)
    img8 = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    photo_out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return (img8 if photo_out is None else np.asarray(photo_out)), hom, 0


def orientation_of(corners: np.ndarray) -> int:
    d = corners[1] - corners[0]
    return round(float(np.degrees(np.arctan2(d[1], d[0]))) / 90.0) % 4 * 90


def bench_real(per_sheet: int, sheets: Path) -> tuple[Tally, Tally]:
    """Locate each real sheet in `sheets` flat, then in `per_sheet` warped photos of it."""
    flat = Tally("real flat")
    warped = Tally("real warped")
    rng = np.random.default_rng(2024)
    for path in sorted(sheets.glob("*.png")):
        sheet = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if sheet is None:
            continue
        side = path.name[0]
        ref, dt = timed_locate(sheet)
        if isinstance(ref, Failure):
            flat.add(path.stem, ref, dt, np.zeros((4, 2)), side, 0)
            continue
        flat.add(path.stem, ref, dt, ref.corners, side, 0)
        for i in range(per_sheet):
            photo, hom, _ = pinhole_photo(sheet, rng)
            truth = cv2.perspectiveTransform(ref.corners.reshape(-1, 1, 2), hom).reshape(4, 2)
            cross = None
            if ref.crossings is not None:
                cross = cv2.perspectiveTransform(ref.crossings.reshape(-1, 1, 2), hom).reshape(
                    N + 1, N + 1, 2
                )
            loc, dt = timed_locate(photo)
            warped.add(f"{path.stem}#{i}", loc, dt, truth, side, orientation_of(truth), cross)
    return flat, warped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phone", type=int, default=200, help="synthetic phone-tier photos")
    parser.add_argument("--others", type=int, default=50, help="photos of each other tier")
    parser.add_argument("--real", type=int, default=20, help="warped photos per real reference sheet")
    parser.add_argument("--big", type=int, default=10, help="12 MP phone photos for the timing row")
    parser.add_argument("--worst", type=int, default=8, help="worst cases listed per source")
    reference_images.add_option(parser)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    tallies: list[Tally] = []
    if args.phone:
        tallies.append(bench_synth("phone", args.phone))
    for tier in ("scan", "webcam", "hard"):
        if args.others:
            tallies.append(bench_synth(tier, args.others))
    if args.big:
        tallies.append(bench_synth("phone", args.big, size=(4000, 3000), name="phone 12MP"))
    sheets = reference_images.folder(args.reference, "sheets") if args.real else None
    if sheets is not None:
        tallies.extend(bench_real(args.real, sheets))
    print("err = worst of the 4 corners, in cells; max x = worst of the 144 grid crossings, in cells")
    print("silent = wrong side or A1 corner that Location.doubts() did not warn about")
    print(HEADER)
    for t in tallies:
        print(t.row())
    for t in tallies:
        bad = sorted(t.worst, key=lambda e: -e[0])[: args.worst]
        if bad:
            print(f"-- {t.name}: failures {dict(t.failures)}; worst:")
            for _, line in bad:
                print("   ", line)


if __name__ == "__main__":
    main()
