"""Everything the reader gives for a set of photos, to a file; two such files compared number by number.

    python benchmarks/reading_digest.py --images images.npz --out before.npz [--photos 4]  # one checkout
    python benchmarks/reading_digest.py --images images.npz --out after.npz                # another
    python benchmarks/reading_digest.py --compare before.npz after.npz

What a change meant to be only faster must leave alone, bit for bit: rendered photos (``--photos`` per
split and tier: train, eval, params x phone, scan, webcam, hard; each cut at its true corners) and the
bundled samples (where the locator puts them, and as each printed side), each read by
``classify_sheet`` three ways (as the product does, reading every edge strip, without the per-sheet
decoding): every field of the reading, the patches it was given, and ``read_photo`` of the samples.
``--images``: the canonical images are rendered into that file the first time and read from it after,
so that both checkouts read the very same pixels (the renderer changes too). ``--compare`` prints every
key whose value differs (and by how much) and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from scanner.classify import SheetReading, classify_sheet
from scanner.nets import load_models
from scanner.sample import cell_patches, coin_patches, edge_strips

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SPLITS = ("train", "eval", "params")
TIERS = ("phone", "scan", "webcam", "hard")
FIRST_SEED = 9_100_000
FIELDS = ("grid", "confidence", "probabilities", "coins", "spent", "coin_states", "coin_confidence",
          "star_probability", "doubtful", "doubtful_coins", "stars", "groups")
WAYS = {"product": {}, "every_edge": {"every_edge": True}, "no_decode": {"decode": False, "adapt": False}}


def canonicals(photos: int) -> Iterator[tuple[str, np.ndarray, str]]:
    """(name, canonical image, printed side) of every photo read."""
    from models.synth.generate import make_sample
    from scanner.load import load_photo
    from scanner.locate import locate_sheet
    from scanner.rectify import rectify

    seed = FIRST_SEED
    for split in SPLITS:
        for tier in TIERS:
            for _ in range(photos):
                s = make_sample(seed, tier=tier, split=split)
                yield f"{split}-{tier}-{seed}", rectify(s.image, s.corners), s.sheet.side
                seed += 1
    for path in sorted(SAMPLES.glob("*.jpg")):
        photo = load_photo(path)
        if not photo:
            continue
        found = locate_sheet(photo.image)
        if not found:
            continue
        canonical = rectify(photo.image, np.asarray(found.corners, float), crossings=found.crossings)
        for side in (found.side, *(s for s in "ABCD" if s != found.side)):
            yield f"{path.name}-{side}", canonical, side


def _fields(reading: SheetReading) -> dict[str, np.ndarray]:
    out = {name: np.asarray(getattr(reading, name)) for name in FIELDS if name not in ("stars", "groups")}
    out["stars"] = np.asarray(sorted(reading.stars)).reshape(-1, 2)
    out["groups"] = np.asarray(repr(reading.groups))
    out |= {f"outline_{key}": value for key, value in reading.outlines.items()}
    return out


def images(path: Path, photos: int) -> list[tuple[str, np.ndarray, str]]:
    """:func:`canonicals`, rendered into ``path`` the first time, read from it after."""
    if path.exists():
        with np.load(path) as z:
            return [(name, z[f"{name}/image"], str(z[f"{name}/side"]))
                    for name in sorted({k.rsplit("/", 1)[0] for k in z.files})]
    found = list(canonicals(photos))
    np.savez_compressed(path, **{f"{name}/image": image for name, image, _ in found},
                        **{f"{name}/side": np.asarray(side) for name, _, side in found})
    return found


def digest(read: list[tuple[str, np.ndarray, str]]) -> dict[str, np.ndarray]:
    from scanner.pipeline import read_photo

    models = load_models(None, threads=1)
    found: dict[str, np.ndarray] = {}
    for name, canonical, side in read:
        cells, coins, strips = cell_patches(canonical), coin_patches(canonical), edge_strips(canonical)
        found |= {f"{name}/patches/{k}": v for k, v in
                  {"cells": cells, "coins": coins, **strips._asdict()}.items()}
        for way, options in WAYS.items():
            reading = classify_sheet(cells, side, coin_patches=coins, edge_strips=strips._asdict(),
                                     models=models, **options)
            found |= {f"{name}/{way}/{k}": v for k, v in _fields(reading).items()}
    for path in sorted(SAMPLES.glob("*.jpg")):
        read = read_photo(path, models=models)
        if read:
            found |= {f"{path.name}/read_photo/sheet": np.asarray(str(read.sheet)),
                      f"{path.name}/read_photo/doubts": np.asarray(read.doubts),
                      f"{path.name}/read_photo/confidence": read.confidence,
                      f"{path.name}/read_photo/corners": read.corners}
    return found


def compare(a: Path, b: Path) -> int:
    with np.load(a) as x, np.load(b) as y:
        differ = sorted(set(x.files) ^ set(y.files))
        for key in differ:
            print(f"only in one: {key}")
        for key in sorted(set(x.files) & set(y.files)):
            u, v = x[key], y[key]
            if u.shape != v.shape or u.dtype != v.dtype:
                differ.append(key)
                print(f"{key}: {u.shape} {u.dtype} against {v.shape} {v.dtype}")
            elif not np.array_equal(u, v, equal_nan=u.dtype.kind == "f"):
                differ.append(key)
                gap = np.abs(u.astype(float) - v.astype(float)).max() if u.dtype.kind in "fiu" else "text"
                print(f"{key}: differs ({gap})")
        print(f"{len(x.files)} values, {len(differ)} differ")
    return 1 if differ else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="write the digest here (.npz)")
    ap.add_argument("--photos", type=int, default=4, help="rendered photos per split and tier")
    ap.add_argument("--images", type=Path, help="the canonical images read (rendered there if missing)")
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    args = ap.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    if args.out is None or args.images is None:
        ap.error("give --images FILE and --out FILE, or --compare A B")
    found = digest(images(args.images, args.photos))
    np.savez_compressed(args.out, **found)
    print(f"{len(found)} values written to {args.out}")


if __name__ == "__main__":
    main()
