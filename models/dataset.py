"""Training and evaluation patches, made only by the project's own renderer.

One sample = one random game state (``models.synth``) rendered on a page, photographed by the synthetic
camera at some tier, rectified with its TRUE corners jittered by up to :data:`CORNER_JITTER` cell (the
locator's error), and cut by :mod:`scanner.sample` — exactly the path a real photo takes at inference.
Labels come from the renderer's truth. Per sheet the patches are white-balanced like inference does.

Patches are cached per sample as ``.npz`` under :data:`DEFAULT_CACHE` (gitignored), in a directory
named by a fingerprint of the renderer and scanner sources, so a code change never reuses stale data.
The train and eval splits use disjoint seed ranges, and the renderer draws the eval split with drawing
styles never used for training (``DrawStyle.random(rng, split="eval")``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from rules.grid import SIZE
from rules.sheet import Sheet
from scanner.constants import TERRAIN_SYMBOLS
from scanner.nets import paper_gain, white_balance

GENERATOR = "models.synth: play.random_game -> paper.render_page -> camera.photograph; scanner.rectify/sample"
DEFAULT_CACHE = Path(os.environ.get("CARTOSCAN_CACHE", ".cache/patches"))
#: Where :func:`sheet_inputs` keeps the whole-sheet inputs of the benchmarks and the decode fit.
SHEET_CACHE = Path(".cache/families")
#: Camera tiers cycled over the seeds (phone, the main target, twice as often).
TIERS = ("phone", "scan", "phone", "webcam", "hard")
TIERS_ORDER = ("scan", "phone", "webcam", "hard")
#: Largest corner offset (cells, each axis, uniform) added to the true corners: the locator's error.
CORNER_JITTER = 0.08
#: Independent error (cells, std) of each refined grid crossing.
CROSSING_NOISE = 0.02
#: First seed of each split; the ranges never meet for any sensible sample count.
SEED_BASE = {"train": 1_000_000, "eval": 9_000_000, "bench": 7_000_000}
SEED_STRIDE = 100_000
#: Seed offset between drawing families of one split (``family_seeds``), inside one recipe seed's range.
FAMILY_STRIDE = 10_000

#: Terrain class index of each notation symbol (printed ``^``/``-`` and ``?`` have none).
CLASS_OF = {s: i for i, s in enumerate(TERRAIN_SYMBOLS)}


def drawable_outcomes(truth: Sheet, grid: Sequence[str], best: np.ndarray) -> Iterator[tuple[str, int, str]]:
    """Each drawable cell of `truth` (a class the cell net reads) as the evaluations count it:
    ``(true symbol, index of the most likely class, symbol as read, '?' when doubtful)``, row-major.

    `grid` is the reading in notation, `best` the (11, 11) index of each cell's most likely class."""
    for r in range(SIZE):
        for c in range(SIZE):
            sym = truth[r, c].value
            if sym in CLASS_OF:
                yield sym, int(best[r, c]), grid[r][c]
COIN_CLASS = {"empty": 0, "filled": 1, "crossed": 2}
#: Sources whose change invalidates cached patches.
_FINGERPRINT_FILES = ("models/synth", "scanner/rectify.py", "scanner/sample.py", "scanner/constants.py",
                      "scanner/geometry.json", "models/dataset.py")


def seeds(split: str, n: int, seed: int = 0) -> list[int]:
    """The ``n`` sample seeds of ``split`` for recipe seed ``seed``."""
    base = SEED_BASE[split] + seed * SEED_STRIDE
    return list(range(base, base + n))


def seed_range(split: str, n: int, seed: int = 0) -> list[int]:
    s = seeds(split, n, seed)
    return [s[0], s[-1]] if s else []


def tier_of(seed: int) -> str:
    return TIERS[seed % len(TIERS)]


def save_whole(path: Path, arrays: Mapping[str, Any]) -> None:
    """``np.savez_compressed`` of ``arrays`` to ``path``, written under a name of this process's own and
    then moved: two runs filling or reading one cache (training runs, fits side by side) never replace
    each other's half-written file nor open one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # not named *.npz: a run killed mid-write leaves a file no reader of the cache's *.npz picks up
    # (written through a file object, so numpy appends no suffix)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.part")
    with tmp.open("wb") as f:
        np.savez_compressed(f, **arrays)
    tmp.replace(path)


KINDS = ("cell", "coin", "edge")
"""What a rendered sheet is cut into: one kind per net."""

_FIELDS_OF = {
    "cell": ("cells", "terrain", "star", "ruins", "cell_pos", "cell_sheet"),
    "coin": ("coins", "coin", "coin_sheet"),
    "edge": ("edges", "edge", "edge_sheet"),
}


@dataclass
class Patches:
    """Labelled patches of one or more samples; ``*_sheet`` is each patch's sample index."""

    cells: np.ndarray  # (N, P, P, 3) uint8, white-balanced
    terrain: np.ndarray  # (N,) class index into TERRAIN_CLASSES
    star: np.ndarray  # (N,) 0/1
    ruins: np.ndarray  # (N,) 0/1: printed ruins under the drawing
    cell_pos: np.ndarray  # (N,) r * 11 + c
    cell_sheet: np.ndarray
    coins: np.ndarray  # (M, P, P, 3)
    coin: np.ndarray  # (M,) index into COIN_CLASSES
    coin_sheet: np.ndarray
    edges: np.ndarray  # (K, h, w, 3), lying horizontally
    edge: np.ndarray  # (K,) 0/1
    edge_sheet: np.ndarray

    def arrays(self, kind: str) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
        """(inputs, label arrays per head, sample index) for ``kind`` in ``cell``, ``coin``, ``edge``."""
        if kind == "cell":
            return self.cells, [self.terrain, self.star], self.cell_sheet
        if kind == "coin":
            return self.coins, [self.coin], self.coin_sheet
        return self.edges, [self.edge], self.edge_sheet

    def keeping(self, kinds: Collection[str]) -> Patches:
        """The same patches with only ``kinds`` (of ``cell``, ``coin``, ``edge``) kept, the others
        empty: a run training the cell net alone need not hold every sheet's edge strips and coins
        (338 and 43 KB a sheet against the cells' 335 KB)."""
        emptied: dict[str, Any] = {}
        for kind, names in _FIELDS_OF.items():
            if kind not in kinds:
                for name in names:
                    a = getattr(self, name)
                    emptied[name] = np.empty((0, *a.shape[1:]), a.dtype)  # not a view: frees the data
        return replace(self, **emptied) if emptied else self

    @classmethod
    def concat(cls, parts: Sequence[Patches]) -> Patches:
        out: dict[str, Any] = {}
        for f in fields(cls):
            arrays = [getattr(p, f.name) for p in parts]
            if f.name.endswith("_sheet"):
                arrays = [np.full(len(a), i, np.int32) for i, a in enumerate(arrays)]
            out[f.name] = np.concatenate(arrays)
        return cls(**out)

    def save(self, path: Path) -> None:
        save_whole(path, {f.name: getattr(self, f.name) for f in fields(self)})

    @classmethod
    def load(cls, path: Path) -> Patches:
        with np.load(path) as z:
            return cls(**{f.name: z[f.name] for f in fields(cls)})


def jitter_corners(
    corners: np.ndarray, rng: np.random.Generator, amount: float = CORNER_JITTER
) -> np.ndarray:
    """Move each corner by up to ``amount`` cell on each axis (cell pitch estimated from the corners)."""
    c = np.asarray(corners, np.float64)
    pitch = np.mean([np.linalg.norm(c[(i + 1) % 4] - c[i]) for i in range(4)]) / SIZE
    moved: np.ndarray = c + rng.uniform(-amount, amount, size=c.shape) * pitch
    return moved


@dataclass(frozen=True)
class Sample:
    """One synthetic photo and its truth."""

    image: np.ndarray
    corners: np.ndarray  # (4, 2) photo px, sheet order
    crossings: np.ndarray  # (12, 12, 2) photo px of every grid crossing [row line, col line]
    sheet: Any  # rules.Sheet
    coin_states: tuple[int, ...]  # 0 empty, 1 filled, 2 crossed
    edges_h: np.ndarray  # (10, 11) bool
    edges_v: np.ndarray  # (11, 10) bool
    tier: str


def render(
    seed: int, *, split: str, tier: str | None = None, blank: bool = False, family: str | None = None
) -> Sample:
    """Play a random game (or take a blank side-A sheet), render it and photograph it; exact truth.

    The seed fixes everything; ``split`` picks the drawing styles (``train``, ``eval`` or ``params``,
    see :data:`models.synth.style.HALVES`; any other split name draws training styles); ``family``
    forces one drawing family (:data:`models.synth.style.ALL_FAMILIES`).
    """
    from models.synth.camera import photograph
    from models.synth.paper import render_page
    from models.synth.play import random_game
    from models.synth.style import SPLITS
    from rules import Sheet

    rng = np.random.default_rng(seed)
    tier = tier or tier_of(seed)
    pieces: tuple[frozenset[tuple[int, int]], ...] = ()
    if blank:
        sheet = Sheet.blank("A")
    else:
        game = random_game(rng)
        sheet, pieces = game.sheet, game.pieces
    theme = "printfriendly" if rng.random() < 0.3 else "color"
    page = render_page(sheet, rng, ppc=float(rng.uniform(40, 72)), theme=theme, pieces=pieces,
                       split=split if split in SPLITS else "train", family=family)
    photo = photograph(page, rng, tier=tier)
    nodes = np.stack(np.meshgrid(np.arange(12.0), np.arange(12.0), indexing="xy"), axis=-1)
    crossings = photo.page_to_photo(page.cells_to_page(nodes.reshape(-1, 2))).reshape(12, 12, 2)
    return Sample(image=photo.image, corners=np.asarray(photo.corners, np.float64), crossings=crossings,
                  sheet=sheet, coin_states=tuple(int(v) for v in page.coin_states),
                  edges_h=np.asarray(page.edges_h, bool), edges_v=np.asarray(page.edges_v, bool), tier=tier)


def canonical_of(sample: Sample, rng: np.random.Generator | None) -> np.ndarray:
    """Rectify ``sample`` as the scanner would after locating it: true geometry plus locator-like error.

    Half the time the warp follows the (jittered) grid crossings, as after the locator's line
    refinement; otherwise only the jittered corners are used, so curled paper shifts the cells too.
    ``rng=None`` rectifies with the exact crossings.
    """
    from scanner.rectify import rectify

    if rng is None:
        return rectify(sample.image, sample.corners, crossings=sample.crossings)
    jittered = jitter_corners(sample.corners, rng)
    if rng.random() < 0.5:
        return rectify(sample.image, jittered)
    # Move all crossings by the homography that moves the true corners to the jittered ones.
    import cv2

    h = cv2.getPerspectiveTransform(sample.corners.astype(np.float32), jittered.astype(np.float32))
    moved = cv2.perspectiveTransform(sample.crossings.reshape(-1, 1, 2), h).reshape(12, 12, 2)
    pitch = np.linalg.norm(sample.corners[1] - sample.corners[0]) / SIZE
    moved = moved + rng.normal(0.0, CROSSING_NOISE, moved.shape) * pitch
    return rectify(sample.image, jittered, crossings=moved)


def sheet_inputs(
    seed: int, family: str, split: str, tier: str, *, cache: Path | None = None, key: str | None = None
) -> dict[str, Any]:
    """What ``scanner.classify.classify_sheet`` reads of one rendered photo, and its truth.

    Returns ``cells``, ``coins``, ``horizontal`` and ``vertical`` (the patches and outline strips of
    the photo rectified with locator-like error) and ``truth`` (the sheet's notation). Cached as
    ``.npz`` under ``cache/key/split-family-tier`` (``key`` defaults to the renderer's fingerprint),
    so several models, or a second run, read the very same photos without rendering them again.
    """
    from scanner.sample import cell_patches, coin_patches, edge_strips

    path = None
    if cache is not None:
        path = cache / (key or fingerprint()) / f"{split}-{family}-{tier}" / f"{seed}.npz"
        if path.is_file():
            with np.load(path) as z:
                return {k: z[k] for k in z.files}
    sample = render(seed, split=split, tier=tier, family=family)
    canonical = canonical_of(sample, np.random.default_rng([seed, 77]))
    strips = edge_strips(canonical)
    out: dict[str, Any] = {
        "cells": cell_patches(canonical), "coins": coin_patches(canonical),
        "horizontal": strips.horizontal, "vertical": strips.vertical,
        "truth": np.array(str(sample.sheet)),
    }
    if path is not None:
        save_whole(path, out)
    return out


def sample_patches(seed: int, split: str, family: str | None = None, tier: str | None = None) -> Patches:
    """Render, photograph, rectify (locator-like error) and cut one sample."""
    from scanner.sample import cell_patches, coin_patches, edge_strips

    sample = render(seed, split=split, family=family, tier=tier)
    canonical = canonical_of(sample, np.random.default_rng([seed, 77]))
    raw_cells = cell_patches(canonical)
    gain = paper_gain(raw_cells)  # one paper estimate balances the cells, coins and edges alike
    cells = white_balance(raw_cells, gain=gain)
    sheet = sample.sheet
    keep, terrain, star, ruins, pos = [], [], [], [], []
    for r in range(11):
        for c in range(11):
            sym = sheet[r, c].value
            if sym not in CLASS_OF:  # printed mountain / wasteland: never classified
                continue
            keep.append(cells[r, c])
            terrain.append(CLASS_OF[sym])
            star.append(int((r, c) in sheet.stars))
            ruins.append(int((r, c) in sheet.ruins))
            pos.append(r * 11 + c)
    coins = white_balance(coin_patches(canonical), gain=gain)
    coin = np.array(sample.coin_states, np.int64)
    strips = edge_strips(canonical)
    edges = np.concatenate([strips.horizontal.reshape(-1, *strips.horizontal.shape[-3:]),
                            strips.vertical.reshape(-1, *strips.vertical.shape[-3:])])
    edges = white_balance(edges, gain=gain)
    edge = np.concatenate([sample.edges_h.ravel(), sample.edges_v.ravel()]).astype(np.int64)
    n, m, k = len(keep), len(coins), len(edges)
    return Patches(
        cells=np.stack(keep), terrain=np.array(terrain), star=np.array(star), ruins=np.array(ruins),
        cell_pos=np.array(pos), cell_sheet=np.zeros(n, np.int32),
        coins=coins, coin=coin, coin_sheet=np.zeros(m, np.int32),
        edges=edges, edge=edge, edge_sheet=np.zeros(k, np.int32),
    )


def fingerprint(root: Path | None = None) -> str:
    """A short hash of the sources that shape the patches."""
    base = root if root is not None else Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for name in _FINGERPRINT_FILES:
        p = base / name
        files = sorted([*p.rglob("*.py"), *p.rglob("*.json")]) if p.is_dir() else [p]
        for f in files:
            if f.is_file():
                h.update(f.relative_to(base).as_posix().encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:12]


def family_seeds(split: str, family: str, n: int, seed: int = 0, start: int = 0) -> list[int]:
    """The ``n`` sample seeds (from the ``start``-th) of one drawing family: a range of its own per
    family, inside recipe seed ``seed``'s range of ``split``."""
    from models.synth.style import ALL_FAMILIES

    base = SEED_BASE[split] + seed * SEED_STRIDE + FAMILY_STRIDE * (1 + ALL_FAMILIES.index(family)) + start
    return list(range(base, base + n))


def join(parts: Sequence[Patches], sheets: Sequence[int]) -> Patches:
    """One :class:`Patches` of several multi-sample ones (``sheets[i]`` samples in ``parts[i]``), the
    sample indices kept apart."""
    out: dict[str, Any] = {}
    offsets = np.concatenate([[0], np.cumsum(sheets)[:-1]]).astype(np.int32)
    for f in fields(Patches):
        arrays = [getattr(p, f.name) for p in parts]
        if f.name.endswith("_sheet"):
            arrays = [a + o for a, o in zip(arrays, offsets, strict=True)]
        out[f.name] = np.concatenate(arrays)
    return Patches(**out)


def _cached(args: tuple[int, str, str, str | None, str | None]) -> Patches:
    seed, split, directory, family, tier = args
    folder = split if family is None else f"{split}-{family}" + (f"-{tier}" if tier else "")
    path = Path(directory) / folder / f"{seed}.npz"
    if path.is_file():
        try:
            return Patches.load(path)
        except (OSError, ValueError, KeyError):
            pass
    p = sample_patches(seed, split, family, tier)
    p.save(path)
    return p


def build(
    sample_seeds: Sequence[int],
    *,
    split: str,
    cache: Path | None = DEFAULT_CACHE,
    workers: int = 1,
    key: str | None = None,
    log: Callable[[str], None] | None = None,
    family: str | None = None,
    tier: str | None = None,
    kinds: Collection[str] = KINDS,
) -> Patches:
    """Patches of all ``sample_seeds`` (cached when ``cache`` is given, under ``key``, by default the
    :func:`fingerprint` of the current sources); ``family`` forces one drawing family, ``tier`` one
    camera tier; only ``kinds`` kept (:meth:`Patches.keeping`; the cache holds them all)."""
    if cache is None:
        return Patches.concat([sample_patches(s, split, family, tier).keeping(kinds) for s in sample_seeds])
    directory = str(Path(cache) / (key or fingerprint()))
    jobs = [(s, split, directory, family, tier) for s in sample_seeds]
    parts: list[Patches] = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for i, p in enumerate(pool.map(_cached, jobs, chunksize=4)):
                parts.append(p.keeping(kinds))
                if log and (i + 1) % 50 == 0:
                    log(f"  {split}: {i + 1}/{len(jobs)} samples")
    else:
        for i, job in enumerate(jobs):
            parts.append(_cached(job).keeping(kinds))
            if log and (i + 1) % 50 == 0:
                log(f"  {split}: {i + 1}/{len(jobs)} samples")
    return Patches.concat(parts)
