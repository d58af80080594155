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

import pytest

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


COMMANDS = ("scan", "score", "cards", "batch", "check", "game", "report", "serve", "synth", "live")


@pytest.mark.parametrize(
    "args",
    [[c, "--help"] for c in COMMANDS]
    + [["scan"], ["scan", "--bogus", "x.jpg"], ["cards", "--json", "--x"], ["game"]]
    + [["synth", "--count", "x"]],
)
def test_the_app_of_one_command_parses_helps_and_fails_as_the_whole_app(args: list[str]) -> None:
    # main() builds only the command named first (typer builds every command's options on each start)
    from typer.main import get_command
    from typer.testing import CliRunner

    import cli

    one = cli._app_for(args)
    assert one is not cli.app and list(get_command(one).commands) == [args[0]]  # type: ignore[attr-defined]
    runner = CliRunner()
    whole, alone = runner.invoke(cli.app, args), runner.invoke(one, args)
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["scna", "x.jpg"], ["x.jpg"]])
def test_no_command_named_first_is_the_whole_app(args: list[str]) -> None:
    import cli

    assert cli._app_for(args) is cli.app
    assert len(cli.app.registered_commands) == len(COMMANDS)
