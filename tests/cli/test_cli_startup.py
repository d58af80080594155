"""What reading a photo imports: the heavy modules it needs no longer load at start (issue 12).

The start-up time itself is measured by ``benchmarks/bench_startup.py``; this only keeps the modules
that were taken off the path (SciPy ~0.3 s, the scoring cards and policy, PIL for JPEG/PNG, and
``numpy.ma``, which NumPy 2's ``np.median``/``np.percentile``/``np.unique`` import on first use, ~8 ms)
off it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "phone_clear_A.jpg"

PROBE = """
import json, sys
import cli
from scanner.pipeline import read_photo
reading = read_photo(sys.argv[1])
assert reading, reading
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in ("scipy", "PIL")
                        or name in ("rules.policy", "rules.doubt", "rules.cards", "numpy.ma"))))
"""


def test_reading_a_photo_imports_no_scipy_no_pil_no_scoring_no_masked_arrays() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(SAMPLE)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == []
