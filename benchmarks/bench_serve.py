"""Load benchmark of ``cartoscan serve`` on the loopback: many photo uploads from concurrent clients.

Starts the server in its own process on 127.0.0.1 (a free port), sends ``--uploads`` photos of about
``--megapixels`` MP (the bundled samples, resized and re-encoded as JPEG) to ``POST /api/scan`` from
``--clients`` threads, and prints: answered / lost, statuses, latency p50 / p95 / max, throughput, and
the server's resident memory (peak, and after the first tenth of the uploads against the end, to see
that it stays flat).  Loopback only; bounded in count and in time (``--time-limit``), then it stops.

    python benchmarks/bench_serve.py --uploads 300 --clients 4 --megapixels 3
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]


def photos(megapixels: float) -> list[bytes]:
    """The bundled sample photos resized to about `megapixels` MP, as JPEG bytes."""
    out = []
    for path in sorted((ROOT / "samples").glob("*.jpg")):
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        f = (megapixels * 1e6 / (h * w)) ** 0.5
        image = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_CUBIC)
        ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        out.append(buffer.tobytes())
    return out


def multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in kB, from /proc (Linux)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--uploads", type=int, default=300)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--megapixels", type=float, default=3.0)
    parser.add_argument("--time-limit", type=float, default=540.0, help="seconds; then the clients stop")
    args = parser.parse_args()

    bodies = [multipart(p) for p in photos(args.megapixels)]
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen(
        [sys.executable, "-c", "import cli; cli.main()", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        base_rss, _ = rss_kb(server.pid)

        lock = threading.Lock()
        next_index = 0
        results: list[tuple[int, float]] = []  # (status, seconds); status 0 = no answer
        early_rss: list[int] = []
        stop_at = time.monotonic() + args.time_limit

        def client() -> None:
            nonlocal next_index
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            while True:
                with lock:
                    if next_index >= args.uploads or time.monotonic() > stop_at:
                        break
                    i = next_index
                    next_index += 1
                body, ctype = bodies[i % len(bodies)]
                t = time.perf_counter()
                try:
                    conn.request("POST", "/api/scan", body=body, headers={"Content-Type": ctype})
                    response = conn.getresponse()
                    answer = response.read()
                    status = response.status
                    if status == 200:
                        json.loads(answer)["grid"]  # a whole scan object came back
                except (OSError, http.client.HTTPException, ValueError, KeyError):
                    status = 0
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                with lock:
                    results.append((status, time.perf_counter() - t))
                    if len(results) == max(1, args.uploads // 10):
                        early_rss.append(rss_kb(server.pid)[0])
            conn.close()

        t0 = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - t0
        end_rss, peak = rss_kb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)

    statuses: dict[int, int] = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    latencies = sorted(seconds for status, seconds in results if status)
    answered = sum(1 for status, _ in results if status)
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [0.0] * 99
    mp = args.megapixels
    print(f"uploads sent {len(results)} of {args.uploads} ({mp} MP JPEG, {len(bodies)} photos, "
          f"~{sum(len(b) for b, _ in bodies) / len(bodies) / 1e6:.1f} MB each), {args.clients} clients")
    print(f"answered {answered}, lost {args.uploads - answered}, statuses {dict(sorted(statuses.items()))}")
    print(f"latency p50 {q[49] * 1000:.0f} ms, p95 {q[94] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms; "
          f"{len(results) / wall:.1f} uploads/s over {wall:.1f} s")
    early = early_rss[0] if early_rss else end_rss
    print(f"server memory: at start {base_rss / 1024:.0f} MB, after {args.uploads // 10} uploads "
          f"{early / 1024:.0f} MB, at the end {end_rss / 1024:.0f} MB, peak {peak / 1024:.0f} MB")


if __name__ == "__main__":
    main()
