"""Benchmark: `cartoscan scan PHOTO --json` as a whole process on a 12 MP photo, and its import share.

Run:  python benchmarks/bench_startup.py [--runs 7] [--repo DIR ...] [--no-bytecode-cache]

Each ``--repo`` is a checkout whose code runs (``PYTHONPATH=DIR``); give two (say ``/work/main`` and
this worktree) to compare them within one run, the runs interleaved so that machine load hits both
alike.  The photo is a sample sheet scaled to 4000x3000 px (12 MP) and saved as a JPEG in a temporary
folder.  The runs keep their compiled bytecode in that folder too (``PYTHONPYCACHEPREFIX``), filled by
a first run per checkout, as an installed command's is (pip compiles it; Python caches it by default):
without it, an environment with ``PYTHONDONTWRITEBYTECODE`` set would compile the project's modules
from source on every run (``--no-bytecode-cache`` measures that).  Per checkout it prints medians of:

* ``whole``: wall time of the whole process (interpreter start to exit);
* ``cpu``: its CPU time (user + system), which a busy machine inflates far less than the wall time:
  the nearer estimate of the idle wall time for this single-threaded run;
* ``python``: a bare interpreter (``python -c pass``), the floor no project change can lower;
* ``imports``: the interpreter's own import clock (``python -X importtime``, top-level imports
  summed; a separate run, as the clock slows the imports a little);
* ``pipeline``: the stages' own timings (``timings_ms`` in the JSON: load, locate, ..., classify);

and the shares of ``whole`` (ratios within one run, since the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "phone_clear_A.jpg"
_TOP_IMPORT = re.compile(r"import time:\s+\d+\s+\|\s+(\d+)\s+\|\s(\S)")


def make_photo(folder: Path) -> Path:
    """The sample sheet scaled to 4000x3000 (12 MP), portrait like the sample, saved as a JPEG."""
    import cv2

    image = cv2.imread(str(SAMPLE), cv2.IMREAD_COLOR)
    big = cv2.resize(image, (3000, 4000), interpolation=cv2.INTER_CUBIC)
    path = folder / "photo_12mp.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def command(photo: Path) -> list[str]:
    """The console command as installed (its script imports ``cli`` from PYTHONPATH first)."""
    script = shutil.which("cartoscan")
    if script is not None:
        return [sys.executable, script, "scan", str(photo), "--json"]
    return [sys.executable, "-c", "import cli; cli.main()", "scan", str(photo), "--json"]


def run(argv: list[str], repo: Path, cache: Path | None = None) -> tuple[float, float, str, str]:
    """Wall time, CPU time (user + system of the child, which a loaded machine inflates far less than
    the wall time), stdout and stderr of one run; ``cache``: the folder for its compiled bytecode."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    if cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)  # it mirrors each source path: one for all checkouts
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"{argv} failed ({proc.returncode}): {stderr.strip()[-300:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, stdout, stderr


def import_seconds(stderr: str) -> float:
    """Top-level imports' cumulative time from ``-X importtime`` output (seconds)."""
    total = 0
    for line in stderr.splitlines():
        m = _TOP_IMPORT.match(line)
        if m and m.group(2) != " ":  # a name right after '| ' is a top-level import
            total += int(m.group(1))
    return total / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per checkout and measure (default 7)")
    parser.add_argument("--repo", type=Path, action="append", help="checkout to run (repeatable)")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="run as the environment says (with PYTHONDONTWRITEBYTECODE set, the project's "
                             "modules are compiled on every run)")
    args = parser.parse_args()
    repos = [p.resolve() for p in (args.repo or [ROOT])]

    with tempfile.TemporaryDirectory() as tmp:
        photo = make_photo(Path(tmp))
        argv = command(photo)
        cache = None if args.no_bytecode_cache else Path(tmp) / "pycache"
        figures: dict[Path, dict[str, list[float]]] = {
            repo: {"whole": [], "cpu": [], "python": [], "imports": [], "pipeline": []} for repo in repos
        }
        for repo in repos:  # warm the file cache (and fill the bytecode cache) once per checkout
            run(argv, repo, cache)
        for _ in range(args.runs):
            for repo in repos:
                f = figures[repo]
                elapsed, cpu, out, _ = run(argv, repo, cache)
                f["whole"].append(elapsed)
                f["cpu"].append(cpu)
                f["pipeline"].append(sum(json.loads(out)["timings_ms"].values()) / 1000)
                f["python"].append(run([sys.executable, "-c", "pass"], repo, cache)[0])
                _, _, _, err = run([sys.executable, "-X", "importtime", *argv[1:]], repo, cache)
                f["imports"].append(import_seconds(err))
    print(f"cartoscan scan PHOTO --json, 12 MP photo, median of {args.runs} runs per checkout, "
          f"{'bytecode compiled on every run' if cache is None else 'bytecode cached'}")
    print(f"{'checkout':<28} {'whole s':>8} {'cpu s':>8} {'python':>8} {'imports':>8} {'pipeline':>8}"
          f" {'imports/whole':>14} {'pipeline/whole':>15}")
    base = None
    for repo in repos:
        med = {k: statistics.median(v) for k, v in figures[repo].items()}
        print(
            f"{str(repo)[-28:]:<28} {med['whole']:8.3f} {med['cpu']:8.3f} {med['python']:8.3f}"
            f" {med['imports']:8.3f} {med['pipeline']:8.3f} {med['imports'] / med['whole']:14.0%}"
            f" {med['pipeline'] / med['whole']:15.0%}"
        )
        if base is None:
            base = med
        else:
            print(f"{'':<28} whole / first checkout's: {med['whole'] / base['whole']:.2f},"
                  f" cpu: {med['cpu'] / base['cpu']:.2f}")


if __name__ == "__main__":
    main()
