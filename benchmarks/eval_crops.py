"""The locator on cropped photos, photos of two sheets, and sides under drawings (issue 13).

    OMP_NUM_THREADS=1 python benchmarks/eval_crops.py [--synth 30] [--real 3] [--sides 30]
        [--reference ../shared/reference]

Photos: synthetic phone photos (``models.synth``, ``params`` split) and the real printed sheets in
``sheets/`` of the reference folder (``--reference DIR`` or ``$CARTOSCAN_REFERENCE``; read at run time,
evaluation only, never copied) photographed by ``bench_scanner``'s pinhole warp. Each photo is
cropped in the photo's own axes, at a distance from the grid's outermost point given in cells (the
grid's edge is the inner frame line):

* ``whole``: the photo uncropped (one sheet: never to be called two);

* ``margin 1``: the sheet's left or right margin cut, 0.15-1 cell beyond the grid (must be read);
* ``margin 2``: its left and top margins cut so (must be read);
* ``title``: the header above row A cut, 0.15-1 cell above the grid (must be read);
* ``coin track``: cut 0.3-1.1 cell below row K, through or above the coin track (must be read, and
  the coin track reported as cut off whenever any coin circle is);
* ``grid cut``: any side cut 0.15-0.7 cell *inside* the grid (must be refused, never placed);
* ``two sheets``: two photos side by side in one 12 MP frame (must be reported, never read as one
  sheet); a pair is skipped when either sheet alone in the same frame is not found.  Synthetic pairs
  are ``--pairs`` fresh photos, real ones the warped real photos paired.  "right" counts the photos
  whose two grids ``locate_sheets`` places within 0.15 cell, left one first; ``--debug DIR`` writes
  those read as one sheet as PNG.

Per case: photos, found, grid right (worst corner within 0.15 cell), placed a cell or more off, side
and A1 corner right, the failures' reasons, and for the coin track how often a cut track was
reported (and a whole one reported cut). A crop the photo cannot hold (the photo edge is already
nearer) is skipped.

``--sides N``: the printed side and turn on N synthetic phone photos each of the printer-friendly
print, of Heroes games (sides C, D) with heroes drawn, and of sheets whose hero, monster and village
cells are filled dark (brown or black marker: what a printed mountain square looks like), plus games
with such dark fills drawn on the real prints. Counted: side right, A1 corner right, and wrong sides
not flagged as doubts ("silent").
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import reference_images
from bench_scanner import pinhole_photo

from models.synth.camera import photograph
from models.synth.generate import make_sample
from models.synth.paper import render_page
from models.synth.play import random_game
from models.synth.printed import blank_on_image
from models.synth.style import DrawStyle
from rules.grid import SIZE as GRID_SIZE
from rules.sides import printed_side
from scanner import Failure, Location, locate_sheet
from scanner.geometry import geometry
from scanner.locate import locate_sheets
from scanner.rectify import apply_h, grid_homography

N = GRID_SIZE
CUT_SIDES = ("left", "right", "top", "bottom")


@dataclass(frozen=True)
class Shot:
    """A photo with its truth: the grid crossings, and a map from sheet cell units to photo px."""

    tag: str
    image: np.ndarray
    crossings: np.ndarray  # (12, 12, 2) [row_line, col_line], sheet order
    to_photo: Callable[[np.ndarray], np.ndarray]  # (n, 2) cell units -> photo px
    side: str
    orientation: int

    @property
    def corners(self) -> np.ndarray:
        return self.crossings[[0, 0, N, N], [0, N, N, 0]]


def synth_shots(count: int, seed0: int = 0) -> Iterator[Shot]:
    for seed in range(seed0, seed0 + count):
        s = make_sample(seed, tier="phone", split="params")
        photo, page = s.photo, s.page

        def to_photo(p: np.ndarray, photo=photo, page=page) -> np.ndarray:  # type: ignore[no-untyped-def]
            return photo.page_to_photo(page.cells_to_page(p))

        yield Shot(f"synth#{seed}", s.image, s.crossings, to_photo, s.side, s.orientation)


def real_shots(folder: Path, per_sheet: int, seed: int = 7) -> Iterator[Shot]:
    rng = np.random.default_rng(seed)
    nodes = np.stack(np.meshgrid(np.arange(N + 1.0), np.arange(N + 1.0), indexing="xy"), axis=-1)
    for path in sorted(folder.glob("*.png")):
        sheet = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if sheet is None:
            continue
        ref = locate_sheet(sheet)
        if not isinstance(ref, Location) or ref.orientation != 0:
            print(f"  {path.stem}: grid not found upright on the flat image, skipped")
            continue
        flat_h = grid_homography(ref.corners)
        for i in range(per_sheet):
            image, hom, _ = pinhole_photo(sheet, rng)
            h = hom @ flat_h

            def to_photo(p: np.ndarray, h: np.ndarray = h) -> np.ndarray:
                return apply_h(h, p)

            cross = to_photo(nodes.reshape(-1, 2)).reshape(N + 1, N + 1, 2)
            d = cross[0, N] - cross[0, 0]
            turn = round(float(np.degrees(np.arctan2(d[1], d[0]))) / 90.0) % 4 * 90
            yield Shot(f"{path.stem}#{i}", image, cross, to_photo, path.name[0], turn)


# ------------------------------------------------------------------------------------------- crops


def _side_points(cross: np.ndarray, side: str) -> np.ndarray:
    return {"left": cross[:, 0], "right": cross[:, N], "top": cross[0, :], "bottom": cross[N, :]}[side]


def crop(shot: Shot, side: str, clearance: float) -> Shot | None:
    """Cut the photo in its own axes on the side facing the sheet's `side`, `clearance` cells beyond
    the grid's outermost point that way (negative: into the grid). None when the photo's edge is
    already nearer than the cut."""
    cross = shot.crossings
    pts = _side_points(cross, side)
    out = pts.mean(axis=0) - cross.reshape(-1, 2).mean(axis=0)
    axis = int(np.argmax(np.abs(out)))
    sign = 1.0 if out[axis] > 0 else -1.0
    pitch = float(np.linalg.norm(pts[-1] - pts[0])) / N
    allx = cross.reshape(-1, 2)[:, axis]
    extreme = allx.max() if sign > 0 else allx.min()
    cut = extreme + sign * clearance * pitch
    size = shot.image.shape[1 - axis]
    if not 1 <= cut <= size - 2:
        return None
    offset = np.zeros(2)
    if sign > 0:
        keep = int(np.floor(cut))
        image = shot.image[:, :keep] if axis == 0 else shot.image[:keep]
    else:
        start = int(np.ceil(cut))
        image = shot.image[:, start:] if axis == 0 else shot.image[start:]
        offset[axis] = start

    def to_photo(p: np.ndarray) -> np.ndarray:
        return shot.to_photo(p) - offset

    return replace(shot, image=np.ascontiguousarray(image), crossings=cross - offset, to_photo=to_photo)


def coin_track_cut(shot: Shot) -> bool:
    """Whether any of the 14 coin circles reaches past the photo's edge."""
    g = geometry()
    ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    rim = np.stack([np.cos(ang), np.sin(ang)], axis=1) * g.coin_radius
    pts = (g.coin_centers()[:, None, :] + rim[None]).reshape(-1, 2)
    xy = shot.to_photo(pts)
    h, w = shot.image.shape[:2]
    return bool(((xy < 0) | (xy[:, 0:1] > w - 1) | (xy[:, 1:2] > h - 1)).any())


def halves(a: Shot, b: Shot, size: tuple[int, int] = (4000, 3000)) -> list[tuple[np.ndarray, np.ndarray]]:
    """Two photos each scaled to fit one half of a 12 MP frame (a table seen from above), each with its
    grid corners in the whole frame."""
    w, h = size
    out = []
    for shot in (a, b):
        ih, iw = shot.image.shape[:2]
        s = min(w / 2 / iw, h / ih)
        img = cv2.resize(shot.image, (round(iw * s), round(ih * s)), interpolation=cv2.INTER_AREA)
        half = np.full((h, w // 2, 3), 90, np.uint8)
        y, x = (h - img.shape[0]) // 2, (w // 2 - img.shape[1]) // 2
        half[y : y + img.shape[0], x : x + img.shape[1]] = img
        out.append((half, shot.corners * s + np.array([x + len(out) * (w // 2), y])))
    return out


@dataclass
class Row:
    photos: int = 0
    skipped: int = 0
    found: int = 0
    right: int = 0
    off: int = 0
    side_ok: int = 0
    turn_ok: int = 0
    coins_cut: int = 0
    coins_said: int = 0
    coins_false: int = 0
    reasons: Counter[str] | None = None
    worst: list[str] | None = None
    ms: list[float] | None = None

    def __post_init__(self) -> None:
        self.reasons, self.worst, self.ms = Counter(), [], []


def judge(row: Row, shot: Shot, loc: Location | Failure, dt: float) -> None:
    assert row.reasons is not None and row.worst is not None and row.ms is not None
    row.photos += 1
    row.ms.append(1000 * dt)
    cut = coin_track_cut(shot)
    row.coins_cut += cut
    if isinstance(loc, Failure):
        row.reasons[loc.reason] += 1
        return
    row.found += 1
    pitch = float(np.mean(np.linalg.norm(shot.corners - np.roll(shot.corners, -1, axis=0), axis=1))) / N
    err = float(np.linalg.norm(loc.corners - shot.corners, axis=1).max()) / pitch
    # the same grid found from another corner is a turn error, not a placement error
    any_turn = min(
        float(np.linalg.norm(np.roll(loc.corners, k, axis=0) - shot.corners, axis=1).max()) / pitch
        for k in range(4)
    )
    row.right += any_turn < 0.15
    row.off += any_turn >= 0.5
    row.side_ok += loc.side == shot.side
    row.turn_ok += err < 0.5
    said = "coin track" in getattr(loc, "cut", ())
    row.coins_said += cut and said
    row.coins_false += said and not cut
    if any_turn >= 0.15 or loc.side != shot.side or err >= 0.5:
        row.worst.append(f"{shot.tag} err={any_turn:.2f} side {loc.side}/{shot.side} turn {err < 0.5}")


def timed(image: np.ndarray) -> tuple[Location | Failure, float]:
    t = time.process_time()
    loc = locate_sheet(image)
    return loc, time.process_time() - t


def crops(shots: list[Shot], seed: int = 11, pairs: list[tuple[Shot, Shot]] | None = None,
          debug: Path | None = None) -> dict[str, Row]:
    rng = np.random.default_rng(seed)
    rows: dict[str, Row] = defaultdict(Row)
    for shot in shots:
        cases: list[tuple[str, Shot | None]] = [("whole", shot)]
        one = str(rng.choice(["left", "right"]))
        cases.append(("margin 1", crop(shot, one, float(rng.uniform(0.15, 1.0)))))
        first = crop(shot, "left", float(rng.uniform(0.15, 1.0)))
        cases.append(("margin 2", first and crop(first, "top", float(rng.uniform(0.15, 1.0)))))
        cases.append(("title", crop(shot, "top", float(rng.uniform(0.15, 1.0)))))
        cases.append(("coin track", crop(shot, "bottom", float(rng.uniform(0.3, 1.1)))))
        cases.append(("grid cut", crop(shot, str(rng.choice(CUT_SIDES)), -float(rng.uniform(0.15, 0.7)))))
        for name, cropped in cases:
            if cropped is None:
                rows[name].skipped += 1
                continue
            loc, dt = timed(cropped.image)
            judge(rows[name], cropped, loc, dt)
    for a, b in pairs if pairs is not None else zip(shots[0::2], shots[1::2], strict=False):
        two_sheets(rows["two sheets"], a, b, debug)
    return rows


def two_sheets(row: Row, a: Shot, b: Shot, debug: Path | None) -> None:
    """Judge one two-sheet photo: reported (``several_sheets``) or read as one sheet ("silent", a
    failure of the goal); and whether ``locate_sheets`` places both grids, left to right."""
    assert row.reasons is not None and row.ms is not None and row.worst is not None
    (left, left_corners), (right, right_corners) = halves(a, b)
    pair = [left, right]
    table = np.full_like(left, 90)
    if not (locate_sheet(np.hstack([pair[0], table])) and locate_sheet(np.hstack([table, pair[1]]))):
        row.skipped += 1  # a sheet not found alone in this frame says nothing about two sheets
        return
    image = np.hstack(pair)
    loc, dt = timed(image)
    row.photos += 1
    row.ms.append(1000 * dt)
    if isinstance(loc, Failure):
        row.reasons[loc.reason] += 1
    else:
        row.found += 1  # read as one sheet: the silent case
        row.worst.append(f"{a.tag}+{b.tag} read as one")
        if debug is not None:
            debug.mkdir(parents=True, exist_ok=True)
            name = f"two_{a.tag}+{b.tag}".replace("#", "_")
            small = cv2.resize(image, (1600, 1200), interpolation=cv2.INTER_AREA)
            cv2.polylines(small, [(loc.corners * 0.4).astype(np.int32)], True, (0, 0, 255), 3)
            cv2.imwrite(str(debug / f"{name}.png"), small)
    # each sheet: both grids placed within 0.15 cell, in left-to-right order
    found = locate_sheets(image)
    if isinstance(found, Failure) or len(found) != 2:
        row.worst.append(f"{a.tag}+{b.tag} each: {found if isinstance(found, Failure) else len(found)}")
        return
    errs = []
    for loc_k, true_k in zip(found, (left_corners, right_corners), strict=True):
        pitch = float(np.linalg.norm(true_k[1] - true_k[0])) / N
        errs.append(min(float(np.linalg.norm(np.roll(loc_k.corners, k, axis=0) - true_k, axis=1).max())
                        for k in range(4)) / pitch)
    row.right += max(errs) < 0.15
    if max(errs) >= 0.15:
        row.worst.append(f"{a.tag}+{b.tag} each: err {errs[0]:.2f}, {errs[1]:.2f}")


def print_rows(title: str, rows: dict[str, Row]) -> None:
    print(f"\n{title}")
    print(f"{'case':12} {'photos':>6} {'skip':>4} {'found':>6} {'right':>6} {'off':>4} {'side':>5} "
          f"{'A1':>4} {'coins cut':>9} {'said':>5} {'false':>5} {'med ms':>6}  refused")
    for name in ("whole", "margin 1", "margin 2", "title", "coin track", "grid cut", "two sheets"):
        r = rows.get(name)
        if r is None:
            continue
        assert r.reasons is not None and r.ms is not None
        ms = float(np.median(r.ms)) if r.ms else float("nan")
        print(f"{name:12} {r.photos:6d} {r.skipped:4d} {r.found:6d} {r.right:6d} {r.off:4d} "
              f"{r.side_ok:5d} {r.turn_ok:4d} {r.coins_cut:9d} {r.coins_said:5d} {r.coins_false:5d} "
              f"{ms:6.0f}  {dict(r.reasons)}")
    for name, r in rows.items():
        if r.worst:
            print(f"  {name}: " + "; ".join(r.worst[:12]))
    r2 = rows.get("two sheets")
    if r2 is not None:
        assert r2.reasons is not None
        print(f"  two sheets: {r2.reasons['several_sheets']} of {r2.photos} reported, {r2.found} read as one "
              f"sheet (silent), each sheet placed by locate_sheets in order: {r2.right}")


# ------------------------------------------------------------------------------------------- sides


def dark_style(rng: np.random.Generator) -> DrawStyle:
    """A style whose hero, monster and village cells are filled solid in dark brown or black marker."""
    style = DrawStyle.random(rng, "params")
    dark = (40, 55, 95) if rng.random() < 0.5 else (40, 40, 45)
    looks = dict(style.looks)
    for t in ("H", "M", "V"):
        looks[t] = replace(looks[t], fill="solid", color=dark, coverage=1.0, density=1.0)
    return replace(style, looks=looks)


@dataclass
class SideRow:
    photos: int = 0
    found: int = 0
    side_ok: int = 0
    turn_ok: int = 0
    silent: int = 0

    def add(self, loc: Location | Failure, side: str, orientation: int) -> None:
        self.photos += 1
        if isinstance(loc, Failure):
            return
        self.found += 1
        wrong = loc.side != side or loc.orientation != orientation
        self.side_ok += loc.side == side
        self.turn_ok += loc.orientation == orientation
        self.silent += wrong and not loc.doubts()


def sides(count: int, folder: Path | None, seed: int = 5) -> dict[str, SideRow]:
    rows: dict[str, SideRow] = defaultdict(SideRow)
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        kinds = {
            "printer-friendly": (random_game(rng), "printfriendly", None),
            "heroes C/D": (random_game(rng, side=str(rng.choice(["C", "D"]))), "color", None),
            "dark fills": (random_game(rng), "color", dark_style(rng)),
            "dark fills pf": (random_game(rng), "printfriendly", dark_style(rng)),
        }
        for name, (game, theme, style) in kinds.items():
            page = render_page(game.sheet, rng, ppc=48, theme=theme, style=style, pieces=game.pieces,
                               split="params")
            photo = photograph(page, rng, tier="phone")
            rows[name].add(locate_sheet(photo.image), game.sheet.side, photo.orientation)
    if folder is not None and folder.is_dir():
        blanks = []
        for path in sorted(folder.glob("*.png")):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            flat = locate_sheet(image) if image is not None else None
            if image is None or not isinstance(flat, Location) or flat.orientation != 0:
                continue
            ps = printed_side(path.name[0])
            blanks.append((path, blank_on_image(image, flat.corners, ps.mountains | ps.wasteland)))
        per = max(1, count // max(len(blanks), 1))
        for k, (path, blank) in enumerate(blanks):
            for i in range(per):
                rng = np.random.default_rng([seed, 100 + k, i])
                game = random_game(rng, side=path.name[0])
                page = render_page(game.sheet, rng, style=dark_style(rng), pieces=game.pieces,
                                   split="params", blank=blank)
                photo = photograph(page, rng, tier="phone")
                name = "real pf dark" if "printfriendly" in path.stem else "real dark fills"
                rows[name].add(locate_sheet(photo.image), game.sheet.side, photo.orientation)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--synth", type=int, default=30, help="synthetic phone photos cropped")
    ap.add_argument("--real", type=int, default=3, help="warped photos per real reference sheet")
    ap.add_argument("--pairs", type=int, default=30, help="synthetic two-sheet photos (real: the warped "
                    "real photos paired)")
    ap.add_argument("--debug", type=Path, default=None, metavar="DIR",
                    help="write the two-sheet photos read as one sheet here, as PNG")
    ap.add_argument("--sides", type=int, default=30, help="photos per kind for the side check (0: none)")
    reference_images.add_option(ap)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    folder = reference_images.folder(args.reference, "sheets") if args.real or args.sides else None
    if args.synth:
        fresh = list(synth_shots(2 * args.pairs, seed0=1000))
        pairs = list(zip(fresh[0::2], fresh[1::2], strict=True))
        print_rows(f"synthetic phone photos ({args.synth}), cropped; {args.pairs} two-sheet photos",
                   crops(list(synth_shots(args.synth)), pairs=pairs, debug=args.debug))
    if args.real and folder is not None:
        shots = list(real_shots(folder, args.real))
        print_rows(f"real printed sheets from {folder} ({len(shots)} photos), cropped",
                   crops(shots, debug=args.debug))
    if args.sides:
        rows = sides(args.sides, folder)
        print(f"\nside and A1 corner ({args.sides} photos per synthetic kind)")
        print(f"{'kind':18} {'photos':>6} {'found':>6} {'side':>6} {'A1':>6} {'silent':>6}")
        for name, r in rows.items():
            print(f"{name:18} {r.photos:6d} {r.found:6d} {r.side_ok:6d} {r.turn_ok:6d} {r.silent:6d}")


if __name__ == "__main__":
    main()
