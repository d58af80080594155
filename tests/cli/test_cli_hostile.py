"""The hostile-input corpus (issue 12): every case of ``tests/data/cli/hostile.json`` run by one runner.

A case makes its files in an empty folder, runs the command there and checks the exit status, that
stderr is one line with no traceback (or the note lines the case allows), and whatever else it asks
(see the data file's ``about``).  Cases marked ``process`` run the real console command in a child
process with this checkout on ``PYTHONPATH``, a time limit (a hang, e.g. on a FIFO, fails instead of
blocking the suite) and a peak-memory limit; the rest run ``cli.main()`` here, stdout and stderr
captured at the file-descriptor level (so C libraries printing on fd 2 are caught too).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES: list[dict[str, Any]] = json.loads((ROOT / "tests/data/cli/hostile.json").read_text("utf-8"))["cases"]
CARD4 = "sentinel_wood,canal_lake,wildholds,borderlands"
TIME_LIMIT = 180  # seconds for one child process: a bound against hangs, not a speed goal
MEMORY_LIMIT_MB = 1500  # peak resident memory of one child process unless the case says less


# --- making the files -----------------------------------------------------------------------------


def _png(width: int, height: int, pixels: bytes | None = None) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    raw = pixels if pixels is not None else b"".join(b"\x00" + bytes(width) for _ in range(height))
    return b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def _jpeg_with_junk(data: bytes) -> bytes:
    """A whole JPEG with stray bytes before its end marker: libjpeg decodes it and complains."""
    end = data.rindex(b"\xff\xd9")
    return data[:end] + b"\x13\x37\x13\x37" + data[end:]


def _make(folder: Path, spec: dict[str, Any]) -> None:
    from PIL import Image

    from rules import Sheet
    from rules.grid import parse_label

    # a name given as hex bytes may be no UTF-8 at all (as os.fsdecode holds it: surrogates)
    path = folder / (os.fsdecode(bytes.fromhex(spec["path_hex"])) if "path_hex" in spec else spec["path"])
    path.parent.mkdir(parents=True, exist_ok=True)
    if spec.get("dir"):
        path.mkdir()
    elif spec.get("fifo"):
        os.mkfifo(path)
    elif "symlink" in spec:
        path.symlink_to(spec["symlink"])
    elif "text" in spec:
        path.write_bytes(spec["text"].encode("utf-8"))
    elif "hex" in spec:
        path.write_bytes(bytes.fromhex(spec["hex"]))
    elif "repeat" in spec:
        rep = spec["repeat"]
        with path.open("wb") as handle:  # in chunks: the test must not hold the hostile file either
            handle.write(rep.get("before", "").encode())
            block, left = rep["text"].encode(), rep["times"]
            while left:
                n = min(left, 65536)
                handle.write(block * n)
                left -= n
            handle.write(rep.get("after", "").encode())
    elif "sheet" in spec:
        want = spec["sheet"]
        sheet = Sheet.blank(want.get("side", "A")).replace(
            {parse_label(label): symbol for label, symbol in want.get("cells", {}).items()},
            coins=want.get("coins", 0),
        )
        path.write_text(("\ufeff" if spec.get("bom") else "") + sheet.to_text(), encoding="utf-8")
    elif "sample" in spec:
        data = (ROOT / "samples" / spec["sample"]).read_bytes()
        if "truncate_to" in spec:
            data = data[: int(len(data) * spec["truncate_to"])]
        if spec.get("junk"):
            data = _jpeg_with_junk(data)
        path.write_bytes(data)
    elif spec.get("models") == "corrupt":  # a package shadowing models/, one ONNX file altered
        path.mkdir()
        (path / "__init__.py").write_text("", encoding="utf-8")
        for name in ("manifest.json", "cell.onnx", "coin.onnx", "edge.onnx"):
            shutil.copyfile(ROOT / "models" / name, path / name)
        data = bytearray((path / "cell.onnx").read_bytes())
        data[-1] ^= 0xFF
        (path / "cell.onnx").write_bytes(bytes(data))
    elif spec.get("gif"):
        Image.new("RGB", (64, 48), (200, 180, 40)).save(path, format="GIF")
    elif spec.get("png_truncated"):
        rng = np.random.default_rng(0)
        whole = _png(300, 200, b"".join(b"\x00" + rng.bytes(300) for _ in range(200)))
        path.write_bytes(whole[: len(whole) // 2])
    elif spec.get("png_bomb"):
        path.write_bytes(_png(40000, 40000, b""))  # the header alone announces 1.6 gigapixels
    elif spec.get("blank_photo"):
        grey = np.random.default_rng(1).integers(90, 110, (600, 800), dtype=np.uint8)
        Image.fromarray(grey).convert("RGB").save(path, format="JPEG")
    else:
        raise AssertionError(f"unknown file spec {spec}")


def _args(case: dict[str, Any]) -> list[str]:
    return [arg.replace("{card4}", CARD4) for arg in case["args"]]


# --- running the command --------------------------------------------------------------------------


def _stdin_bytes(case: dict[str, Any]) -> bytes | None:
    return case["stdin"].encode() if "stdin" in case else None


def _run_here(case: dict[str, Any], folder: Path, capfd: Any, monkeypatch: Any) -> tuple[int, str, str]:
    import cli

    monkeypatch.chdir(folder)
    for key, value in case.get("env", {}).items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "argv", ["cartoscan", *_args(case)])
    data = _stdin_bytes(case)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data or b""), encoding="utf-8"))
    capfd.readouterr()
    try:
        cli.main()
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capfd.readouterr()
    return status, out, err


def _command() -> list[str]:
    script = shutil.which("cartoscan")
    return [sys.executable, script] if script else [sys.executable, "-c", "import cli; cli.main()"]


# A spawned child's ru_maxrss counts from before its exec, and Python spawns through vfork, so a
# child's peak would include this test process's own resident memory (a whole pytest run holds about
# 400 MB). The command therefore runs under a small launcher that forks it from its own small memory
# and writes the command's own peak (kB) to the file named first; its exit status is the command's.
_LAUNCHER = """
import os, signal, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as peak:
    peak.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


def _measured(command: list[str], peak_file: Path) -> list[str]:
    """`command` (an absolute executable first) under the launcher that reports its own peak memory."""
    return [sys.executable, "-c", _LAUNCHER, str(peak_file), *command]


def _peak_mb(peak_file: Path) -> float:
    """The launcher's report in MB (0 when the launcher was killed before it could write one)."""
    text = peak_file.read_text() if peak_file.exists() else ""
    return int(text) / 1024 if text else 0.0


def _run_process(case: dict[str, Any], folder: Path) -> tuple[int, str, str, float]:
    """Run the console command; returns status, stdout, stderr and the child's peak memory in MB."""
    first = [str(folder / p) for p in case.get("pythonpath_first", [])]  # e.g. a shadowing package
    path = os.pathsep.join([*first, str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path, "OMP_NUM_THREADS": "1", **case.get("env", {})}
    feed = case.get("stdin_repeat")
    data = _stdin_bytes(case)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        peak_file = folder.parent / "peak-kb"  # outside the case's folder, whose listing cases check
        peak_file.unlink(missing_ok=True)
        proc = subprocess.Popen(
            _measured([*_command(), *_args(case)], peak_file),
            cwd=folder,
            env=env,
            stdin=subprocess.PIPE if (feed or data is not None) else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,  # the time limit kills the launcher and the command together
        )

        def write() -> None:  # in blocks, so that neither side holds 200 MB
            assert proc.stdin is not None
            try:
                if feed:
                    block = feed["text"].encode() * 65536
                    for _ in range(feed["times"] // 65536 + 1):
                        proc.stdin.write(block)
                elif data:
                    proc.stdin.write(data)
            except (BrokenPipeError, OSError):
                pass  # the command stopped reading: what it should do with too much
            finally:
                with contextlib.suppress(OSError):
                    proc.stdin.close()

        writer = threading.Thread(target=write, daemon=True) if proc.stdin is not None else None
        if writer is not None:
            writer.start()
        timer = threading.Timer(case.get("max_seconds", TIME_LIMIT), os.killpg, (proc.pid, signal.SIGKILL))
        timer.start()
        try:
            proc.wait()
        finally:
            timer.cancel()
        if writer is not None:
            writer.join(timeout=10)
        out.seek(0)
        err.seek(0)
        return (
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            _peak_mb(peak_file),
        )


# --- the checks -----------------------------------------------------------------------------------


def _json_value(obj: Any, dotted: str) -> Any:
    for key in dotted.split("."):
        obj = obj[key]
    return obj


def _check(case: dict[str, Any], folder: Path, status: int, out: str, err: str) -> None:
    where = f"{case['name']}: status {status}, stderr {err!r}, stdout {out[:300]!r}"
    assert status >= 0, f"{where} (killed: the time limit?)"
    if "status" in case:
        assert status == case["status"], where
    else:
        assert status in case["status_in"], where
    assert "Traceback" not in err and "Traceback" not in out, where
    lines = err.splitlines()
    if "stderr_lines" in case:
        assert len(lines) == case["stderr_lines"], where
    elif "stderr_lines_max" in case:
        assert len(lines) <= case["stderr_lines_max"], where
    elif status != 0:
        assert len(lines) == 1 and lines[0].startswith("error: "), where
    if "stderr" in case:
        assert case["stderr"] in err, where
    for text in case.get("stderr_lacks", []):
        assert text not in err, where
    for text in case.get("stdout_has", []):
        assert text in out, where
    for flag in case.get("flags_bare", []):  # a flag's help line shows no value type after it
        (line,) = [x for x in out.splitlines() if f" {flag} " in x]
        assert "<bool>" not in line, where
    if case.get("stdout_empty"):
        assert out == "", where
    if "json" in case:
        obj = json.loads(out)
        for key, value in case["json"].items():
            assert _json_value(obj, key) == value, where
    if "rows" in case:
        rows = [json.loads(line) for line in out.splitlines()]
        assert [Path(row["input"]).name for row in rows] == [name for name, _ in case["rows"]], where
        for row, (_, want) in zip(rows, case["rows"], strict=True):
            assert row["ok"] is (row["status"] == 0) and ("error" in row) is (row["status"] != 0), where
            if want is not None:
                assert row["status"] == want, where
    if "csv" in case:
        spec = dict(case["csv"])
        with (folder / spec.pop("file")).open(encoding="utf-8", newline="") as handle:
            table = list(csv.DictReader(handle))
        if "rows" in case:
            assert [Path(r["input"]).name for r in table] == [name for name, _ in case["rows"]], where
        for column, values in spec.items():
            got = [r[column] for r in table]
            assert len(got) == len(values), where
            assert all(v is None or g == v for g, v in zip(got, values, strict=True)), (where, column, got)
    for name, text in case.get("untouched", {}).items():
        assert (folder / name).read_text(encoding="utf-8") == text, where
    for name, count in case.get("listing_count", {}).items():
        assert len(list((folder / name).iterdir())) == count, where
    for name, listing in case.get("listing", {}).items():
        assert sorted(p.name for p in (folder / name).iterdir()) == listing, where


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hostile_case(case: dict[str, Any], tmp_path: Path, capfd: Any, monkeypatch: Any) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    for spec in case.get("files", []):
        _make(folder, spec)
    if case.get("process"):
        status, out, err, peak_mb = _run_process(case, folder)
        assert peak_mb < case.get("max_mb", MEMORY_LIMIT_MB), f"{case['name']}: peak {peak_mb:.0f} MB"
    else:
        status, out, err = _run_here(case, folder, capfd, monkeypatch)
    _check(case, folder, status, out, err)


def test_a_child_s_peak_memory_is_its_own_not_this_process_s(tmp_path: Path) -> None:
    """The memory limits measure the command: not the 300 MB this process holds, and all of the 200 MB
    the command fills; its exit status comes through."""
    held = np.ones(300 * 2**20 // 8)  # resident here while the children run
    peak = tmp_path / "peak"
    small = subprocess.run(_measured([sys.executable, "-c", "raise SystemExit(3)"], peak), check=False)
    small_mb = _peak_mb(peak)
    big = subprocess.run(_measured([sys.executable, "-c", "b = b'x' * (200 * 2**20)"], peak), check=False)
    assert held.sum() > 0
    assert (small.returncode, big.returncode) == (3, 0)
    assert 0 < small_mb < 100, small_mb
    assert 200 < _peak_mb(peak) < 290, _peak_mb(peak)


def test_the_corpus_covers_every_exit_status_and_each_part_of_the_issue() -> None:
    statuses = {c.get("status") for c in CASES} | {s for c in CASES for s in c.get("status_in", [])}
    assert {0, 1, 2, 3, 4} <= statuses
    issues = {c["issue"] for c in CASES}
    assert {"markup", "numbers", "memory", "fifo", "newline", "libjpeg", "outputs", "quoting", "status",
            "batch options", "batch accounting", "batch jobs", "batch review", "help", "warnings", "order",
            "bom", "quadratic"} <= issues
    assert len({c["name"] for c in CASES}) == len(CASES)


def test_an_interrupted_batch_keeps_its_finished_rows(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) in the middle of a batch: the CSV holds the header and every row written so far,
    and no temporary file is left behind."""
    import signal
    import time

    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(3):
        _make(tmp_path, {"path": f"in/{i}.sheet", "sheet": {}})
    _make(tmp_path, {"path": "in/9.jpg", "fifo": True})  # refused at once, not waited on
    for i in range(40):
        _make(tmp_path, {"path": f"in/p{i:02d}.jpg", "sample": "phone_A.jpg"})
    out_csv = tmp_path / "out.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [*_command(), "batch", "in", "--cards", CARD4, "--csv", str(out_csv)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # A suite started in the background of a shell without job control ignores SIGINT, and a
        # child inherits that (Python then installs no Ctrl-C handler); a person's terminal does not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    first = [proc.stdout.readline() for _ in range(5)]  # three sheets, the FIFO, the first photo
    assert all(first), first
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    time.sleep(0.1)
    with out_csv.open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert len(table) >= 5 and [r["input"] for r in table[:4]] == [
        "in/0.sheet", "in/1.sheet", "in/2.sheet", "in/9.jpg"
    ]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert proc.returncode == 130 and b"Traceback" not in err, err[-500:]


def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path: Path) -> None:
    """``cartoscan batch ... | head -1``: the command ends by SIGPIPE like any filter, with no traceback
    and not with exit 1 (the status of broken model files)."""
    import signal

    for i in range(400):
        _make(tmp_path, {"path": f"in/{i:03d}.sheet", "sheet": {}})
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [*_command(), "batch", "in", "--cards", CARD4], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"{")
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    proc.wait(timeout=TIME_LIMIT)
    assert proc.returncode == -signal.SIGPIPE and err == b"", (proc.returncode, err[-500:])
