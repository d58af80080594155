"""One synthetic sample end to end: random game -> rendered page -> photo, and writing it to disk.

``make_sample(seed, tier=..., split=...)`` is a pure function of its arguments (one
``numpy.random.Generator`` built from the seed and the split is passed down; no global state), so a
seed names a sample forever. ``write_sample`` stores ``<stem>.jpg`` (the very JPEG bytes the camera
produced), ``<stem>.sheet`` (the notation of docs/INTERFACES.md §1) and ``<stem>.json`` (corners,
coins, orientation...).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.synth.camera import TIERS, Photo, choose_size, photograph
from models.synth.paper import Page, render_page
from models.synth.play import Game, random_game
from models.synth.style import SPLITS
from rules.sheet import Sheet

# Page resolution follows the photo: about one page pixel per photo pixel, within these bounds
# (below 40 the pencil detail is lost; above 64 rendering time grows fast while the scanner works at 48).
PPC_RANGE = (40.0, 64.0)
FILL_CHANCE = 0.3  # share of samples stopped at a random fill level instead of after a season
THEME_WEIGHTS = {"color": 0.75, "printfriendly": 0.25}
FORMAT_VERSION = 1


class SynthError(ValueError):
    """Bad arguments to the sample generator (unknown tier or split, unwritable directory)."""


@dataclass(frozen=True, eq=False)
class Sample:
    """A synthetic photo of a filled-in sheet with its complete truth."""

    seed: int
    split: str
    game: Game
    page: Page
    photo: Photo

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return (f"<Sample {self.split} seed {self.seed}: {self.tier} {w}x{h}, side {self.side}, "
                f"orientation {self.orientation}>")

    @property
    def sheet(self) -> Sheet:
        return self.game.sheet

    @property
    def image(self) -> np.ndarray:
        return self.photo.image

    @property
    def corners(self) -> np.ndarray:
        return self.photo.corners

    @property
    def coin_centers(self) -> np.ndarray:
        return self.photo.coin_centers

    @property
    def crossings(self) -> np.ndarray:
        """Photo px of the grid line crossings, shape (12, 12, 2): ``[row_line, col_line]`` (row line 0
        is the top of row A), curl included; what a scanner following bent paper should find."""
        lines = np.arange(12, dtype=np.float64)
        cells = np.stack(np.meshgrid(lines, lines), -1).reshape(-1, 2)  # (x = col line, y = row line)
        return self.photo.page_to_photo(self.page.cells_to_page(cells)).reshape(12, 12, 2)

    @property
    def coin_states(self) -> tuple[int, ...]:
        """Per coin circle: 0 empty, 1 filled, 2 crossed out (spent)."""
        return self.page.coin_states

    @property
    def pieces(self) -> tuple[frozenset[tuple[int, int]], ...]:
        return self.game.pieces

    @property
    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Internal edges carrying a pencil outline: horizontal (10, 11) and vertical (11, 10)."""
        return self.page.edges_h, self.page.edges_v

    @property
    def side(self) -> str:
        return self.sheet.side

    @property
    def orientation(self) -> int:
        return self.photo.orientation

    @property
    def tier(self) -> str:
        return self.photo.tier

    def truth(self) -> dict[str, object]:
        """The JSON-able truth written next to the photo."""
        return {
            "format": FORMAT_VERSION,
            "seed": self.seed,
            "split": self.split,
            "tier": self.tier,
            "side": self.side,
            "orientation": self.orientation,
            "size": [int(self.image.shape[1]), int(self.image.shape[0])],
            "corners": np.round(self.corners, 3).tolist(),
            "coin_centers": np.round(self.coin_centers, 3).tolist(),
            "coin_states": list(self.coin_states),
            "edges_h": self.page.edges_h.astype(int).tolist(),
            "edges_v": self.page.edges_v.astype(int).tolist(),
            "theme": self.page.theme,
            "seasons": self.game.seasons,
        }


def rng_for(seed: int, split: str) -> np.random.Generator:
    """The generator behind sample ``seed`` of ``split`` (no two splits share a stream)."""
    if split not in SPLITS:
        raise SynthError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return np.random.default_rng([SPLITS.index(split), seed])


def make_sample(seed: int, *, tier: str = "phone", split: str = "train",
                size: tuple[int, int] | None = None) -> Sample:
    """Generate sample ``seed``: a random legal game, drawn on a page, photographed at ``tier``.

    Parameters
    ----------
    seed : any non-negative int.
    tier : ``scan``, ``phone``, ``webcam`` or ``hard``.
    split : ``train``, ``eval`` (held-out drawing styles) or ``params`` (held-out hand, training
        pictures); each has its own random stream.
    size : (width, height) of the photo; default: random within the tier's range.
    """
    if tier not in TIERS:
        raise SynthError(f"unknown tier {tier!r}; choose one of {', '.join(TIERS)}")
    rng = rng_for(seed, split)
    if rng.random() < FILL_CHANCE:
        game = random_game(rng, season=4, fill=float(rng.uniform(0.0, 1.0)))
    else:
        game = random_game(rng)
    w, h = size if size is not None else choose_size(rng, TIERS[tier])
    fill = float(np.mean(TIERS[tier].fill))
    ppc = float(np.clip(fill * max(w, h) / 19.2, *PPC_RANGE))  # the page is 19.2 cells tall
    theme = str(rng.choice(list(THEME_WEIGHTS), p=list(THEME_WEIGHTS.values())))
    page = render_page(game.sheet, rng, ppc=round(ppc), theme=theme, pieces=game.pieces, split=split)
    photo = photograph(page, rng, tier=tier, size=(w, h))
    return Sample(seed=seed, split=split, game=game, page=page, photo=photo)


def write_sample(sample: Sample, out_dir: Path | str, stem: str) -> list[Path]:
    """Write ``<stem>.jpg``, ``<stem>.sheet`` and ``<stem>.json`` into ``out_dir``; returns the paths."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / f"{stem}.jpg", out / f"{stem}.sheet", out / f"{stem}.json"]
        paths[0].write_bytes(sample.photo.jpeg)
        header = f"# synthetic sample {sample.split} seed {sample.seed}, tier {sample.tier}\n"
        paths[1].write_text(header + sample.sheet.to_text(), encoding="utf-8")
        paths[2].write_text(json.dumps(sample.truth(), separators=(",", ":")) + "\n", encoding="utf-8")
    except OSError as exc:
        raise SynthError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return paths
